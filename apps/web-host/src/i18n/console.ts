/** The text of the agent console (console/): a protocol inspector that speaks as the agent. */
import type { Bilingual } from './language.ts';

const en = {
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
  viewLog: 'What views logged',
  viewLogIntro: 'MCP App views log here, and only here: nothing they log is sent to the agent.',
  viewLogEmpty: 'No view has logged anything.',
  viewLogDropped: (count: number, limit: number) =>
    `${count} older ${count === 1 ? 'entry was' : 'entries were'} dropped; the log keeps the last ${limit}.`,
  viewLogOmitted: (count: number) => `… (${count} more characters)`,
};

export type ConsoleText = typeof en;

const zh: ConsoleText = {
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
  viewLog: '视图日志',
  viewLogIntro: 'MCP App 视图的日志只显示在这里：它们记录的任何内容都不会发给智能体。',
  viewLogEmpty: '还没有视图记录任何内容。',
  viewLogDropped: (count: number, limit: number) =>
    `已丢弃 ${count} 条较早的记录；日志只保留最近 ${limit} 条。`,
  viewLogOmitted: (count: number) => `…（另有 ${count} 个字符）`,
};

export const CONSOLE_TEXT: Bilingual<ConsoleText> = { en, zh };
