/**
 * The text of the agent link question (`AgentLinkPanel`) and of the remembered agents (`RememberedAgentsList`), in
 * English and Chinese. Kept apart from the host's text tables (i18n/); the language is the host's (`useLanguage`).
 *
 * A sentence shown with `role="status"` never contains "agent:" nor "智能体：": the connection status line starts
 * that way, and pages and tests find it by those words.
 */
import type { HostLanguage } from '../i18n/language.ts';
import type { AgentUrlProblem } from './agent-link.ts';

export interface AgentLinkText {
  /** What stands between two sentences (a space in English, nothing in Chinese). */
  readonly gap: string;
  readonly question: {
    readonly title: string;
    readonly intro: string;
    readonly origin: string;
    readonly address: string;
    readonly sees: string;
    readonly trust: string;
    readonly remember: string;
    readonly connect: string;
    readonly decline: string;
  };
  /** After "Connect", or with a remembered origin: this page's agent comes from its link. */
  readonly allowed: (origin: string) => string;
  readonly allowedNotKept: string;
  readonly forgetThis: string;
  readonly declined: (origin: string) => string;
  readonly noAgent: string;
  readonly declinedAgain: string;
  readonly noteLabel: string;
  readonly askAgain: string;
  readonly forgotten: (origin: string) => string;
  readonly refusedTitle: string;
  readonly refusedLink: string;
  readonly refusedConfigured: string;
  readonly problems: Readonly<Record<AgentUrlProblem, string>>;
  readonly given: string;
  readonly withoutLink: string;
  readonly remembered: {
    readonly title: string;
    readonly intro: string;
    readonly none: string;
    readonly forget: string;
    readonly forgetLabel: (origin: string) => string;
    readonly forgot: (origin: string) => string;
    readonly notKept: string;
  };
  /** The agent console's note when the page has no agent to speak for or to. */
  readonly consoleNoAgent: string;
}

const en: AgentLinkText = {
  gap: ' ',
  question: {
    title: 'Connect to the agent named in this link?',
    intro: 'The link that opened this page asks LineUp to connect to an agent this host was not set up with.',
    origin: 'Agent origin',
    address: 'Full address',
    sees: 'If you connect, this agent sees the tools of every app installed here, and can ask to run them.',
    trust: 'Connect only to an agent you know and trust. Nothing has been sent to it yet.',
    remember:
      'LineUp remembers “Connect” for this origin in this browser; you can forget it in the Agent console.',
    connect: 'Connect',
    decline: 'Don’t connect',
  },
  allowed: (origin) => `The agent at ${origin} comes from this page’s link; you allowed it in this browser.`,
  allowedNotKept: 'This browser could not remember the choice: LineUp will ask again next time.',
  forgetThis: 'Forget this agent',
  declined: (origin) => `Not connected: you chose not to connect to ${origin}.`,
  noAgent: 'This page runs with no agent. Your apps work; a message you send waits until an agent connects.',
  declinedAgain: 'Opening the link again asks again.',
  noteLabel: 'Agent link',
  askAgain: 'Reload to be asked again.',
  forgotten: (origin) =>
    `You forgot ${origin}: this page disconnected from it, and LineUp asks before connecting to it again.`,
  refusedTitle: 'Agent link refused',
  refusedLink: 'LineUp did not connect to the agent named in this page’s link, and asked nothing:',
  refusedConfigured:
    'LineUp did not connect to the agent address this host was built with (LINEUP_AGENT_URL):',
  problems: {
    not_a_url: 'it is not a URL.',
    not_websocket: 'an agent’s address starts with wss:// (or ws:// on this computer).',
    insecure:
      'ws:// (unencrypted) is allowed only to this computer (localhost, 127.0.0.1 or [::1]); any other host needs wss://.',
    credentials: 'an agent’s address may not hold a user name or password.',
    fragment: 'an agent’s address may not have a # part.',
    too_long: 'the address is longer than 2,048 characters.',
    several: 'the link names more than one agent.',
    framed:
      'this page is shown inside another page, where LineUp never connects to an agent from a link (the other page could trick you into allowing it).',
  },
  given: 'Address given',
  withoutLink: 'Open LineUp without the agent link',
  remembered: {
    title: 'Agents allowed from links',
    intro:
      'Agents from a page link that you allowed in this browser connect without asking. Forget one to be asked again.',
    none: 'No agent from a link is remembered in this browser.',
    forget: 'Forget',
    forgetLabel: (origin) => `Forget ${origin}`,
    forgot: (origin) => `Forgot ${origin}: LineUp asks before connecting to it again.`,
    notKept: 'This browser could not save the change; it holds for this page only.',
  },
  consoleNoAgent:
    'This page has no agent (it waits for your answer about the agent link, or you chose not to connect), so the console cannot call tools. The message log still shows every message.',
};

