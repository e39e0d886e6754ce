/**
 * The host's own text in English and Chinese. The language follows the browser (`navigator.language`) until the
 * user picks one with the switch in the header, which is remembered in this browser. Protocol logs (the "→ agent"
 * lines) stay as sent: they are messages, not prose.
 */
import type { AuditType } from '@lineup/runtime';
import type { McpServerErrorCode } from '@lineup/runtime/mcp';
import type { AgentToolActivation, AgentToolCallModel, LineUpRiskLevel } from '@lineup/shared/protocol';
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import type { AppCenterProblem } from './app-center/problems.ts';

export type HostLanguage = 'en' | 'zh';

/** What each refusal of an MCP server means, before the runtime's own sentence (which names the tool or view). */
const MCP_PROBLEM_EN: Readonly<Record<McpServerErrorCode, string>> = {
  invalid_url: 'This is not a URL an MCP server may have:',
  unreachable: 'The server could not be reached; nothing was kept.',
  off_spec: 'The server answered off the MCP specification; nothing was kept.',
  too_many: 'The server lists more than LineUp keeps; nothing was kept.',
  view_refused: 'One of its views cannot be kept; nothing was kept.',
  schema_unusable: 'One of its tool schemas cannot be used; nothing was kept.',
  scope_taken: 'Another app uses this app scope: add it under another one.',
};

const MCP_PROBLEM_ZH: Readonly<Record<McpServerErrorCode, string>> = {
  invalid_url: '这不是 MCP 服务器可用的 URL：',
  unreachable: '无法连接该服务器；没有保存任何内容。',
  off_spec: '该服务器的应答不符合 MCP 规范；没有保存任何内容。',
  too_many: '该服务器列出的内容超过 LineUp 的上限；没有保存任何内容。',
  view_refused: '它的某个视图无法保存；没有保存任何内容。',
  schema_unusable: '它的某个工具模式无法使用；没有保存任何内容。',
  scope_taken: '另一个应用已使用此应用作用域：请换一个再添加。',
};

