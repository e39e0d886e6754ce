/**
 * A comparison of two laptops (DSL 1.0, `structured_ui`: display only), after `@lineup/shared`'s
 * `product-comparison.json` fixture, cut down to two products and given text in both languages. The figures
 * are sample data.
 */
import type { Language } from '../conversation/language.js';

const TEXT = {
  en: {
    title: 'Two laptops compared',
    intro:
      'Figures are **sample data**, not live prices.\n\n- Battery: hours of local video playback\n- Weight includes the battery, not the charger',
    model: 'Model',
    cpu: 'Processor',
    memory: 'Memory (GB)',
    weight: 'Weight (kg)',
    battery: 'Battery (hours)',
    cpuAir: '8 cores / 3.2 GHz',
    cpuPro: '12 cores / 3.8 GHz',
    priceChart: 'Price ($)',
    price: 'Price',
    batteryBar: 'Battery (full bar: 24 hours)',
    premium: 'Premium over Air 13',
    lighter: 'Lighter',
    faster: 'Faster',
    currency: 'USD',
    priceAir: 1299,
    pricePro: 1899,
  },
  zh: {
    title: '两款轻薄笔记本对比',
    intro:
      '以下参数是**示例数据**，不是实时报价。\n\n- 续航为本地视频播放测试的小时数\n- 重量包含电池，不含电源适配器',
    model: '机型',
    cpu: '处理器',
    memory: '内存（GB）',
    weight: '重量（kg）',
    battery: '续航（小时）',
    cpuAir: '8 核 / 3.2 GHz',
    cpuPro: '12 核 / 3.8 GHz',
    priceChart: '售价（元）',
    price: '售价',
    batteryBar: '续航（满格 24 小时）',
    premium: '相对 Air 13 的溢价',
    lighter: '更轻',
    faster: '性能更强',
    currency: 'CNY',
    priceAir: 8999,
    pricePro: 12999,
  },
} as const satisfies Record<Language, Record<string, string | number>>;

export function productComparisonDocument(language: Language) {
  const text = TEXT[language];
  const card = (key: 'air' | 'pro', name: string, badge: string, tone: 'success' | 'warning') => ({
    id: `${key}-card`,
    type: 'Card',
    props: { title: name, gap: 'sm' },
    children: [
      { id: `${key}-badge`, type: 'Badge', props: { text: badge, tone } },
      {
        id: `${key}-price`,
        type: 'Result',
        props: {
          label: text.price,
          value: { expr: { state: key === 'air' ? 'priceAir' : 'pricePro' } },
          format: { style: 'currency', currency: text.currency, digits: 0 },
        },
      },
      {
        id: `${key}-battery`,
        type: 'Progress',
        props: {
          label: text.batteryBar,
          value: { expr: { state: key === 'air' ? 'batteryAir' : 'batteryPro' } },
          max: 24,
        },
      },
    ],
  });
  return {
    version: '1.0',
    id: 'product-comparison',
    mode: 'structured_ui',
    title: text.title,
    state: {
      priceAir: { type: 'number', initial: text.priceAir, min: 0, max: 100000, step: 1 },
      pricePro: { type: 'number', initial: text.pricePro, min: 0, max: 100000, step: 1 },
      batteryAir: { type: 'number', initial: 15, min: 0, max: 24, step: 0.5 },
      batteryPro: { type: 'number', initial: 18, min: 0, max: 24, step: 0.5 },
    },
    derived: {
      proPremium: {
        op: 'div',
        args: [{ op: 'sub', args: [{ state: 'pricePro' }, { state: 'priceAir' }] }, { state: 'priceAir' }],
      },
    },
    root: {
      id: 'comparison',
      type: 'Column',
      props: { gap: 'lg' },
      children: [
        { id: 'heading', type: 'Heading', props: { text: text.title, level: 1 } },
        { id: 'intro', type: 'Markdown', props: { text: text.intro } },
        {
          id: 'spec-table',
          type: 'Table',
          props: {
            columns: [
              { key: 'model', label: text.model },
              { key: 'cpu', label: text.cpu },
              { key: 'memory', label: text.memory },
              { key: 'weight', label: text.weight },
              { key: 'battery', label: text.battery },
            ],
            rows: [
              { model: 'Air 13', cpu: text.cpuAir, memory: 16, weight: 1.24, battery: 15 },
              { model: 'Pro 14', cpu: text.cpuPro, memory: 32, weight: 1.55, battery: 18 },
            ],
          },
        },
        {
          id: 'price-chart',
          type: 'Chart',
          props: {
            kind: 'bar',
            label: text.priceChart,
            data: [
              { id: 'air', label: 'Air 13', value: { expr: { state: 'priceAir' } } },
              { id: 'pro', label: 'Pro 14', value: { expr: { state: 'pricePro' } } },
            ],
          },
        },
        {
          id: 'model-grid',
          type: 'Grid',
          props: { gap: 'md', columns: 2 },
          children: [
            card('air', 'Air 13', text.lighter, 'success'),
            card('pro', 'Pro 14', text.faster, 'warning'),
          ],
        },
        {
          id: 'pro-premium',
          type: 'Result',
          props: {
            label: text.premium,
            value: { expr: { derived: 'proPremium' } },
            format: { style: 'percent', digits: 1 },
          },
        },
      ],
    },
  };
}
