/**
 * The compound interest calculator (DSL 1.0, `interactive_ui`): copied from `@lineup/shared`'s
 * `compound-interest.json` fixture and given labels in both languages. Everything it computes is a derived
 * value evaluated on the user's device; it declares no action that reaches the agent.
 */
import type { Language } from '../conversation/language.js';

const TEXT = {
  en: {
    title: 'Compound interest calculator',
    assumptions:
      'Assumes a fixed yearly return, compounded once a year, with no further deposits, fees or taxes.',
    principal: 'Principal ($)',
    rate: 'Yearly return (%)',
    years: 'Years',
    total: 'Balance at the end',
    chart: 'Principal and interest earned',
    principalBar: 'Principal',
    gainBar: 'Interest earned',
    reset: 'Reset',
    currency: 'USD',
  },
  zh: {
    title: '本地复利计算器',
    assumptions: '示例假设固定年收益率、每年复利，不含追加投入、费用和税费。',
    principal: '本金（元）',
    rate: '年收益率（%）',
    years: '投资年限',
    total: '期末总额',
    chart: '本金与累计收益',
    principalBar: '本金',
    gainBar: '累计收益',
    reset: '重置参数',
    currency: 'CNY',
  },
} as const satisfies Record<Language, Record<string, string>>;

export function compoundInterestDocument(language: Language) {
  const text = TEXT[language];
  return {
    version: '1.0',
    id: 'compound-interest',
    mode: 'interactive_ui',
    title: text.title,
    state: {
      principal: { type: 'number', initial: 10000, min: 0, max: 100000000 },
      rate: { type: 'number', initial: 5, min: 0, max: 20, step: 0.5 },
      years: { type: 'number', initial: 10, min: 0, max: 40, step: 1 },
    },
    derived: {
      total: {
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
      gain: { op: 'sub', args: [{ derived: 'total' }, { state: 'principal' }] },
    },
    root: {
      id: 'calculator-card',
      type: 'Card',
      props: { gap: 'md' },
      children: [
        { id: 'assumptions', type: 'Text', props: { text: text.assumptions } },
        { id: 'principal-input', type: 'NumberInput', props: { label: text.principal, bind: 'principal' } },
        { id: 'rate-slider', type: 'Slider', props: { label: text.rate, bind: 'rate' } },
        { id: 'years-slider', type: 'Slider', props: { label: text.years, bind: 'years' } },
        {
          id: 'total-result',
          type: 'Result',
          props: {
            label: text.total,
            value: { expr: { derived: 'total' } },
            format: { style: 'currency', currency: text.currency, digits: 2 },
          },
        },
        {
          id: 'return-chart',
          type: 'Chart',
          props: {
            kind: 'bar',
            label: text.chart,
            data: [
              { id: 'principal-bar', label: text.principalBar, value: { expr: { state: 'principal' } } },
              { id: 'gain-bar', label: text.gainBar, value: { expr: { derived: 'gain' } } },
            ],
          },
        },
        {
          id: 'reset-button',
          type: 'Button',
          props: { label: text.reset, action: { type: 'reset' }, variant: 'secondary' },
        },
      ],
    },
  };
}
