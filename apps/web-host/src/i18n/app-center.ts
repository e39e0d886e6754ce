/**
 * The text of the app center (app-center/AppCenter.tsx): installed MiniApps and MCP servers, the bundled catalogue,
 * installing, and what each action did.
 */
import type { AuditType } from '@lineup/runtime';
import type { AgentToolActivation, AgentToolCallModel, LineUpRiskLevel } from '@lineup/shared/protocol';
import { APP_CENTER_PROBLEM_TEXT } from './app-center-problems.ts';
import type { Bilingual } from './language.ts';

/** Device features by their permissions-policy names, as people say them. */
const EN_DEVICES: Readonly<Record<string, string>> = {
  geolocation: 'your location',
  'clipboard-write': 'the clipboard (writing)',
};
const ZH_DEVICES: Readonly<Record<string, string>> = {
  geolocation: '你的位置',
  'clipboard-write': '剪贴板（写入）',
};

/** What a view asks for or was allowed, in English: "connect to …", "load … from …", "use …". */
function enNetwork(
  connect: readonly string[],
  resources: readonly string[],
  devices: readonly string[],
): string {
  return [
    ...(connect.length > 0 ? [`connect to ${connect.join(', ')}`] : []),
    ...(resources.length > 0 ? [`load images, styles, fonts and media from ${resources.join(', ')}`] : []),
    ...(devices.length > 0
      ? [`use ${devices.map((device) => EN_DEVICES[device] ?? device).join(' and ')}`]
      : []),
  ].join(' and to ');
}

/** The same in Chinese. */
function zhNetwork(
  connect: readonly string[],
  resources: readonly string[],
  devices: readonly string[],
): string {
  return [
    ...(connect.length > 0 ? [`连接 ${connect.join('、')}`] : []),
    ...(resources.length > 0 ? [`从 ${resources.join('、')} 加载图片、样式、字体和媒体`] : []),
    ...(devices.length > 0
      ? [`使用${devices.map((device) => ZH_DEVICES[device] ?? device).join('和')}`]
      : []),
  ].join('，并');
}

