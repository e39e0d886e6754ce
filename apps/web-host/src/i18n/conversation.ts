/**
 * The text of the conversation (conversation/): its head and picker, the entries and their labels, the composer and
 * the examples, and the MCP views shown in it.
 */
import type { Bilingual } from './language.ts';

const en = {
  conversation: 'Conversation',
  newInterface: (name: string) => `New interface: ${name}`,
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
  messageLabel: 'Message to the agent',
  proposedBy: (who: string) => `Proposed by ${who}: nothing is sent until you press Send.`,
  viewContext: (servers: readonly string[]) =>
    `Sent with your next message: what the ${servers.length === 1 ? 'view' : 'views'} of ${servers.join(', ')} ${servers.length === 1 ? 'says' : 'say'} about ${servers.length === 1 ? 'itself' : 'themselves'}.`,
  mcpView: {
    title: (server: string, tool: string) => `${server} · ${tool}`,
    close: (server: string) => `Close the view of ${server}`,
    unavailable: (reason: string) => `This view cannot be opened: ${reason}`,
    asksFor: 'Its view declares that it needs network or device access it was not given; it runs without.',
    linkRefused: 'The link was not opened.',
    loading: 'Opening the view…',
    fullscreen: (server: string, tool: string) => `${server} · ${tool}, full screen`,
    exitFullscreen: 'Exit full screen',
    shownFullscreen: 'Shown full screen. Escape or “Exit full screen” brings it back here.',
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
  conversations: 'Conversations',
  untitled: 'New conversation',
  newConversation: 'New conversation',
  queued: 'waiting for the agent',
  earlierHidden: (count: number) =>
    `${count.toLocaleString('en')} earlier ${count === 1 ? 'message is' : 'messages are'} not shown.`,
  showEarlier: 'Show earlier',
  surfaceUnavailable: (reason: string) => `This Surface cannot be opened: ${reason}`,
  /** Entry labels (each entry's accessible name), by their English form. */
  labels: {} as Readonly<Record<string, string>>,
};

export type ConversationText = typeof en;

const zh: ConversationText = {
  conversation: '对话',
  newInterface: (name: string) => `新界面：${name}`,
  empty: '和智能体说点什么，打开一个示例，或粘贴一个文档或 lineup.v1 消息，看看智能体界面在这里如何呈现。',
  status: {
    idle: '智能体：未连接',
    connecting: '智能体：连接中…',
    open: '智能体：已连接',
    closed: '智能体：已断开，正在重连…',
    stopped: '智能体：已断开',
    refused: '智能体：拒绝了此设备（没有有效的设备令牌）',
  },
  messageLabel: '发给智能体的消息',
  proposedBy: (who: string) => `由 ${who} 提议：在你按下“发送”之前不会发送任何内容。`,
  viewContext: (servers: readonly string[]) =>
    `随你的下一条消息发送：${servers.join('、')} 的视图对自身的说明。`,
  mcpView: {
    title: (server: string, tool: string) => `${server} · ${tool}`,
    close: (server: string) => `关闭 ${server} 的视图`,
    unavailable: (reason: string) => `无法打开此视图：${reason}`,
    asksFor: '它的视图声明需要未获准的网络或设备权限；它在没有这些的情况下运行。',
    linkRefused: '链接未打开。',
    loading: '正在打开视图…',
    fullscreen: (server: string, tool: string) => `${server} · ${tool}（全屏）`,
    exitFullscreen: '退出全屏',
    shownFullscreen: '正在全屏显示。按 Esc 或“退出全屏”可让它回到这里。',
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
  conversations: '对话记录',
  untitled: '新对话',
  newConversation: '新对话',
  queued: '等待智能体',
  earlierHidden: (count: number) => `还有 ${count.toLocaleString('zh-CN')} 条更早的消息未显示。`,
  showEarlier: '显示更早的消息',
  surfaceUnavailable: (reason: string) => `无法打开此界面：${reason}`,
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

export const CONVERSATION_TEXT: Bilingual<ConversationText> = { en, zh };

/** An entry label in the current language (names of apps and Surfaces pass through). */
export function labelText(text: ConversationText, label: string): string {
  return Object.hasOwn(text.labels, label) ? (text.labels[label] as string) : label;
}
