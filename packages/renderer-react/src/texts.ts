/**
 * What the renderer itself says about actions (not the document's text, which is the agent's): English, or
 * Chinese when the view's `locale` is a Chinese one (`zh`, `zh-CN`, `zh-Hant`, …).
 */
import type { UIActionReceipt } from '@lineup/shared';
import type { InvokeUnavailableReason } from './invoke.js';

export interface ActionTexts {
  /** The language of these texts, for their `lang` attribute inside a document of another language. */
  readonly lang: string;
  /** Said before a Badge's text, so its tone is not colour alone. */
  readonly tones: Readonly<Record<'success' | 'warning' | 'danger', string>>;
  /** The name of a Chart without a label. */
  readonly chart: string;
  readonly unavailable: Readonly<Record<Exclude<InvokeUnavailableReason, null>, string>>;
  readonly receipt: Readonly<Record<UIActionReceipt['status'], string>>;
  readonly submitting: string;
  readonly conflict: string;
  /** Before a receipt kept from earlier (e.g. before a reload): it was not run again. */
  readonly earlier: string;
  /** Under a component stream that has not ended: what it is now. */
  readonly stream: {
    readonly streaming: string;
    readonly cancelled: string;
    readonly failed: string;
    /** No step will come: a newer generation of the UI opened, or the agent's run ended (seed 004 §5). */
    readonly interrupted: string;
  };
}

const EN: ActionTexts = {
  lang: 'en',
  tones: { success: 'Success', warning: 'Warning', danger: 'Error' },
  chart: 'Chart',
  unavailable: {
    no_handler: 'Actions are not available here.',
    streaming: 'Available once the interface has finished loading.',
    stream_ended: 'This interface did not finish loading; its actions are not available.',
  },
  receipt: {
    queued: 'Queued',
    awaiting_confirmation: 'Waiting for your confirmation',
    running: 'Running',
    succeeded: 'Done',
    failed: 'Failed',
    cancelled: 'Cancelled',
    unknown: 'Outcome unknown; it will not be retried automatically',
    accepted: 'Sent to the agent',
  },
  submitting: 'Submitting…',
  conflict: 'Done. You changed values after the click, so the result was not applied; your values were kept.',
  earlier: 'Last time',
  stream: {
    streaming: 'Generating…',
    cancelled: 'Generation was cancelled; this is the last complete version.',
    failed: 'Generation stopped with an error; this is the last complete version.',
    interrupted: 'Generation was interrupted; this is the last complete version.',
  },
};

const ZH: ActionTexts = {
  lang: 'zh-CN',
  tones: { success: '成功', warning: '警告', danger: '错误' },
  chart: '图表',
  unavailable: {
    no_handler: '此处不能执行操作。',
    streaming: '界面加载完成后可用。',
    stream_ended: '此界面未加载完成，其操作不可用。',
  },
  receipt: {
    queued: '已排队',
    awaiting_confirmation: '等待你确认',
    running: '执行中',
    succeeded: '已完成',
    failed: '失败',
    cancelled: '已取消',
    unknown: '结果未知；不会自动重试',
    accepted: '已发送给 Agent',
  },
  submitting: '正在提交…',
  conflict: '已完成。你在点击后修改了数值，因此结果未写入；你的数值已保留。',
  earlier: '上一次',
  stream: {
    streaming: '正在生成…',
    cancelled: '生成已取消；这是最后一个完整版本。',
    failed: '生成因错误停止；这是最后一个完整版本。',
    interrupted: '生成已中断；这是最后一个完整版本。',
  },
};

export function actionTexts(locale: string | undefined): ActionTexts {
  return locale !== undefined && /^zh(?:-|$)/i.test(locale) ? ZH : EN;
}
