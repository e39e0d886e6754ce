/**
 * The text of the page around the screens: the header, the storage and tab notices, and what every screen shares
 * (the locale its dates and numbers use, the name of the built-in agent).
 */
import type { Bilingual } from './language.ts';

const en = {
  tagline: 'Web Reference Host',
  languageSwitch: 'Language',
  mainLabel: 'Conversation and apps',
  locale: 'en',
  demoAgent: 'demo agent',
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
};

export type ShellText = typeof en;

const zh: ShellText = {
  tagline: 'Web 参考宿主',
  languageSwitch: '语言',
  mainLabel: '对话与应用',
  locale: 'zh-CN',
  demoAgent: '演示智能体',
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
};

export const SHELL_TEXT: Bilingual<ShellText> = { en, zh };