const en = {
  title: 'MiniApps',
  starting: 'Starting the runtime…',
  none: 'No MiniApp is installed.',
  installedList: 'Installed MiniApps',
  enabled: 'enabled',
  disabled: 'disabled',
  tools: (name: string) => `${name} Agent Tools`,
  surfaces: (name: string) => `${name} Surfaces`,
  toolsTitle: 'Agent Tools',
  surfacesTitle: 'Surfaces',
  noTools: 'No Agent Tools.',
  noSurfaces: 'No Surfaces.',
  events: (events: readonly string[]) => (events.length === 0 ? 'no events' : `events: ${events.join(', ')}`),
  description: 'Description',
  callModels: {
    query: 'query',
    command: 'command',
    interactive: 'interactive',
    operation: 'operation',
  } satisfies Record<AgentToolCallModel, string>,
  activations: {
    app_ready: 'app ready',
    foreground_required: 'foreground required',
    activation_not_required: 'activation not required',
  } satisfies Record<AgentToolActivation, string>,
  risk: (level: LineUpRiskLevel) =>
    `risk: ${{ display_only: 'display only', user_confirmation: 'user confirmation', system_permission: 'system permission', restricted: 'restricted' }[level]}`,
  inventory: 'Inventory published to agents:',
  toolCount: (count: number) => `${count} Agent Tools`,
  size: (size: string) => `Bundle: ${size}`,
  verified: (files: number) => `Verified bundle: ${files} files`,
  unverified: 'Bundle not verified',
  pending: (previous: string, version: string) =>
    `Upgrade pending first start: ${previous} is kept until ${version} has started once.`,
  refused: (time: string) => `Last bundle check refused (${time}):`,
  rolledBack: (time: string) => `Rolled back (${time}): the new version did not start —`,
  picked: 'Installed from a picked folder: to update it, pick the newer folder under “Install a MiniApp”.',
  actions: {
    enable: 'Enable',
    disable: 'Disable',
    update: 'Check for update',
    uninstall: 'Uninstall',
    install: 'Install',
  },
  /** A button's accessible name: its action and the app. */
  named: (action: string, name: string) => `${action} ${name}`,
  /** Two sentences in a row. */
  joined: (first: string, second: string) => `${first} ${second}`,
  running: {
    install: 'Installing: fetching and verifying every file…',
    enable: 'Enabling…',
    disable: 'Disabling…',
    update: 'Checking for an update: fetching and verifying every file…',
    uninstall: 'Uninstalling…',
    forget_token: 'Forgetting the access token…',
    sign_in: 'Signing in: finish in the window that opened…',
  },
  failed: {
    install: 'Not installed.',
    enable: 'Not enabled.',
    disable: 'Not disabled.',
    update: 'The update was refused; the installed version is unchanged.',
    uninstall: 'Not uninstalled.',
    forget_token: 'The access token was not forgotten.',
    sign_in: 'Not signed in.',
  },
  results: {
    installed: (name: string, version: string) => `Installed ${name} ${version}.`,
    replaced: (name: string, version: string) => `Installed the new build of ${name} ${version}.`,
    updated: (name: string, from: string, to: string) =>
      `Updated ${name} from ${from} to ${to}; ${from} is kept until ${to} has started once.`,
    refreshed: (name: string, from: string, to: string) =>
      `Refreshed ${name}: it lists other tools or views now, kept as ${to} (was ${from}).`,
    upToDate: (name: string, version: string) => `${name} ${version} is up to date.`,
    unchanged: (name: string, version: string) =>
      `${name} ${version} is already installed from this bundle; nothing changed.`,
    enabled: (name: string) => `${name} is enabled: its Agent Tools are published to agents.`,
    disabled: (name: string) =>
      `${name} is disabled: its Agent Tools are withdrawn and its running calls ended.`,
    uninstalled: (name: string) => `${name} was uninstalled.`,
    tokenForgotten: (name: string) =>
      `The access token of ${name} was forgotten: its requests go without one until you add it again with one.`,
    signedIn: (name: string) => `Signed in to ${name}.`,
    signedOut: (name: string) =>
      `Signed out of ${name}: its tokens are forgotten here, and its calls are refused until you sign in again.`,
  },
  confirmUninstall: (name: string) =>
    `Uninstall ${name}? Its kept files and its session data are deleted, and its calls still running end as revoked.`,
  confirm: 'Yes, uninstall',
  keep: 'Keep',
  audit: (name: string) => `${name} audit log`,
  auditTitle: (count: number) => `Audit log (${count === 50 ? 'last 50' : count})`,
  noAudit: 'No entries.',
  auditTypes: {
    app_installed: 'installed',
    app_updated: 'updated',
    app_enabled: 'enabled',
    app_disabled: 'disabled',
    tool_call_accepted: 'tool call accepted',
    tool_call_rejected: 'tool call rejected',
    tool_call_finished: 'tool call finished',
    activation_started: 'activation started',
    activation_ready: 'activation ready',
    activation_failed: 'activation failed',
    activation_cancelled: 'activation cancelled',
    operation_started: 'operation started',
    operation_finished: 'operation finished',
    host_intent: 'host intent',
    app_ready: 'page ready',
    app_failed: 'page failed',
    session_data_written: 'session data written',
    ui_action: 'UI action',
    capability_declared: 'capability declared',
    capability_revoked: 'capability revoked',
    capability_call_received: 'capability call received',
    capability_call_decided: 'capability call decided',
    capability_call_finished: 'capability call finished',
    action_reserved: 'action reserved',
    action_status: 'action status',
    bundle_rejected: 'bundle refused',
    app_upgrade_confirmed: 'upgrade confirmed',
    app_rolled_back: 'rolled back',
    app_uninstalled: 'uninstalled',
    instance_withdrawn: 'instance withdrawn',
    tool_consent: 'consent',
    consent_settings: 'consent settings changed',
  } satisfies Record<AuditType, string>,
  catalogue: 'Bundled with this host',
  notInstalled: 'not installed',
  install: 'Install a MiniApp',
  urlLabel: 'Bundle URL on this site',
  urlHint: 'The folder that holds lineup.manifest.json, on this site, such as /apps/notes/.',
  urlInstall: 'Install from URL',
  dev: {
    title: 'Developing a MiniApp',
    following: 'Following the dev bundle at',
    hint: 'Installed again, after every file is verified, each time its build changes; the app’s page reloads if it is open. Call its tools from the agent console.',
  },
  folderLabel: 'Bundle folder',
  folderChoose: 'Choose a folder…',
  folderHint:
    'Pick the folder that holds lineup.manifest.json (an app’s build output); it installs at once, after every file is verified.',
  startup: (bundleUrl: string, reason: string) => `The bundle at ${bundleUrl} was not installed: ${reason}`,
  problem: APP_CENTER_PROBLEM_TEXT.en,
  page: {
    networkTitle: 'Network',
    connectAsked: (domains: readonly string[]) =>
      `Its page asks to connect to ${domains.join(', ')}. Not allowed: it runs with no network.`,
  },
  grant: {
    title: (name: string) => `${name} asks for access`,
    intro: (kind: 'page' | 'views'): string =>
      kind === 'page'
        ? 'Its page runs with no network until you allow it. It gets exactly what you allow here, and nothing else.'
        : 'Its views run with no network and no device until you allow them. Each gets exactly what you allow here, and nothing else.',
    page: (connect: readonly string[]) => `Its page asks to connect to ${connect.join(', ')}.`,
    view: (
      uri: string,
      connect: readonly string[],
      resources: readonly string[],
      devices: readonly string[],
    ) => `The view ${uri} asks to ${enNetwork(connect, resources, devices)}.`,
    noScripts: 'Nothing it loads from another origin ever runs as a script.',
    later: 'Either way, you can change this at any time in the app center, under the app.',
    allow: 'Allow',
    notNow: 'Not now',
  },
  mcp: {
    install: 'Add an MCP server',
    urlLabel: 'MCP server URL (Streamable HTTP)',
    urlHint:
      'Such as http://localhost:3001/mcp. https:, or http: on this machine. Its tools join the inventory; the views they open are kept, checked, and run with no network until you allow what they ask for.',
    scopeLabel: 'App scope (optional)',
    scopeHint: 'The prefix of its tool names; taken from the server’s name when left empty.',
    tokenLabel: 'Access token (optional)',
    tokenHint:
      'For a server that asks who you are: the token its owner gave you. Kept in this browser and sent to this server only — never to a view, an app or the agent. Adding the same URL again with another token replaces it.',
    tokenKept: 'Uses an access token kept in this browser, sent to this server only.',
    tokenRefused: (time: string) =>
      `The server refused this access token at ${time}: its calls fail until you add the same URL again with its new token, or forget this one.`,
    forgetToken: 'Forget the access token',
    signIn: 'Sign in to this server',
    signInAgain: 'Sign in again',
    signedIn: 'Signed in (OAuth): its tokens are kept in this browser and sent to this server only.',
    signInExpired: 'Its sign-in has ended: its calls are refused until you sign in again.',
    signOut: 'Sign out',
    add: 'Add server',
    badge: 'MCP server',
    server: (url: string) => `Server: ${url}`,
    protocol: (version: string) => `protocol ${version}`,
    viewsTitle: 'Views',
    noViews: 'No views.',
    viewSize: (size: string) => `kept, ${size}`,
    withheld: (domains: readonly string[], media: boolean) =>
      `It declares it needs ${[
        ...(domains.length > 0 ? [`network access to ${domains.join(', ')}`] : []),
        ...(media ? ['the camera or the microphone'] : []),
      ].join(' · ')}, which LineUp never gives a view.`,
    connectAsked: (domains: readonly string[]) =>
      `It asks to connect to ${domains.join(', ')}. Not allowed: it runs with no network.`,
    connectGranted: (domains: readonly string[]) =>
      `Allowed to connect to ${domains.join(', ')}, and to nothing else.`,
    networkAsked: (connect: readonly string[], resources: readonly string[], devices: readonly string[]) =>
      `It asks to ${enNetwork(connect, resources, devices)}. Not allowed: it runs with no network${devices.length > 0 ? ' and no device' : ''}.`,
    networkGranted: (connect: readonly string[], resources: readonly string[], devices: readonly string[]) =>
      `Allowed to ${enNetwork(connect, resources, devices)}, and to nothing else${resources.length > 0 ? ' (never scripts)' : ''}.`,
    networkMore: (connect: readonly string[], resources: readonly string[], devices: readonly string[]) =>
      `Since then it also asks to ${enNetwork(connect, resources, devices)}: not allowed.`,
    allowConnect: 'Allow these connections',
    allowDevices: 'Allow these devices',
    devicesLabel: (uri: string, devices: readonly string[]) =>
      `Allow these devices: ${uri} to use ${devices.map((device) => EN_DEVICES[device] ?? device).join(' and ')}`,
    stopConnect: 'Stop allowing',
    connectLabel: (uri: string, domains: readonly string[]) =>
      `Allow these connections: ${uri} to ${domains.join(', ')}`,
    viewTools: 'Tools only its views call',
    agentOnly: 'not callable from its views',
    refresh: 'Refresh',
    changes: (added: number, removed: number, changed: number, views: number) =>
      `${added} tools added, ${removed} removed, ${changed} changed; ${views} views changed.`,
  },
};

