/**
 * The savings projection as a component stream (seed 002 §12, seed 004 §5): the opening snapshot, three
 * mutations and `complete`, after `@lineup/shared`'s `stream-initial.json` and `stream-mutations.json`
 * fixtures, with text in both languages. The frames are made by the shared producer (`startUIStream`,
 * `advanceUIStream`), which validates every candidate document and the generation's frozen contract, so each
 * frame carries a complete, valid snapshot.
 */
import { advanceUIStream, startUIStream, type UIStreamCheckpoint } from '@lineup/shared';
import type { Language } from '../conversation/language.js';

const TEXT = {
  en: {
    title: 'Savings projection',
    calculating: 'Calculating…',
    loading: 'Computing the projection',
    assumptions: '10,000 at 5% a year for 10 years, compounded yearly.',
    balance: 'Balance after 10 years',
    done: 'Projected balance',
    currency: 'USD',
  },
  zh: {
    title: '储蓄预测',
    calculating: '计算中…',
    loading: '正在计算预测结果',
    assumptions: '本金 10,000，年收益率 5%，存 10 年，每年复利。',
    balance: '10 年后的余额',
    done: '预计余额',
    currency: 'CNY',
  },
} as const satisfies Record<Language, Record<string, string>>;

function initialDocument(language: Language) {
  const text = TEXT[language];
  return {
    version: '1.0',
    id: 'savings-stream',
    mode: 'structured_ui',
    title: text.title,
    state: {
      principal: { type: 'number', initial: 10000, min: 0, max: 100000000 },
      rate: { type: 'number', initial: 5, min: 0, max: 20, step: 0.5 },
      years: { type: 'number', initial: 10, min: 0, max: 40, step: 1 },
    },
    derived: {
      total: {
        op: 'round',
        args: [
          {
            op: 'mul',
            args: [
              { state: 'principal' },
              {
                op: 'pow',
                args: [
                  { op: 'add', args: [1, { op: 'div', args: [{ state: 'rate' }, 100] }] },
                  { state: 'years' },
                ],
              },
            ],
          },
          2,
        ],
      },
    },
    root: {
      id: 'root',
      type: 'Column',
      props: { gap: 'md' },
      children: [
        {
          id: 'summary',
          type: 'Card',
          props: { title: text.calculating, gap: 'sm' },
          children: [{ id: 'loading', type: 'Loading', props: { label: text.loading } }],
        },
        { id: 'assumptions', type: 'Text', props: { text: text.assumptions } },
      ],
    },
  };
}

function mutations(language: Language) {
  const text = TEXT[language];
  return [
    {
      type: 'add',
      parentId: 'summary',
      index: 1,
      node: {
        id: 'total',
        type: 'Result',
        props: {
          label: text.balance,
          value: { expr: { derived: 'total' } },
          format: { style: 'currency', currency: text.currency, digits: 2 },
        },
      },
    },
    { type: 'update', nodeId: 'summary', props: { title: text.done, gap: 'sm' } },
    { type: 'remove', nodeId: 'loading' },
    { type: 'complete' },
  ];
}

/** Every frame of one stream, in order: `snapshot`, `add`, `update`, `remove`, `complete`. */
export function savingsStreamFrames(language: Language, sourceCallId: string): UIStreamCheckpoint[] {
  let producer = startUIStream(initialDocument(language), sourceCallId, 1);
  const frames = [producer.checkpoint];
  for (const mutation of mutations(language)) {
    producer = advanceUIStream(producer, mutation);
    frames.push(producer.checkpoint);
  }
  return frames;
}
