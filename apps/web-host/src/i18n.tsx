/**
 * The host's own text in English and Chinese. The language follows the browser (`navigator.language`) until the
 * user picks one with the switch in the header, which is remembered in this browser. Protocol logs (the "→ agent"
 * lines) stay as sent: they are messages, not prose.
 */
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';

export type HostLanguage = 'en' | 'zh';

const en = {
  tagline: 'Web Reference Host',
  languageSwitch: 'Language',
  conversation: 'Conversation',
  empty:
    'Say something to the agent, show an example, or paste a document or a lineup.v1 message to see how agent interfaces render here.',
  status: {
    idle: 'Agent: not connected',
    connecting: 'Agent: connecting…',
    open: 'Agent: connected',
    closed: 'Agent: disconnected, retrying…',
  },
  demoAgent: 'demo agent',
  messageLabel: 'Message to the agent',
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
  waitingForFrame: 'Waiting for the first frame…',
  workspace: {
    shown: 'In the foreground',
    opening: 'Opening…',
    back: 'Back to conversation',
    close: 'Close',
  },
  closeNamed: (name: string) => `Close ${name}`,
  apps: {
    title: 'MiniApps',
    starting: 'Starting the runtime…',
    none: 'No MiniApp is installed.',
    enabled: 'enabled',
    disabled: 'disabled',
    tools: (name: string) => `${name} Agent Tools`,
    inventory: 'Inventory published to agents:',
    toolCount: (count: number) => `${count} Agent Tools`,
  },
  /** Entry labels (each entry's accessible name), by their English form. */
  labels: {} as Readonly<Record<string, string>>,
};

export type HostText = typeof en;

const zh: HostText = {
  tagline: 'Web 参考宿主',
  languageSwitch: '语言',
  conversation: '对话',
  empty: '和智能体说点什么，打开一个示例，或粘贴一个文档或 lineup.v1 消息，看看智能体界面在这里如何呈现。',
  status: {
    idle: '智能体：未连接',
    connecting: '智能体：连接中…',
    open: '智能体：已连接',
    closed: '智能体：已断开，正在重连…',
  },
  demoAgent: '演示智能体',
  messageLabel: '发给智能体的消息',
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
  waitingForFrame: '等待第一帧…',
  workspace: { shown: '在前台', opening: '正在打开…', back: '返回对话', close: '关闭' },
  closeNamed: (name: string) => `关闭 ${name}`,
  apps: {
    title: '小程序',
    starting: '正在启动运行时…',
    none: '没有安装小程序。',
    enabled: '已启用',
    disabled: '已停用',
    tools: (name: string) => `${name} 的智能体工具`,
    inventory: '向智能体发布的清单：',
    toolCount: (count: number) => `${count} 个智能体工具`,
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