export type AppCenterText = typeof en;

const zh: AppCenterText = {
  title: '小程序',
  starting: '正在启动运行时…',
  none: '没有安装小程序。',
  installedList: '已安装的小程序',
  enabled: '已启用',
  disabled: '已停用',
  tools: (name: string) => `${name} 的智能体工具`,
  surfaces: (name: string) => `${name} 的 Surface`,
  toolsTitle: '智能体工具',
  surfacesTitle: 'Surface',
  noTools: '没有智能体工具。',
  noSurfaces: '没有 Surface。',
  events: (events: readonly string[]) => (events.length === 0 ? '无事件' : `事件：${events.join('、')}`),
  description: '说明',
  callModels: { query: '查询', command: '命令', interactive: '交互', operation: '操作' },
  activations: {
    app_ready: '需应用就绪',
    foreground_required: '需在前台',
    activation_not_required: '无需激活',
  },
  risk: (level: LineUpRiskLevel) =>
    `风险：${{ display_only: '仅显示', user_confirmation: '需用户确认', system_permission: '系统权限', restricted: '受限' }[level]}`,
  inventory: '向智能体发布的清单：',
  toolCount: (count: number) => `${count} 个智能体工具`,
  size: (size: string) => `包大小：${size}`,
  verified: (files: number) => `已验证的包：${files} 个文件`,
  unverified: '包未经验证',
  pending: (previous: string, version: string) =>
    `升级待首次启动：在 ${version} 成功启动一次之前，保留 ${previous}。`,
  refused: (time: string) => `最近一次包校验被拒绝（${time}）：`,
  rolledBack: (time: string) => `已回滚（${time}）：新版本未能启动——`,
  picked: '从所选文件夹安装：如需更新，请在“安装小程序”中选择新版本的文件夹。',
  actions: {
    enable: '启用',
    disable: '停用',
    update: '检查更新',
    uninstall: '卸载',
    install: '安装',
  },
  named: (action: string, name: string) => `${action} ${name}`,
  joined: (first: string, second: string) => `${first}${second}`,
  running: {
    install: '正在安装：获取并校验每个文件…',
    enable: '正在启用…',
    disable: '正在停用…',
    update: '正在检查更新：获取并校验每个文件…',
    uninstall: '正在卸载…',
    forget_token: '正在忘记访问令牌…',
    sign_in: '正在登录：请在打开的窗口中完成…',
  },
  failed: {
    install: '未安装。',
    enable: '未启用。',
    disable: '未停用。',
    update: '更新被拒绝；已安装的版本没有变化。',
    uninstall: '未卸载。',
    forget_token: '访问令牌未被忘记。',
    sign_in: '未登录。',
  },
  results: {
    installed: (name: string, version: string) => `已安装 ${name} ${version}。`,
    replaced: (name: string, version: string) => `已安装 ${name} ${version} 的新构建。`,
    updated: (name: string, from: string, to: string) =>
      `已将 ${name} 从 ${from} 更新到 ${to}；在 ${to} 成功启动一次之前，保留 ${from}。`,
    refreshed: (name: string, from: string, to: string) =>
      `已刷新 ${name}：它现在列出的工具或视图有变化，保存为 ${to}（原为 ${from}）。`,
    upToDate: (name: string, version: string) => `${name} ${version} 已是最新版本。`,
    unchanged: (name: string, version: string) => `${name} ${version} 已从这个包安装，没有变化。`,
    enabled: (name: string) => `${name} 已启用：它的智能体工具已发布给智能体。`,
    disabled: (name: string) => `${name} 已停用：它的智能体工具已撤回，进行中的调用已结束。`,
    uninstalled: (name: string) => `${name} 已卸载。`,
    tokenForgotten: (name: string) =>
      `已忘记 ${name} 的访问令牌：在你重新带令牌添加它之前，它的请求都不带令牌。`,
    signedIn: (name: string) => `已登录 ${name}。`,
    signedOut: (name: string) => `已退出 ${name}：这里已忘记它的令牌，在你重新登录之前它的调用都会被拒绝。`,
  },
  confirmUninstall: (name: string) =>
    `卸载 ${name}？它保留的文件和会话数据都会被删除，进行中的调用将以 revoked 结束。`,
  confirm: '确定卸载',
  keep: '保留',
  audit: (name: string) => `${name} 的审计日志`,
  auditTitle: (count: number) => `审计日志（${count === 50 ? '最近 50 条' : `${count} 条`}）`,
  noAudit: '没有记录。',
  auditTypes: {
    app_installed: '已安装',
    app_updated: '已更新',
    app_enabled: '已启用',
    app_disabled: '已停用',
    tool_call_accepted: '工具调用已接受',
    tool_call_rejected: '工具调用被拒绝',
    tool_call_finished: '工具调用已结束',
    activation_started: '激活开始',
    activation_ready: '激活就绪',
    activation_failed: '激活失败',
    activation_cancelled: '激活取消',
    operation_started: '操作开始',
    operation_finished: '操作结束',
    host_intent: '宿主意图',
    app_ready: '页面就绪',
    app_failed: '页面失败',
    session_data_written: '写入会话数据',
    ui_action: '界面操作',
    capability_declared: '声明能力',
    capability_revoked: '撤销能力',
    capability_call_received: '收到能力调用',
    capability_call_decided: '能力调用已决定',
    capability_call_finished: '能力调用已结束',
    action_reserved: '操作已登记',
    action_status: '操作状态',
    bundle_rejected: '包被拒绝',
    app_upgrade_confirmed: '升级已确认',
    app_rolled_back: '已回滚',
    app_uninstalled: '已卸载',
    instance_withdrawn: '实例已撤回',
    tool_consent: '调用确认',
    consent_settings: '确认设置已更改',
  },
  catalogue: '宿主自带',
  notInstalled: '未安装',
  install: '安装小程序',
  urlLabel: '本站的包 URL',
  urlHint: '存放 lineup.manifest.json 的文件夹，须在本站，例如 /apps/notes/。',
  urlInstall: '从 URL 安装',
  dev: {
    title: '开发中的小程序',
    following: '正在跟随开发包：',
    hint: '每次构建变化后，校验全部文件并重新安装；若应用页面已打开则重新加载。可在智能体控制台调用其工具。',
  },
  folderLabel: '包文件夹',
  folderChoose: '选择文件夹…',
  folderHint: '选择存放 lineup.manifest.json 的文件夹（应用的构建输出）；每个文件校验通过后立即安装。',
  startup: (bundleUrl: string, reason: string) => `位于 ${bundleUrl} 的包没有安装：${reason}`,
  problem: APP_CENTER_PROBLEM_TEXT.zh,
  page: {
    networkTitle: '网络',
    connectAsked: (domains: readonly string[]) =>
      `它的页面请求连接 ${domains.join('、')}。未允许：它在无网络的环境中运行。`,
  },
  grant: {
    title: (name: string) => `${name} 请求访问权限`,
    intro: (kind: 'page' | 'views'): string =>
      kind === 'page'
        ? '在你允许之前，它的页面在无网络的环境中运行。它只得到你在此允许的内容，别无其他。'
        : '在你允许之前，它的视图在无网络、无设备的环境中运行。每个视图只得到你在此允许的内容，别无其他。',
    page: (connect: readonly string[]) => `它的页面请求连接 ${connect.join('、')}。`,
    view: (
      uri: string,
      connect: readonly string[],
      resources: readonly string[],
      devices: readonly string[],
    ) => `视图 ${uri} 请求${zhNetwork(connect, resources, devices)}。`,
    noScripts: '它从其他来源加载的任何内容都不会作为脚本运行。',
    later: '无论如何选择，你都可以随时在小程序中心的该应用下更改。',
    allow: '允许',
    notNow: '暂不',
  },
  mcp: {
    install: '添加 MCP 服务器',
    urlLabel: 'MCP 服务器 URL（Streamable HTTP）',
    urlHint:
      '例如 http://localhost:3001/mcp。须为 https:，或本机上的 http:。其工具加入工具清单；它们打开的视图会被保存、校验，并在你允许它们请求的内容之前于无网络的环境中运行。',
    scopeLabel: '应用作用域（可选）',
    scopeHint: '其工具名称的前缀；留空时取自服务器名称。',
    tokenLabel: '访问令牌（可选）',
    tokenHint:
      '用于要求验证身份的服务器：填写其所有者给你的令牌。它保存在此浏览器中，只发送给这个服务器——绝不发给视图、应用或智能体。用另一个令牌再次添加同一 URL 会替换它。',
    tokenKept: '使用保存在此浏览器中的访问令牌，只发送给这个服务器。',
    tokenRefused: (time: string) =>
      `服务器在 ${time} 拒绝了这个访问令牌：在你用它的新令牌再次添加同一 URL，或忘记这个令牌之前，它的调用都会失败。`,
    forgetToken: '忘记访问令牌',
    signIn: '登录此服务器',
    signInAgain: '重新登录',
    signedIn: '已登录（OAuth）：它的令牌保存在此浏览器中，只发送给这个服务器。',
    signInExpired: '它的登录已失效：在你重新登录之前，它的调用都会被拒绝。',
    signOut: '退出登录',
    add: '添加服务器',
    badge: 'MCP 服务器',
    server: (url: string) => `服务器：${url}`,
    protocol: (version: string) => `协议 ${version}`,
    viewsTitle: '视图',
    noViews: '没有视图。',
    viewSize: (size: string) => `已保存，${size}`,
    withheld: (domains: readonly string[], media: boolean) =>
      `它声明需要${[
        ...(domains.length > 0 ? [`访问网络（${domains.join('、')}）`] : []),
        ...(media ? ['摄像头或麦克风'] : []),
      ].join(' · ')}；LineUp 从不给视图这些。`,
    connectAsked: (domains: readonly string[]) =>
      `它请求连接 ${domains.join('、')}。未允许：它在无网络的环境中运行。`,
    connectGranted: (domains: readonly string[]) => `已允许连接 ${domains.join('、')}，且仅限这些。`,
    networkAsked: (connect: readonly string[], resources: readonly string[], devices: readonly string[]) =>
      `它请求${zhNetwork(connect, resources, devices)}。未允许：它在无网络${devices.length > 0 ? '、无设备' : ''}的环境中运行。`,
    networkGranted: (connect: readonly string[], resources: readonly string[], devices: readonly string[]) =>
      `已允许${zhNetwork(connect, resources, devices)}，且仅限这些${resources.length > 0 ? '（从不加载脚本）' : ''}。`,
    networkMore: (connect: readonly string[], resources: readonly string[], devices: readonly string[]) =>
      `此后它还请求${zhNetwork(connect, resources, devices)}：未允许。`,
    allowConnect: '允许这些连接',
    allowDevices: '允许这些设备',
    devicesLabel: (uri: string, devices: readonly string[]) =>
      `允许这些设备：${uri} 使用${devices.map((device) => ZH_DEVICES[device] ?? device).join('和')}`,
    stopConnect: '停止允许',
    connectLabel: (uri: string, domains: readonly string[]) =>
      `允许这些连接：${uri} 连接 ${domains.join('、')}`,
    viewTools: '仅供其视图调用的工具',
    agentOnly: '其视图不可调用',
    refresh: '刷新',
    changes: (added: number, removed: number, changed: number, views: number) =>
      `新增 ${added} 个工具，移除 ${removed} 个，更改 ${changed} 个；${views} 个视图有变化。`,
  },
};

export const APP_CENTER_TEXT: Bilingual<AppCenterText> = { en, zh };