const zh: AgentLinkText = {
  gap: '',
  question: {
    title: '连接此链接指定的智能体？',
    intro: '打开本页的链接要求 LineUp 连接一个不在本宿主配置中的智能体。',
    origin: '智能体来源',
    address: '完整地址',
    sees: '连接后，该智能体能看到这里已安装的所有应用的工具，并可以请求运行它们。',
    trust: '只连接你了解并信任的智能体。目前尚未向它发送任何内容。',
    remember: 'LineUp 会在此浏览器中为该来源记住“连接”；你可以在智能体控制台中忘记它。',
    connect: '连接',
    decline: '不连接',
  },
  allowed: (origin) => `${origin} 的智能体来自本页链接；你已在此浏览器中允许它。`,
  allowedNotKept: '此浏览器无法记住这个选择：下次 LineUp 会再次询问。',
  forgetThis: '忘记此智能体',
  declined: (origin) => `未连接：你选择了不连接 ${origin}。`,
  noAgent: '本页在没有智能体的情况下运行。你的应用照常可用；你发送的消息会等到有智能体连接后再发出。',
  declinedAgain: '再次打开该链接时会再次询问。',
  noteLabel: '智能体链接',
  askAgain: '重新加载页面即可再次询问。',
  forgotten: (origin) => `你已忘记 ${origin}：本页已断开与它的连接，LineUp 再次连接它之前会先询问。`,
  refusedTitle: '已拒绝智能体链接',
  refusedLink: 'LineUp 没有连接本页链接指定的智能体，也没有询问：',
  refusedConfigured: 'LineUp 没有连接本宿主构建时配置的智能体地址（LINEUP_AGENT_URL）：',
  problems: {
    not_a_url: '它不是 URL。',
    not_websocket: '智能体地址应以 wss://（在本机上也可用 ws://）开头。',
    insecure: 'ws://（未加密）只允许连接本机（localhost、127.0.0.1 或 [::1]）；其他主机必须使用 wss://。',
    credentials: '智能体地址中不能包含用户名或密码。',
    fragment: '智能体地址中不能有 # 部分。',
    too_long: '地址超过 2,048 个字符。',
    several: '该链接指定了不止一个智能体。',
    framed: '本页显示在另一个页面之中，此时 LineUp 从不连接链接中的智能体（那个页面可能诱使你允许连接）。',
  },
  given: '给出的地址',
  withoutLink: '不带智能体链接打开 LineUp',
  remembered: {
    title: '从链接允许的智能体',
    intro: '你在此浏览器中允许过的、来自页面链接的智能体会直接连接，不再询问。忘记某个智能体后会再次询问。',
    none: '此浏览器中没有记住来自链接的智能体。',
    forget: '忘记',
    forgetLabel: (origin) => `忘记 ${origin}`,
    forgot: (origin) => `已忘记 ${origin}：LineUp 再次连接它之前会先询问。`,
    notKept: '此浏览器无法保存这项更改；它只对本页有效。',
  },
  consoleNoAgent:
    '本页没有智能体（正在等待你对智能体链接的答复，或你选择了不连接），因此控制台无法调用工具。消息日志仍会显示每条消息。',
};

export const AGENT_LINK_TEXTS: Readonly<Record<HostLanguage, AgentLinkText>> = { en, zh };