const en = {
  tagline: 'Web Reference Host',
  languageSwitch: 'Language',
  conversation: 'Conversation',
  mainLabel: 'Conversation and apps',
  newInterface: (name: string) => `New interface: ${name}`,
  storage: {
    blocked:
      'Waiting for another LineUp tab: it has an older version open. Close the other LineUp tabs to continue.',
    replaced:
      'LineUp was updated in another tab. Reload this page to go on; nothing here can be saved until then.',
    deleted:
      'LineUp’s data was deleted in another tab. Reload this page to start again; nothing here can be saved until then.',
    terminated: 'The browser closed LineUp’s storage (it may have been cleared). Reload this page to go on.',
    reload: 'Reload',
  },
  tabs: {
    waiting:
      'LineUp is open in another tab. Only one tab runs it at a time: this one starts by itself when the other closes.',
    moved: 'LineUp moved to another tab. Nothing here runs or is saved until you take it back.',
    unguarded:
      'This browser cannot keep LineUp to one tab (it has no Web Locks here). Open LineUp in one tab only: two tabs could both connect to the agent and act on what it asks.',
    useHere: 'Use LineUp here',
    takingOver: 'Asking the other tab…',
  },
  empty:
    'Say something to the agent, show an example, or paste a document or a lineup.v1 message to see how agent interfaces render here.',
  status: {
    idle: 'Agent: not connected',
    connecting: 'Agent: connecting…',
    open: 'Agent: connected',
    closed: 'Agent: disconnected, retrying…',
    stopped: 'Agent: disconnected',
    refused: 'Agent: refused this device (no valid device token)',
  },
  demoAgent: 'demo agent',
  messageLabel: 'Message to the agent',
  proposedBy: (who: string) => `Proposed by ${who}: nothing is sent until you press Send.`,
  mcpView: {
    title: (server: string, tool: string) => `${server} · ${tool}`,
    close: (server: string) => `Close the view of ${server}`,
    unavailable: (reason: string) => `This view cannot be opened: ${reason}`,
    asksFor: 'Its view declares that it needs network or device access; it runs without.',
    linkRefused: 'The link was not opened.',
    loading: 'Opening the view…',
  },
  send: 'Send',
  examples: 'Examples',
  inlineSurface: 'Inline Surface',
  pasteLabel: 'Document or lineup.v1 message (JSON)',
  deliver: 'Deliver',
  wholeMessage: 'Whole message',
  toAgent: '→ agent',
  refused: 'refused',
  you: 'You',
  agent: 'Agent',
  viaAction: (actionId: string) => `pressed “${actionId}” in an interface`,
  waitingForFrame: 'Waiting for the first frame…',
  locale: 'en',
  conversations: 'Conversations',
  untitled: 'New conversation',
  newConversation: 'New conversation',
  queued: 'waiting for the agent',
  earlierHidden: (count: number) =>
    `${count.toLocaleString('en')} earlier ${count === 1 ? 'message is' : 'messages are'} not shown.`,
  showEarlier: 'Show earlier',
  workspace: {
    shown: 'In the foreground',
    opening: 'Opening…',
    back: 'Back to conversation',
    close: 'Close',
  },
  closeNamed: (name: string) => `Close ${name}`,
  surfaceUnavailable: (reason: string) => `This Surface cannot be opened: ${reason}`,
  consent: {
    title: 'The agent asks to use a capability',
    titleInterface: 'A button you pressed asks to use a capability',
    capability: 'Capability',
    reason: "Why, in the agent's words",
    origin: 'Asked by',
    fromInterface: (title: string, actionId: string) =>
      `You pressed the “${actionId}” action of the interface “${title}”, which the agent sent.`,
    titleView: (server: string) => `A view of ${server} asks to use a capability`,
    fromView: (server: string) =>
      `The view of the MCP server “${server}”, shown beside one of its tool calls, asked for it.`,
    noExpiry: 'This request waits for your answer; it runs only if you allow it.',
    what: 'What will happen',
    arguments: 'Details',
    risk: {
      display_only: 'Shows something only',
      user_confirmation: 'Needs your confirmation',
      system_permission: 'Uses a browser permission: asked every time',
      restricted: 'Restricted: asked every time, with a second confirmation',
    } as Record<string, string>,
    expires: (time: string) => `This request expires at ${time}.`,
    /** What each of this host's capabilities does, in the host's words. */
    descriptions: {
      'app.open_url': 'Opens a web page in a new browser tab. The page does not get access to this one.',
      'clipboard.write': 'Copies text to your clipboard, replacing what is there.',
      'device.pick_file':
        'Asks you to pick one file from your device. Its name, type and size are shared, and its text when it is small.',
      'artifact.save': 'Saves a file the agent wrote to your downloads.',
    } as Record<string, string>,
    remember: 'Allow this capability for the rest of this conversation',
    allow: 'Allow',
    deny: 'Deny',
    confirmAgain: 'Yes, I am sure',
    extraStep: 'This capability is restricted. Confirm once more that you want it to run.',
    waiting: (count: number) => `${count} more request${count === 1 ? '' : 's'} waiting`,
  },
  /** The app center (app-center/AppCenter.tsx): installed MiniApps, the bundled catalogue, installing. */
  apps: {
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
    events: (events: readonly string[]) =>
      events.length === 0 ? 'no events' : `events: ${events.join(', ')}`,
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
    },
    failed: {
      install: 'Not installed.',
      enable: 'Not enabled.',
      disable: 'Not disabled.',
      update: 'The update was refused; the installed version is unchanged.',
      uninstall: 'Not uninstalled.',
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
    problem: (problem: AppCenterProblem): string => {
      switch (problem.kind) {
        case 'integrity':
          return problem.message;
        case 'protocol':
          return `The manifest is not valid (${problem.issues.length === 1 ? '1 problem' : `${problem.issues.length} problems`}):`;
        case 'invalid_url':
          return 'Type the URL of a bundle folder on this site, such as /apps/notes/.';
        case 'other_origin':
          return `Only bundles on this site (${problem.origin}) can be installed by URL: this host has no bundle policy to trust another site. Nothing was fetched.`;
        case 'dev_not_local':
          return 'A dev bundle must be on this machine (localhost, 127.0.0.1 or [::1]). Nothing was fetched.';
        case 'dev_unavailable':
          return problem.status === 0
            ? `The dev server cannot be reached: ${problem.message} Is \`npm run dev\` running?`
            : `The dev server answered ${problem.status}: ${problem.message}`;
        case 'dev_build_failed':
          return problem.running === undefined
            ? 'The build failed, so nothing is installed yet; the dev server says (fix it and save):'
            : `The new build failed; ${problem.running.name} ${problem.running.version} from the last good build still runs and answers calls. The dev server says (fix it and save):`;
        case 'no_manifest':
          return `The folder “${problem.folder}” has no lineup.manifest.json at its top: pick the folder that holds it.`;
        case 'nothing_picked':
          return 'No file was picked.';
        case 'no_bundle_url':
          return 'This app was installed from a picked folder, so there is no URL to check: pick the newer folder under “Install a MiniApp”.';
        case 'mcp':
          return `${MCP_PROBLEM_EN[problem.code]} ${problem.message}`;
        case 'mcp_unavailable':
          return 'This host cannot reach MCP servers.';
        case 'failed':
          return `It failed: ${problem.message}`;
      }
    },
    mcp: {
      install: 'Add an MCP server',
      urlLabel: 'MCP server URL (Streamable HTTP)',
      urlHint:
        'Such as http://localhost:3001/mcp. https:, or http: on this machine. Its tools join the inventory; the views they open are kept, checked, and run with no network.',
      scopeLabel: 'App scope (optional)',
      scopeHint: 'The prefix of its tool names; taken from the server’s name when left empty.',
      add: 'Add server',
      badge: 'MCP server',
      server: (url: string) => `Server: ${url}`,
      protocol: (version: string) => `protocol ${version}`,
      viewsTitle: 'Views',
      noViews: 'No views.',
      viewSize: (size: string) => `kept, ${size}`,
      asksFor: (what: string) =>
        `It declares it needs ${what}; LineUp views run with no network and no device features, so it gets none of it.`,
      network: (domains: readonly string[]) => `network access to ${domains.join(', ')}`,
      devices: 'device features',
      viewTools: 'Tools only its views call',
      agentOnly: 'not callable from its views',
      refresh: 'Refresh',
      changes: (added: number, removed: number, changed: number, views: number) =>
        `${added} tools added, ${removed} removed, ${changed} changed; ${views} views changed.`,
    },
  },
  /** The agent console (console/AgentConsole.tsx): a protocol inspector that speaks as the agent. */
  agentConsole: {
    title: 'Agent console',
    show: 'Show',
    hide: 'Hide',
    intro:
      'Speak as the agent: call an Agent Tool of the current inventory, watch its progress and result, and see every lineup.v1 message both ways.',
    starting: 'Starting the runtime…',
    unavailable: 'The runtime did not start, so the console has nothing to inspect.',
    remote: (url: string) =>
      `A remote agent is connected (${url}): the console cannot speak for it, so tool calls are off. The message log still shows every message.`,
    notOpen: 'The agent connection is not open: a call sent now would be lost. Wait until it is connected.',
    caller: 'Call an Agent Tool',
    tool: 'Agent Tool',
    noTools: 'The current inventory publishes no Agent Tool.',
    revision: 'Inventory revision',
    toolTimeout: (ms: number) => `times out after ${ms.toLocaleString('en')} ms`,
    noArguments: 'This tool takes no arguments.',
    required: 'required',
    notSet: '(not set)',
    choose: 'Choose…',
    editAsJSON: 'Edit the arguments as JSON',
    argumentsJSON: 'Arguments (JSON object)',
    kinds: { string: 'text', integer: 'integer', number: 'number', boolean: 'true or false', json: 'JSON' },
    length: (min: number | undefined, max: number | undefined) =>
      min !== undefined && max !== undefined
        ? `${min}–${max} characters`
        : min !== undefined
          ? `at least ${min} characters`
          : `at most ${max} characters`,
    multipleOf: (step: number) => `multiple of ${step}`,
    pattern: (pattern: string) => `pattern ${pattern}`,
    fallback: {
      not_an_object: 'The input schema is not an object schema: type the arguments as JSON.',
      composed: 'The schema combines schemas (oneOf, $ref, …): type it as JSON.',
      open_object: 'The schema declares no parameters: type the arguments as a JSON object.',
      nested: 'An object or an array: type it as JSON.',
      union_type: 'Several types are allowed: type it as JSON.',
      untyped: 'The schema names no type: type it as JSON.',
      unsupported_keyword:
        'The schema has rules this form does not check: type it as JSON; the runtime checks it.',
    },
    wait: 'Watch for the final result (ms)',
    waitHint: (ms: number) =>
      `A tool call carries no timeout: the runtime ends it with "timeout" after the tool's own ${ms.toLocaleString('en')} ms. This only sets how long the console waits before it says no result came.`,
    waitInvalid: (max: number) => `The wait must be a whole number of milliseconds from 1 to ${max}.`,
    call: 'Call tool',
    notSent: 'Not sent:',
    wholeArguments: 'The arguments',
    quoted: (name: string) => `“${name}”`,
    issues: {
      required: (field: string) => `${field} is required.`,
      not_a_number: (field: string) => `${field} must be a number, like 25 or 2.5.`,
      not_an_integer: (field: string) => `${field} must be a whole number.`,
      below_minimum: (field: string, limit: string) => `${field} must be at least ${limit}.`,
      above_maximum: (field: string, limit: string) => `${field} must be at most ${limit}.`,
      not_above: (field: string, limit: string) => `${field} must be greater than ${limit}.`,
      not_below: (field: string, limit: string) => `${field} must be less than ${limit}.`,
      not_a_multiple: (field: string, limit: string) => `${field} must be a multiple of ${limit}.`,
      too_short: (field: string, limit: string) => `${field} must be at least ${limit} characters long.`,
      too_long: (field: string, limit: string) => `${field} must be at most ${limit} characters long.`,
      pattern_mismatch: (field: string, limit: string) => `${field} must match the pattern ${limit}.`,
      not_an_option: (field: string) => `${field} must be one of the listed values.`,
      wrong_type: (field: string, limit: string) => `${field} must be of type ${limit}.`,
      invalid_json: (field: string) => `${field} cannot be read as JSON text.`,
      not_an_object: (field: string) => `${field} must be a JSON object, like {"minutes": 25}.`,
      unknown_property: (field: string) =>
        `${field} is not a parameter of this tool, and the schema allows no other.`,
      too_large: (field: string, limit: string) => `${field} must fit in ${limit} bytes.`,
    },
    invalidEnvelope: (path: string) =>
      `The call would not be a valid lineup.v1.tool.call message (at ${path === '' ? 'the envelope' : path}); nothing was sent.`,
    calls: 'Calls from the console',
    noCalls: 'No call yet. A call sent here shows its progress and final result.',
    sentAt: (time: string) => `sent ${time}`,
    phases: {
      sent: 'sent',
      received: 'received by the client',
      in_progress: 'in progress',
      completed: 'completed',
      error: 'error',
      overdue: 'no final result yet',
    },
    overdue: (ms: number) =>
      `No final result within ${ms.toLocaleString('en')} ms; the call may still end later.`,
    waiting: 'Waiting for the final result…',
    progress: 'Progress',
    result: 'Final result',
    errorCode: 'Error code',
    log: 'Message log',
    filter: 'Filter by type',
    shown: (shown: number, total: number) =>
      shown === total
        ? `${total} ${total === 1 ? 'message' : 'messages'}`
        : `${shown} of ${total} ${total === 1 ? 'message' : 'messages'}`,
    dropped: (count: number, limit: number) =>
      `${count} older ${count === 1 ? 'message was' : 'messages were'} dropped; the log keeps the last ${limit}.`,
    directionIn: 'received from the agent',
    resultJson: (callId: string) => `Result of ${callId} (JSON)`,
    messageJson: (type: string) => `Message ${type} (JSON)`,
    directionOut: 'sent to the agent',
    emptyLog: 'No message yet.',
    noMatch: 'No message of a matching type.',
  },
  /** Entry labels (each entry's accessible name), by their English form. */
  labels: {} as Readonly<Record<string, string>>,
};

