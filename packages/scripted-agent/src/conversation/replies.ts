/**
 * Everything the demo agent says, in both languages: one table keyed by language, each entry a complete set
 * of replies (`satisfies Record<Language, Replies>` makes the compiler report a missing one). Replies are
 * Markdown for the host's chat, which renders the DSL's Markdown allowlist. Nothing the user or the client
 * wrote is echoed back, only values the agent parsed or chose (numbers, message types it sent, tool names).
 */
import type {
  LineUpUnsupportedReason,
  OperationInterrupter,
  OperationInterruptResult,
  OperationNotStartedReason,
  ToolErrorCode,
} from '@lineup/shared/protocol';
import type { FocusKind } from '../pomodoro/request.js';
import { POMODORO_LIMITS } from '../pomodoro/request.js';
import { INTENT_NAMES, INTENTS } from './intents.js';
import type { Language } from './language.js';

type InterruptStatus = OperationInterruptResult['status'];

export interface Replies {
  readonly focusLabels: Readonly<Record<FocusKind, string>>;
  /** The start was sent; the timer is not running yet (seed 003 §7: say it is opening, not started). */
  pomodoroOpening(minutes: number, label: string, defaulted: boolean): string;
  /** Progress `started`: the timer really runs. */
  pomodoroRunning(minutes: number, label: string): string;
  pomodoroOutOfRange(minutes: number): string;
  pomodoroCompleted(minutes: number, label: string): string;
  pomodoroInterrupted(by: OperationInterrupter, focusedSeconds: number, label: string): string;
  pomodoroNotStarted(reason: OperationNotStartedReason): string;
  stopping(): string;
  stopResult(status: InterruptStatus): string;
  /** A final `error` of a tool call. */
  toolError(tool: string, code: ToolErrorCode): string;
  /** A completed result that is not what the tool's contract promises. */
  unexpectedResult(tool: string): string;
  /** No inventory yet in this conversation: no tool is called. */
  noInventory(): string;
  /** The latest inventory has no such tool. */
  toolMissing(tool: string): string;
  compoundInterest(): string;
  productComparison(): string;
  weatherOpened(city: string): string;
  weatherRefreshed(city: string): string;
  weatherClosed(): string;
  /** Any other event from the weather Surface (its name is a validated event name). */
  weatherEvent(event: string): string;
  focusCardOpened(): string;
  focusCardMissing(): string;
  focusCardClosed(): string;
  streaming(frames: number): string;
  clientUnsupported(messageType: string | undefined, reason: LineUpUnsupportedReason): string;
  help(): string;
  unknown(): string;
}

const WHOLE_NUMBER_LIMIT = 1_000_000;
/** A number the agent parsed, short enough to show; `undefined` for absurd ones. */
const shown = (value: number) => (Math.abs(value) < WHOLE_NUMBER_LIMIT ? String(value) : undefined);

/** The intents the help text lists (all but help itself), with their first example phrases. */
function phraseList(language: Language): string {
  return INTENT_NAMES.filter((name) => name !== 'help')
    .map((name) => {
      const { does, examples } = INTENTS[name];
      const phrases = examples[language]
        .slice(0, 2)
        .map((phrase) => `*${phrase}*`)
        .join(language === 'zh' ? '、' : ', ');
      return `- ${phrases} — ${does[language]}`;
    })
    .join('\n');
}

const ENGLISH_TOOL_ERRORS = {
  unsupported: 'this client does not offer that tool to me',
  revoked: 'the tool was withdrawn since I chose it',
  stale_inventory: 'I used an out-of-date inventory; please ask again',
  invalid_arguments: 'the client refused my arguments',
  permission_denied: 'permission was denied',
  consent_dismissed: 'you closed the question without answering, so it did not run',
  call_id_conflict: 'my call id clashed with an earlier call',
  app_activation_failed: 'Pomodoro could not be opened',
  app_activation_cancelled: 'opening Pomodoro was cancelled',
  timeout: 'it took too long',
  invalid_output: 'the app answered with a result outside its contract',
  execution_failed: 'it failed while running',
  invalid_message: 'the client found my call message invalid',
  unknown_conversation: 'the client does not know this conversation',
  outcome_unknown: 'the page closed while the server had my call, so it may or may not have run',
} as const satisfies Record<ToolErrorCode, string>;

const CHINESE_TOOL_ERRORS = {
  unsupported: '这个客户端没有向我提供这个工具',
  revoked: '这个工具在我选用之后被撤回了',
  stale_inventory: '我用的工具清单已经过期，请再说一次',
  invalid_arguments: '客户端拒绝了我的参数',
  permission_denied: '权限被拒绝',
  consent_dismissed: '你关闭了确认，没有作答，所以它没有运行',
  call_id_conflict: '调用编号与之前的调用冲突',
  app_activation_failed: '番茄钟没能打开',
  app_activation_cancelled: '打开番茄钟被取消了',
  timeout: '等待超时',
  invalid_output: '应用返回的结果不符合约定',
  execution_failed: '执行时出错',
  invalid_message: '客户端认为我的调用消息无效',
  unknown_conversation: '客户端不认识这个对话',
  outcome_unknown: '服务器处理调用时页面关闭了，无法确定它是否已执行',
} as const satisfies Record<ToolErrorCode, string>;

