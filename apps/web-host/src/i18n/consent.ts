/** The text of the consent dialog (capabilities/ConsentDialog.tsx): a capability the agent or an interface asks for. */
import type { Bilingual } from './language.ts';

const en = {
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
};

export type ConsentText = typeof en;

const zh: ConsentText = {
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
};

export const CONSENT_TEXT: Bilingual<ConsentText> = { en, zh };