export type HostText = typeof en;

const zh: HostText = {
  tagline: 'Web 参考宿主',
  languageSwitch: '语言',
  conversation: '对话',
  mainLabel: '对话与应用',
  newInterface: (name: string) => `新界面：${name}`,
  storage: {
    blocked: '正在等待另一个 LineUp 标签页：它打开着旧版本。关闭其他 LineUp 标签页即可继续。',
    replaced: 'LineUp 已在另一个标签页中更新。请重新加载此页面；在此之前这里的内容无法保存。',
    deleted: 'LineUp 的数据已在另一个标签页中删除。请重新加载此页面以重新开始；在此之前这里的内容无法保存。',
    terminated: '浏览器关闭了 LineUp 的存储（可能已被清除）。请重新加载此页面。',
    reload: '重新加载',
  },
  tabs: {
    waiting:
      'LineUp 已在另一个标签页中打开。同一时间只有一个标签页运行它：另一个标签页关闭后，这里会自动启动。',
    moved: 'LineUp 已移到另一个标签页。在你把它移回之前，这里不会运行或保存任何内容。',
    unguarded:
      '此浏览器无法把 LineUp 限制在一个标签页中（这里没有 Web Locks）。请只在一个标签页中打开 LineUp：两个标签页可能都会连接智能体并执行它的请求。',
    useHere: '在此使用 LineUp',
    takingOver: '正在请求另一个标签页…',
  },
  empty: '和智能体说点什么，打开一个示例，或粘贴一个文档或 lineup.v1 消息，看看智能体界面在这里如何呈现。',
  status: {
    idle: '智能体：未连接',
    connecting: '智能体：连接中…',
    open: '智能体：已连接',
    closed: '智能体：已断开，正在重连…',
    stopped: '智能体：已断开',
    refused: '智能体：拒绝了此设备（没有有效的设备令牌）',
  },
  demoAgent: '演示智能体',
  messageLabel: '发给智能体的消息',
  proposedBy: (who: string) => `由 ${who} 提议：在你按下“发送”之前不会发送任何内容。`,
  mcpView: {
    title: (server: string, tool: string) => `${server} · ${tool}`,
    close: (server: string) => `关闭 ${server} 的视图`,
    unavailable: (reason: string) => `无法打开此视图：${reason}`,
    asksFor: '它的视图声明需要网络或设备权限；它在没有这些的情况下运行。',
    linkRefused: '链接未打开。',
    loading: '正在打开视图…',
  },
  send: '发送',
  examples: '示例',
  inlineSurface: '内联 Surface',
  pasteLabel: '文档或 lineup.v1 消息（JSON）',
  deliver: '投递',
  wholeMessage: '完整消息',
  toAgent: '→ 智能体',
  refused: '已拒绝',
  you: '你',
  agent: '智能体',
  viaAction: (actionId: string) => `在界面中按下了“${actionId}”`,
  waitingForFrame: '等待第一帧…',
  locale: 'zh-CN',
  conversations: '对话记录',
  untitled: '新对话',
  newConversation: '新对话',
  queued: '等待智能体',
  earlierHidden: (count: number) => `还有 ${count.toLocaleString('zh-CN')} 条更早的消息未显示。`,
  showEarlier: '显示更早的消息',
  workspace: { shown: '在前台', opening: '正在打开…', back: '返回对话', close: '关闭' },
  closeNamed: (name: string) => `关闭 ${name}`,
  surfaceUnavailable: (reason: string) => `无法打开此界面：${reason}`,
  consent: {
    title: '智能体请求使用一项能力',
    titleInterface: '你按下的按钮请求使用一项能力',
    capability: '能力',
    reason: '原因（智能体的原话）',
    origin: '来源',
    fromInterface: (title: string, actionId: string) =>
      `你在智能体发送的界面“${title}”中按下了“${actionId}”操作。`,
    titleView: (server: string) => `${server} 的视图请求使用一项能力`,
    fromView: (server: string) => `MCP 服务器“${server}”的视图（显示在它的一次工具调用旁）提出了此请求。`,
    noExpiry: '此请求会等待你的回答；只有你允许后才会执行。',
    what: '将会发生什么',
    arguments: '详情',
    risk: {
      display_only: '仅显示内容',
      user_confirmation: '需要你确认',
      system_permission: '使用浏览器权限：每次都会询问',
      restricted: '受限能力：每次都会询问，并需再次确认',
    } as Record<string, string>,
    expires: (time: string) => `此请求将于 ${time} 过期。`,
    descriptions: {
      'app.open_url': '在新的浏览器标签页中打开一个网页。该网页无法访问当前页面。',
      'clipboard.write': '把文字复制到你的剪贴板，替换其中原有的内容。',
      'device.pick_file':
        '请你从设备上选择一个文件。会共享它的名称、类型和大小；文件较小时也会共享其文字内容。',
      'artifact.save': '把智能体写好的文件保存到你的下载目录。',
    } as Record<string, string>,
    remember: '在本次对话中允许此能力，不再询问',
    allow: '允许',
    deny: '拒绝',
    confirmAgain: '是的，我确定',
    extraStep: '这是一项受限能力。请再次确认你希望执行它。',
    waiting: (count: number) => `还有 ${count} 个请求在等待`,
  },
  apps: {
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
    },
    failed: {
      install: '未安装。',
      enable: '未启用。',
      disable: '未停用。',
      update: '更新被拒绝；已安装的版本没有变化。',
      uninstall: '未卸载。',
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
    problem: (problem: AppCenterProblem): string => {
      switch (problem.kind) {
        case 'integrity':
          return integrityZh(problem);
        case 'protocol':
          return `清单无效（${problem.issues.length} 个问题）：`;
        case 'invalid_url':
          return '请输入本站上一个包文件夹的 URL，例如 /apps/notes/。';
        case 'other_origin':
          return `只能通过 URL 安装本站（${problem.origin}）的包：本宿主没有可信任其他站点的包策略。没有获取任何内容。`;
        case 'dev_not_local':
          return '开发包必须在本机上（localhost、127.0.0.1 或 [::1]）。没有获取任何内容。';
        case 'dev_unavailable':
          return problem.status === 0
            ? `无法连接开发服务器：${problem.message} \`npm run dev\` 是否在运行？`
            : `开发服务器返回 ${problem.status}：${problem.message}`;
        case 'dev_build_failed':
          return problem.running === undefined
            ? '构建失败，尚未安装任何内容。开发服务器的消息如下（修正后保存即可）：'
            : `新构建失败；上一次成功构建的 ${problem.running.name} ${problem.running.version} 仍在运行并响应调用。开发服务器的消息如下（修正后保存即可）：`;
        case 'no_manifest':
          return `文件夹“${problem.folder}”的顶层没有 lineup.manifest.json：请选择存放它的文件夹。`;
        case 'nothing_picked':
          return '没有选择任何文件。';
        case 'no_bundle_url':
          return '此应用是从所选文件夹安装的，没有可检查的 URL：请在“安装小程序”中选择新版本的文件夹。';
        case 'mcp':
          return `${MCP_PROBLEM_ZH[problem.code]}${problem.message}`;
        case 'mcp_unavailable':
          return '本宿主无法连接 MCP 服务器。';
        case 'failed':
          return `操作失败：${problem.message}`;
      }
    },
    mcp: {
      install: '添加 MCP 服务器',
      urlLabel: 'MCP 服务器 URL（Streamable HTTP）',
      urlHint:
        '例如 http://localhost:3001/mcp。须为 https:，或本机上的 http:。其工具加入工具清单；它们打开的视图会被保存、校验，并在无网络的环境中运行。',
      scopeLabel: '应用作用域（可选）',
      scopeHint: '其工具名称的前缀；留空时取自服务器名称。',
      add: '添加服务器',
      badge: 'MCP 服务器',
      server: (url: string) => `服务器：${url}`,
      protocol: (version: string) => `协议 ${version}`,
      viewsTitle: '视图',
      noViews: '没有视图。',
      viewSize: (size: string) => `已保存，${size}`,
      asksFor: (what: string) =>
        `它声明需要${what}；LineUp 视图在无网络、无设备功能的环境中运行，因此不会获得这些。`,
      network: (domains: readonly string[]) => `访问网络（${domains.join('、')}）`,
      devices: '设备功能',
      viewTools: '仅供其视图调用的工具',
      agentOnly: '其视图不可调用',
      refresh: '刷新',
      changes: (added: number, removed: number, changed: number, views: number) =>
        `新增 ${added} 个工具，移除 ${removed} 个，更改 ${changed} 个；${views} 个视图有变化。`,
    },
  },
  agentConsole: {
    title: '智能体控制台',
    show: '展开',
    hide: '收起',
    intro:
      '以智能体的身份发言：调用当前清单中的智能体工具，查看它的进度与结果，并查看双向的每条 lineup.v1 消息。',
    starting: '正在启动运行时…',
    unavailable: '运行时没有启动，控制台没有可查看的内容。',
    remote: (url: string) =>
      `已连接远程智能体（${url}）：控制台不能代它发言，因此工具调用已停用。消息日志仍会显示每条消息。`,
    notOpen: '与智能体的连接未打开：现在发送的调用会丢失。请等待连接建立。',
    caller: '调用智能体工具',
    tool: '智能体工具',
    noTools: '当前清单没有发布任何智能体工具。',
    revision: '清单版本',
    toolTimeout: (ms: number) => `${ms.toLocaleString('zh-CN')} 毫秒后超时`,
    noArguments: '该工具不需要参数。',
    required: '必填',
    notSet: '（不设置）',
    choose: '请选择…',
    editAsJSON: '以 JSON 编辑参数',
    argumentsJSON: '参数（JSON 对象）',
    kinds: { string: '文本', integer: '整数', number: '数字', boolean: 'true 或 false', json: 'JSON' },
    length: (min: number | undefined, max: number | undefined) =>
      min !== undefined && max !== undefined
        ? `${min}–${max} 个字符`
        : min !== undefined
          ? `至少 ${min} 个字符`
          : `至多 ${max} 个字符`,
    multipleOf: (step: number) => `${step} 的倍数`,
    pattern: (pattern: string) => `模式 ${pattern}`,
    fallback: {
      not_an_object: '输入 schema 不是对象 schema：请以 JSON 输入参数。',
      composed: '该 schema 组合了多个 schema（oneOf、$ref 等）：请以 JSON 输入。',
      open_object: '该 schema 没有声明参数：请以 JSON 对象输入参数。',
      nested: '对象或数组：请以 JSON 输入。',
      union_type: '允许多种类型：请以 JSON 输入。',
      untyped: '该 schema 没有指明类型：请以 JSON 输入。',
      unsupported_keyword: '该 schema 含有本表单不检查的规则：请以 JSON 输入，由运行时检查。',
    },
    wait: '等待最终结果（毫秒）',
    waitHint: (ms: number) =>
      `工具调用本身不带超时：运行时会在该工具自己的 ${ms.toLocaleString('zh-CN')} 毫秒后以 “timeout” 结束调用。这里只设置控制台等多久后提示尚无结果。`,
    waitInvalid: (max: number) => `等待时间必须是 1 到 ${max} 之间的整数毫秒。`,
    call: '调用工具',
    notSent: '未发送：',
    wholeArguments: '参数',
    quoted: (name: string) => `“${name}”`,
    issues: {
      required: (field: string) => `${field}为必填项。`,
      not_a_number: (field: string) => `${field}必须是数字，例如 25 或 2.5。`,
      not_an_integer: (field: string) => `${field}必须是整数。`,
      below_minimum: (field: string, limit: string) => `${field}不能小于 ${limit}。`,
      above_maximum: (field: string, limit: string) => `${field}不能大于 ${limit}。`,
      not_above: (field: string, limit: string) => `${field}必须大于 ${limit}。`,
      not_below: (field: string, limit: string) => `${field}必须小于 ${limit}。`,
      not_a_multiple: (field: string, limit: string) => `${field}必须是 ${limit} 的倍数。`,
      too_short: (field: string, limit: string) => `${field}至少需要 ${limit} 个字符。`,
      too_long: (field: string, limit: string) => `${field}最多 ${limit} 个字符。`,
      pattern_mismatch: (field: string, limit: string) => `${field}必须匹配模式 ${limit}。`,
      not_an_option: (field: string) => `${field}必须是列出的值之一。`,
      wrong_type: (field: string, limit: string) => `${field}的类型必须是 ${limit}。`,
      invalid_json: (field: string) => `${field}不是有效的 JSON 文本。`,
      not_an_object: (field: string) => `${field}必须是一个 JSON 对象，例如 {"minutes": 25}。`,
      unknown_property: (field: string) => `${field}不是该工具的参数，schema 也不允许其他参数。`,
      too_large: (field: string, limit: string) => `${field}不能超过 ${limit} 字节。`,
    },
    invalidEnvelope: (path: string) =>
      `该调用不会是有效的 lineup.v1.tool.call 消息（位置：${path === '' ? '信封' : path}），没有发送。`,
    calls: '控制台发出的调用',
    noCalls: '还没有调用。在这里发出的调用会显示进度和最终结果。',
    sentAt: (time: string) => `发送于 ${time}`,
    phases: {
      sent: '已发送',
      received: '客户端已收到',
      in_progress: '进行中',
      completed: '已完成',
      error: '出错',
      overdue: '尚无最终结果',
    },
    overdue: (ms: number) => `${ms.toLocaleString('zh-CN')} 毫秒内没有最终结果；调用之后仍可能结束。`,
    waiting: '等待最终结果…',
    progress: '进度',
    result: '最终结果',
    errorCode: '错误码',
    log: '消息日志',
    filter: '按类型筛选',
    shown: (shown: number, total: number) =>
      shown === total ? `${total} 条消息` : `${shown} / ${total} 条消息`,
    dropped: (count: number, limit: number) => `已丢弃 ${count} 条较早的消息；日志只保留最近 ${limit} 条。`,
    directionIn: '收自智能体',
    resultJson: (callId: string) => `${callId} 的结果（JSON）`,
    messageJson: (type: string) => `消息 ${type}（JSON）`,
    directionOut: '发给智能体',
    emptyLog: '还没有消息。',
    noMatch: '没有类型匹配的消息。',
  },
  labels: {
    Refused: '已拒绝',
    'Sent to the agent': '发给智能体',
    Agent: '智能体',
    You: '你',
    'Agent document': '智能体文档',
    'Pasted document': '粘贴的文档',
    'Streamed interface': '流式界面',
    'Compound interest calculator': '复利计算器',
    'Product comparison': '产品对比',
    'Form controls': '表单控件',
    'File reader (1.1 invoke)': '文件读取（1.1 invoke）',
    'Agent callback (1.1 invoke)': '智能体回调（1.1 invoke）',
  },
};