function englishDuration(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  const minutePart = `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  const secondPart = `${rest} ${rest === 1 ? 'second' : 'seconds'}`;
  if (minutes === 0) return secondPart;
  return rest === 0 ? minutePart : `${minutePart} ${secondPart}`;
}

function chineseDuration(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes === 0) return `${rest} 秒`;
  return rest === 0 ? `${minutes} 分钟` : `${minutes} 分 ${rest} 秒`;
}

const ENGLISH: Replies = {
  focusLabels: {
    meditation: 'Meditation',
    study: 'Study',
    reading: 'Reading',
    work: 'Work',
    focus: 'Focus',
  },
  pomodoroOpening: (minutes, label, defaulted) =>
    `Opening **Pomodoro** for a ${minutes}-minute ${label.toLowerCase()} session${
      defaulted ? ' (you named no length, so a classic 25 minutes)' : ''
    }. The timer starts once you see it.`,
  pomodoroRunning: (minutes, label) =>
    `The timer is running: **${minutes} minutes** of ${label.toLowerCase()}. Say *stop* to end it early.`,
  pomodoroOutOfRange: (minutes) => {
    const asked = shown(minutes);
    return `I can time whole minutes from ${POMODORO_LIMITS.minMinutes} to ${POMODORO_LIMITS.maxMinutes}${
      asked === undefined ? '' : `, and ${asked} is not one of them`
    }, so I did not start anything. Try *start a 25 minute focus*.`;
  },
  pomodoroCompleted: (minutes, label) =>
    `Done: you completed **${minutes} minutes** of ${label.toLowerCase()}. Well done!`,
  pomodoroInterrupted: (by, seconds, label) =>
    by === 'agent'
      ? `The ${label.toLowerCase()} session was stopped after **${englishDuration(seconds)}**.`
      : `The ${label.toLowerCase()} session ended because you left Pomodoro, after **${englishDuration(seconds)}**.`,
  pomodoroNotStarted: (reason) =>
    reason === 'foreground_not_confirmed'
      ? 'The timer never started: Pomodoro did not come to the foreground in time.'
      : 'The timer never started: the start was cancelled before Pomodoro opened.',
  stopping: () => 'Asking **Pomodoro** to stop the timer…',
  stopResult: (status) =>
    ({
      interrupted: 'Stopped: the timer is no longer running.',
      start_cancelled: 'Cancelled: Pomodoro was still opening, so the timer never started.',
      nothing_to_interrupt: 'There was no timer running, so there was nothing to stop.',
    })[status],
  toolError: (tool, code) => `\`${tool}\` did not work: ${ENGLISH_TOOL_ERRORS[code]} (\`${code}\`).`,
  unexpectedResult: (tool) => `\`${tool}\` answered with a result I do not understand.`,
  noInventory: () =>
    'I cannot use any app yet: your client has not sent me its inventory (the list of tools I may use) in this conversation.',
  toolMissing: (tool) => `Pomodoro is not available: your client's latest inventory has no \`${tool}\` tool.`,
  compoundInterest: () =>
    'Here is a **compound interest calculator**. Change the principal, rate or years: it computes on your device and sends me nothing.',
  productComparison: () =>
    'Here is a **comparison of two laptops**. The figures are sample data, not live prices.',
  weatherOpened: (city) =>
    `Opening a small **weather** Surface for ${city}. It shows sample data; press *Refresh* and I will hear about it.`,
  weatherRefreshed: (city) =>
    `You pressed **Refresh** on the weather Surface. This demo has no live weather, so here is sample data for ${city}.`,
  weatherClosed: () => 'You closed the weather Surface.',
  weatherEvent: (event) => `The weather Surface sent the event \`${event}\`.`,
  focusCardOpened: () =>
    "Opening Pomodoro's **focus card**: a Surface of the installed app, which your host reads from the app's verified files. Press Start or Stop there and I will hear it.",
  focusCardMissing: () =>
    "Your host's inventory lists no Pomodoro focus card (the app is not installed or is disabled), so I cannot open it.",
  focusCardClosed: () => 'You closed the focus card.',
  streaming: (frames) =>
    `Streaming a **savings projection**: it builds up in ${frames} steps, each one a complete, valid interface.`,
  clientUnsupported: (messageType, reason) =>
    `Your client did not support ${messageType === undefined ? 'one of my messages' : `my \`${messageType}\` message`} (${
      {
        unknown_type: 'it does not know that type',
        unsupported_version: 'it speaks an earlier protocol version',
        unknown_reference: 'no app there provides what I asked for',
        revoked: 'the app that provided it was disabled or removed',
        invalid_message: 'it found the message invalid',
        unknown_conversation: 'it does not know this conversation',
      }[reason]
    }), so that part of the demo is not shown.`,
  help: () => `I am the LineUp **demo agent**. I understand:\n\n${phraseList('en')}`,
  unknown: () =>
    `I am the LineUp **demo agent**: I follow a short script, not a language model, and I did not understand that. Try one of these:\n\n${phraseList('en')}`,
};

const CHINESE: Replies = {
  focusLabels: { meditation: '冥想', study: '学习', reading: '阅读', work: '工作', focus: '专注' },
  pomodoroOpening: (minutes, label, defaulted) =>
    `正在打开**番茄钟**，准备 ${minutes} 分钟的${label}${
      defaulted ? '（你没说时长，按经典的 25 分钟）' : ''
    }。你看到它之后计时才会开始。`,
  pomodoroRunning: (minutes, label) => `计时已开始：**${minutes} 分钟**${label}。说「停止」可以提前结束。`,
  pomodoroOutOfRange: (minutes) => {
    const asked = shown(minutes);
    return `我只能计时 ${POMODORO_LIMITS.minMinutes} 到 ${POMODORO_LIMITS.maxMinutes} 之间的整数分钟${
      asked === undefined ? '' : `，${asked} 不在这个范围内`
    }，所以没有开始计时。可以试试「专注 25 分钟」。`;
  },
  pomodoroCompleted: (minutes, label) => `完成了：**${minutes} 分钟**的${label}已结束，做得好！`,
  pomodoroInterrupted: (by, seconds, label) =>
    by === 'agent'
      ? `${label}已停止，共进行了 **${chineseDuration(seconds)}**。`
      : `你离开了番茄钟，${label}已结束，共进行了 **${chineseDuration(seconds)}**。`,
  pomodoroNotStarted: (reason) =>
    reason === 'foreground_not_confirmed'
      ? '计时没有开始：番茄钟没能及时显示在前台。'
      : '计时没有开始：番茄钟打开之前就被取消了。',
  stopping: () => '正在让**番茄钟**停止计时…',
  stopResult: (status) =>
    ({
      interrupted: '已停止：计时不再进行。',
      start_cancelled: '已取消：番茄钟还在打开，计时没有开始。',
      nothing_to_interrupt: '现在没有正在进行的计时，无需停止。',
    })[status],
  toolError: (tool, code) => `\`${tool}\` 没有成功：${CHINESE_TOOL_ERRORS[code]}（\`${code}\`）。`,
  unexpectedResult: (tool) => `\`${tool}\` 返回了我看不懂的结果。`,
  noInventory: () => '我还不能使用任何应用：这个对话里，你的客户端还没有把工具清单（inventory）发给我。',
  toolMissing: (tool) => `番茄钟不可用：客户端最新的工具清单里没有 \`${tool}\`。`,
  compoundInterest: () =>
    '这是一个**复利计算器**。调整本金、收益率或年限即可，计算都在你的设备上完成，不会发给我。',
  productComparison: () => '这是**两款笔记本的对比**。数据是示例，不是实时报价。',
  weatherOpened: (city) => `正在打开一个**天气**小窗口，显示${city}的示例数据；点「刷新」我会收到通知。`,
  weatherRefreshed: (city) => `你在天气小窗口里点了**刷新**。这个演示没有实时天气，换成${city}的示例数据。`,
  weatherClosed: () => '你关闭了天气小窗口。',
  weatherEvent: (event) => `天气小窗口发来了事件 \`${event}\`。`,
  focusCardOpened: () =>
    '正在打开番茄钟的**专注卡片**：这是已安装应用的界面，由你的宿主从应用已验证的文件中读取。在卡片上点「开始」或「停止」，我都会收到。',
  focusCardMissing: () => '你的宿主清单里没有番茄钟的专注卡片（应用未安装或已停用），所以我无法打开它。',
  focusCardClosed: () => '你关闭了专注卡片。',
  streaming: (frames) => `正在流式展示一个**储蓄预测**：分 ${frames} 步生成，每一步都是完整、有效的界面。`,
  clientUnsupported: (messageType, reason) =>
    `你的客户端不支持我发送的${messageType === undefined ? '一条消息' : ` \`${messageType}\` 消息`}（${
      {
        unknown_type: '它不认识这种类型',
        unsupported_version: '它使用的是更早的协议版本',
        unknown_reference: '那里没有提供它的应用',
        revoked: '提供它的应用已被停用或卸载',
        invalid_message: '它认为这条消息无效',
        unknown_conversation: '它不认识这个对话',
      }[reason]
    }），所以这部分演示无法显示。`,
  help: () => `我是 LineUp 的**演示 Agent**，能听懂这些话：\n\n${phraseList('zh')}`,
  unknown: () =>
    `我是 LineUp 的**演示 Agent**：我按固定脚本回答，不是语言模型，没有听懂这句话。可以试试：\n\n${phraseList('zh')}`,
};

export const REPLIES = { en: ENGLISH, zh: CHINESE } as const satisfies Record<Language, Replies>;
