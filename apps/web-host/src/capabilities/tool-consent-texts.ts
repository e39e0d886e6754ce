/**
 * The host's words for the consent of Agent Tool and view calls, in English and Chinese: the question
 * (ToolConsentFacts.tsx) and the app center's consent settings (app-center/ConsentSettings.tsx). A table of its own
 * beside the host's other text tables (i18n/).
 */
import type { ToolPolicyDecision, ToolPolicySource } from '@lineup/runtime';
import type { LineUpRiskLevel } from '@lineup/shared/protocol';
import { useLanguage } from '../i18n/LanguageProvider.tsx';
import type { HostLanguage } from '../i18n/language.ts';

const en = {
  title: 'The agent asks to run a tool',
  titleView: (server: string) => `The view of ${server} asks to run a tool`,
  app: 'App',
  server: 'MCP server',
  appValue: (name: string, version: string) => `${name} ${version}`,
  serverValue: (name: string, host: string) => `${name} (${host})`,
  trusted: 'trusted by you',
  untrusted: 'not trusted: its claims about its tools are not believed',
  tool: 'Tool',
  claims: {
    readOnly: 'says it changes nothing',
    destructive: 'says it is destructive: asked every time',
  },
  description: 'What the tool says it does',
  noDescription: 'This tool has no description (the server shows it to its views only).',
  hidden: (count: number) =>
    `${count} hidden character${count === 1 ? '' : 's'} made visible (⟦…⟧): text you would not see can steer the agent.`,
  arguments: 'With these arguments',
  noArguments: 'No arguments.',
  fullJson: 'The full arguments as JSON',
  more: (count: number) => `…and ${count} more`,
  askedBy: 'Asked by',
  askedByAgent: (agent: string, conversation: string) => `${agent}, in ${conversation}`,
  askedByView: (server: string, conversation: string) =>
    `The view of the MCP server “${server}”, shown beside one of its tool calls, in ${conversation}`,
  thisConversation: 'this conversation',
  otherConversation: (id: string) => `conversation ${id}`,
  deadline: (time: string) => `If you do not answer by ${time}, the call ends and nothing runs.`,
  remember: (tool: string) =>
    `Allow ${tool} for the rest of this conversation, with any arguments, until the tool changes (revoke it in the app center)`,
  neverRemembered: 'This tool is asked about every time.',
  allow: 'Allow',
  deny: 'Deny',
  confirmAgain: 'Yes, run it',
  extraStep: 'This tool is restricted. Confirm once more that you want it to run.',
  risk: {
    display_only: 'Shows something only',
    user_confirmation: 'Needs your confirmation',
    system_permission: 'Uses a system permission: asked every time',
    restricted: 'Restricted: asked every time, with a second confirmation',
  } satisfies Record<LineUpRiskLevel, string>,
  // The app center
  settings: {
    policyLabel: (tool: string) => `When the agent calls ${tool}`,
    decisions: {
      default: 'Default',
      allow: 'Always allow',
      ask: 'Ask every time',
      deny: 'Never allow',
    } satisfies Record<ToolPolicyDecision | 'default', string>,
    now: {
      allow: 'runs without asking',
      ask: 'asks you',
      deny: 'never runs, and the agent is not offered it',
    } satisfies Record<ToolPolicyDecision, string>,
    source: {
      host: 'set by this host’s policy',
      user: 'your choice',
      default: 'the default for its risk',
    } satisfies Record<ToolPolicySource, string>,
    effective: (now: string, source: string) => `Now: ${now} (${source}).`,
    trust: 'Trust this server: run the tools it says change nothing without asking',
    trustHint: 'A tool that says it is destructive still asks every time. Trust only servers you know.',
    grantsTitle: 'Remembered allowances',
    grantsList: (name: string) => `${name} remembered allowances`,
    noGrants: 'None: every call that asks will ask.',
    grant: (tool: string, conversation: string) => `${tool} in ${conversation}`,
    revoke: 'Revoke',
    revokeNamed: (tool: string, conversation: string) => `Revoke ${tool} in ${conversation}`,
    hiddenFlag: (count: number) => `${count} hidden character${count === 1 ? '' : 's'}`,
    held: 'Changed by the server since you accepted it: not offered to the agent until you accept the change.',
    heldGroup: (tool: string) => `The change of ${tool}`,
    fields: {
      description: 'Description',
      input_schema: 'Input schema',
      output_schema: 'Output schema',
      risk: 'Risk',
      call_model: 'Call model',
      claims: 'What the server claims',
    } as Record<string, string>,
    beforeLabel: 'Before',
    afterLabel: 'Now',
    accept: 'Accept the change',
    acceptNamed: (tool: string) => `Accept the change of ${tool}`,
  },
};