/** A refused bundle in Chinese, by its code (English uses the runtime's own sentence). */
function integrityZh(problem: Extract<AppCenterProblem, { kind: 'integrity' }>): string {
  const path = problem.path ?? '包';
  switch (problem.code) {
    case 'no_integrity':
      return '该包没有列出带摘要的文件，无法验证。';
    case 'fetch_failed':
      return `无法获取 ${path}。`;
    case 'missing_file':
      return `包中缺少 ${path}。`;
    case 'size_mismatch':
      return `${path} 的大小与清单不符：清单为 ${problem.expected ?? '?'} 字节，实际为 ${problem.actual ?? '?'} 字节。`;
    case 'digest_mismatch':
      return `${path} 与清单不符：应为 ${problem.expected ?? '?'}，实为 ${problem.actual ?? '?'}。`;
    case 'not_allowed':
      return '该包既不在允许列表中，也没有受信任密钥的签名。';
    case 'signature_invalid':
      return `${path} 的签名无效。`;
  }
}

const TEXTS: Readonly<Record<HostLanguage, HostText>> = { en, zh };
const STORAGE_KEY = 'lineup-host-language';

/** The browser's language as a host language. */
export function languageOf(tag: string | undefined): HostLanguage {
  return tag?.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

function initialLanguage(): HostLanguage {
  try {
    const chosen = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (chosen === 'en' || chosen === 'zh') return chosen;
  } catch {
    // Storage can be unavailable (a sandboxed or private context): follow the browser.
  }
  return languageOf(globalThis.navigator?.language);
}

const LanguageContext = createContext<{
  readonly language: HostLanguage;
  readonly setLanguage: (language: HostLanguage) => void;
}>({ language: 'en', setLanguage: () => {} });

export function LanguageProvider({ children }: { readonly children: ReactNode }) {
  const [language, setState] = useState<HostLanguage>(initialLanguage);
  const setLanguage = (next: HostLanguage) => {
    setState(next);
    try {
      globalThis.localStorage?.setItem(STORAGE_KEY, next);
    } catch {
      // Not remembered; the choice still applies to this page.
    }
  };
  useEffect(() => {
    document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
  }, [language]);
  return <LanguageContext.Provider value={{ language, setLanguage }}>{children}</LanguageContext.Provider>;
}

export function useLanguage() {
  return useContext(LanguageContext);
}

/** The host's text in the current language. */
export function useText(): HostText {
  return TEXTS[useContext(LanguageContext).language];
}

/** An entry label in the current language (names of apps and Surfaces pass through). */
export function labelText(text: HostText, label: string): string {
  return Object.hasOwn(text.labels, label) ? (text.labels[label] as string) : label;
}

/** EN / 中文, as a pair of pressed buttons. */
export function LanguageSwitch() {
  const { language, setLanguage } = useLanguage();
  const text = useText();
  return (
    <fieldset className="host__language">
      <legend className="host__visually-hidden">{text.languageSwitch}</legend>
      {(['en', 'zh'] as const).map((option) => (
        <button
          key={option}
          type="button"
          lang={option === 'zh' ? 'zh-CN' : 'en'}
          aria-pressed={language === option}
          onClick={() => setLanguage(option)}
        >
          {option === 'en' ? 'EN' : '中文'}
        </button>
      ))}
    </fieldset>
  );
}