export type ToolConsentText = typeof en;

const zh: ToolConsentText = {
  title: '智能体请求运行一个工具',
  titleView: (server: string) => `${server} 的视图请求运行一个工具`,
  app: '应用',
  server: 'MCP 服务器',
  appValue: (name: string, version: string) => `${name} ${version}`,
  serverValue: (name: string, host: string) => `${name}（${host}）`,
  trusted: '你已信任',
  untrusted: '未信任：不采信它对自身工具的声明',
  tool: '工具',
  claims: {
    readOnly: '声称不做任何更改',
    destructive: '声称具有破坏性：每次都会询问',
  },
  description: '工具自称的作用',
  noDescription: '这个工具没有说明（服务器只向它的视图展示它）。',
  hidden: (count: number) => `已显示 ${count} 个隐藏字符（⟦…⟧）：你看不到的文字也可能操纵智能体。`,
  arguments: '使用以下参数',
  noArguments: '没有参数。',
  fullJson: '完整参数（JSON）',
  more: (count: number) => `……还有 ${count} 项`,
  askedBy: '请求方',
  askedByAgent: (agent: string, conversation: string) => `${agent}，在${conversation}中`,
  askedByView: (server: string, conversation: string) =>
    `MCP 服务器“${server}”的视图（显示在它的一次工具调用旁），在${conversation}中`,
  thisConversation: '本次对话',
  otherConversation: (id: string) => `对话 ${id}`,
  deadline: (time: string) => `如果你在 ${time} 之前没有回答，此调用将结束，不会运行任何内容。`,
  remember: (tool: string) =>
    `在本次对话余下的时间里允许 ${tool}（任意参数），直到该工具发生变化（可在应用中心撤销）`,
  neverRemembered: '这个工具每次都会询问。',
  allow: '允许',
  deny: '拒绝',
  confirmAgain: '是的，运行它',
  extraStep: '这是一个受限工具。请再次确认你希望运行它。',
  risk: {
    display_only: '仅显示内容',
    user_confirmation: '需要你确认',
    system_permission: '使用系统权限：每次都会询问',
    restricted: '受限：每次都会询问，并需再次确认',
  },
  settings: {
    policyLabel: (tool: string) => `智能体调用 ${tool} 时`,
    decisions: { default: '默认', allow: '总是允许', ask: '每次询问', deny: '从不允许' },
    now: { allow: '不询问直接运行', ask: '会询问你', deny: '从不运行，也不提供给智能体' },
    source: { host: '由本主机的策略设定', user: '你的选择', default: '其风险级别的默认值' },
    effective: (now: string, source: string) => `当前：${now}（${source}）。`,
    trust: '信任此服务器：它声称不做更改的工具无需询问即可运行',
    trustHint: '声称具有破坏性的工具仍然每次询问。只信任你了解的服务器。',
    grantsTitle: '已记住的允许',
    grantsList: (name: string) => `${name} 已记住的允许`,
    noGrants: '无：每个需要询问的调用都会询问。',
    grant: (tool: string, conversation: string) => `${tool}，在${conversation}中`,
    revoke: '撤销',
    revokeNamed: (tool: string, conversation: string) => `撤销 ${conversation} 中的 ${tool}`,
    hiddenFlag: (count: number) => `${count} 个隐藏字符`,
    held: '服务器在你接受之后修改了它：在你接受这项修改之前，不会提供给智能体。',
    heldGroup: (tool: string) => `${tool} 的修改`,
    fields: {
      description: '说明',
      input_schema: '输入模式',
      output_schema: '输出模式',
      risk: '风险',
      call_model: '调用模型',
      claims: '服务器的声明',
    },
    beforeLabel: '之前',
    afterLabel: '现在',
    accept: '接受修改',
    acceptNamed: (tool: string) => `接受 ${tool} 的修改`,
  },
};

const TEXTS: Readonly<Record<HostLanguage, ToolConsentText>> = { en, zh };

/** The consent texts in the current language. */
export function useToolConsentText(): ToolConsentText {
  return TEXTS[useLanguage().language];
}
