/**
 * The rule corpus of `parseDocument` for component props (seed 002 §5): the components' own rules, required and
 * optional labels, Table, Progress, Chart, and Result with its ResultFormat. One row per rule: invalid rows
 * assert the issue's `code` and exact `path` (PATHS.md); valid rows pin the edges. The base document, its
 * builders and the runner are in test/document-rules.ts.
 */
import {
  C,
  column,
  describeRuleCorpus,
  doc,
  expr,
  INJECTED_KEY,
  issue,
  type J,
  mutate,
  node,
  one,
  op,
  repeat,
  ruleCorpus,
  st,
  VALID_NODES,
} from '../../test/document-rules.js';

const corpus = ruleCorpus();
const { reject, accept } = corpus;

// ---------------------------------------------------------------------------------------------------------
// §5 Components
// ---------------------------------------------------------------------------------------------------------

reject(
  '§5 gap is sm, md or lg',
  () => doc([mutate(column('c'), (n) => (n.props.gap = 'xl'))]),
  issue('invalid_value', `${C(0)}.props.gap`),
);
reject(
  '§5 Heading level 1–3',
  () => one(VALID_NODES.Heading!(), (p) => (p.level = 4)),
  issue('invalid_value', `${C(0)}.props.level`),
);
reject(
  '§5 Heading level is a number',
  () => one(VALID_NODES.Heading!(), (p) => (p.level = '1')),
  issue('invalid_value', `${C(0)}.props.level`),
  issue('invalid_type', `${C(0)}.props.level`),
);
reject(
  '§5 Grid columns 1–4',
  () => one(VALID_NODES.Grid!(), (p) => (p.columns = 5)),
  issue('invalid_value', `${C(0)}.props.columns`),
);
reject(
  '§5 Card title longer than 512',
  () => one(VALID_NODES.Card!(), (p) => (p.title = repeat(513))),
  issue('string_too_long', `${C(0)}.props.title`),
);
accept('§5 Card title of 512', () => one(VALID_NODES.Card!(), (p) => (p.title = repeat(512))));
reject(
  '§5 Card title is a plain string, not a Value expression',
  () => one(VALID_NODES.Card!(), (p) => (p.title = expr(st('s')))),
  issue('invalid_type', `${C(0)}.props.title`),
);
reject(
  '§5 Badge tone',
  () => one(VALID_NODES.Badge!(), (p) => (p.tone = 'info')),
  issue('invalid_value', `${C(0)}.props.tone`),
);
reject(
  '§5 Button variant',
  () => one(VALID_NODES.Button!(), (p) => (p.variant = 'danger')),
  issue('invalid_value', `${C(0)}.props.variant`),
);
reject(
  '§5 Markdown text longer than 16,384',
  () => one(VALID_NODES.Markdown!(), (p) => (p.text = repeat(16385))),
  issue('string_too_long', `${C(0)}.props.text`),
);
accept('§5 Markdown text of exactly 16,384', () =>
  one(VALID_NODES.Markdown!(), (p) => (p.text = repeat(16384))),
);
reject(
  '§5 Markdown text has no state expressions',
  () => one(VALID_NODES.Markdown!(), (p) => (p.text = expr(st('s')))),
  issue('invalid_type', `${C(0)}.props.text`),
);
reject(
  '§5 Error message references are checked',
  () => one(VALID_NODES.Error!(), (p) => (p.message = expr(st('missing')))),
  issue('unknown_reference', `${C(0)}.props.message.expr.state`),
);
reject(
  '§5 Badge text longer than 4,096',
  () => one(VALID_NODES.Badge!(), (p) => (p.text = repeat(4097))),
  issue('string_too_long', `${C(0)}.props.text`),
);

// Required and optional labels: 1–512, optional ones at most 512
const labels: [string, string, (props: J) => void][] = [
  ['Input.label', 'Input', (p) => (p.label = '')],
  ['Button.label', 'Button', (p) => (p.label = '')],
  ['Checkbox.label', 'Checkbox', (p) => (p.label = '')],
  ['Form.submitLabel', 'Form', (p) => (p.submitLabel = '')],
];
for (const [name, type, change] of labels) {
  reject(
    `§5 ${name} of 0 characters`,
    () => one(VALID_NODES[type]!(), change),
    issue('string_too_short', `${C(0)}.props.${name.split('.')[1]}`),
  );
}
reject(
  '§5 a control label longer than 512',
  () => one(VALID_NODES.Input!(), (p) => (p.label = repeat(513))),
  issue('string_too_long', `${C(0)}.props.label`),
);
accept('§5 a control label of exactly 512', () => one(VALID_NODES.Input!(), (p) => (p.label = repeat(512))));
reject(
  '§5 a control label is a string, not a Value',
  () => one(VALID_NODES.Button!(), (p) => (p.label = expr(st('s')))),
  issue('invalid_type', `${C(0)}.props.label`),
);
reject(
  '§5 a submitLabel longer than 512',
  () => one(VALID_NODES.Form!(), (p) => (p.submitLabel = repeat(513))),
  issue('string_too_long', `${C(0)}.props.submitLabel`),
);
reject(
  '§5 an Input placeholder longer than 512',
  () => one(VALID_NODES.Input!(), (p) => (p.placeholder = repeat(513))),
  issue('string_too_long', `${C(0)}.props.placeholder`),
);
reject(
  '§5 a Loading label longer than 512',
  () => one(VALID_NODES.Loading!(), (p) => (p.label = repeat(513))),
  issue('string_too_long', `${C(0)}.props.label`),
);
reject(
  '§5 a Result label longer than 512',
  () => one(VALID_NODES.Result!(), (p) => (p.label = repeat(513))),
  issue('string_too_long', `${C(0)}.props.label`),
);
reject(
  '§5 a Progress label longer than 512',
  () => one(VALID_NODES.Progress!(), (p) => (p.label = repeat(513))),
  issue('string_too_long', `${C(0)}.props.label`),
);
reject(
  '§5 a Chart label longer than 512',
  () => one(VALID_NODES.Chart!(), (p) => (p.label = repeat(513))),
  issue('string_too_long', `${C(0)}.props.label`),
);
accept('§5 optional labels may be empty', () =>
  doc([node('Loading', 'l', { label: '' }), mutate(VALID_NODES.Card!(), (n) => (n.props.title = ''))]),
);

// Table
accept('§5 Table with 0 rows', () => one(VALID_NODES.Table!(), (p) => (p.rows = [])));
reject(
  '§5 Table with 0 columns',
  () =>
    one(VALID_NODES.Table!(), (p) => {
      p.columns = [];
      p.rows = [];
    }),
  issue('too_few', `${C(0)}.props.columns`),
);
const tableOf = (columns: number, rows: number) =>
  node('Table', 'table', {
    columns: Array.from({ length: columns }, (_, i) => ({ key: `c${i}`, label: `C${i}` })),
    rows: Array.from({ length: rows }, (_, r) =>
      Object.fromEntries(Array.from({ length: columns }, (_, i) => [`c${i}`, r])),
    ),
  });
accept('§5 Table with exactly 32 columns and 500 rows', () =>
  doc([tableOf(32, 1), tableOf(1, 500)].map((n, i) => ({ ...n, id: `t${i}` }))),
);
reject('§5 Table with 33 columns', () => doc([tableOf(33, 1)]), issue('too_many', `${C(0)}.props.columns`));
reject('§5 Table with 501 rows', () => doc([tableOf(1, 501)]), issue('too_many', `${C(0)}.props.rows`));
reject(
  '§5 a Table row missing a column key',
  () => one(VALID_NODES.Table!(), (p) => delete p.rows[1].b),
  issue('row_columns_mismatch', `${C(0)}.props.rows[1]`),
);
reject(
  '§5 a Table row with an extra key',
  () => one(VALID_NODES.Table!(), (p) => (p.rows[1][INJECTED_KEY] = 1)),
  issue('row_columns_mismatch', `${C(0)}.props.rows[1]`),
  issue('unknown_property', `${C(0)}.props.rows[1]`),
);
reject(
  '§5 Table cells are static scalars, not expressions',
  () => one(VALID_NODES.Table!(), (p) => (p.rows[0].a = expr(st('n')))),
  issue('invalid_type', `${C(0)}.props.rows[0].a`),
);
reject(
  '§5 Table cells are not arrays',
  () => one(VALID_NODES.Table!(), (p) => (p.rows[0].a = [1])),
  issue('invalid_type', `${C(0)}.props.rows[0].a`),
);
reject(
  '§5 a Table cell string longer than 4,096',
  () => one(VALID_NODES.Table!(), (p) => (p.rows[0].b = repeat(4097))),
  issue('string_too_long', `${C(0)}.props.rows[0].b`),
);
reject(
  '§5 Table column keys are unique',
  () => one(VALID_NODES.Table!(), (p) => (p.columns[1].key = 'a')),
  issue('duplicate_id', `${C(0)}.props.columns[1].key`),
);
reject(
  '§5 Table column keys are identifiers',
  () => one(VALID_NODES.Table!(), (p) => (p.columns[0].key = 'a b')),
  issue('invalid_identifier', `${C(0)}.props.columns[0].key`),
);
reject(
  '§5 Table column label of 0 characters',
  () => one(VALID_NODES.Table!(), (p) => (p.columns[0].label = '')),
  issue('string_too_short', `${C(0)}.props.columns[0].label`),
);
reject(
  '§5 a Table column is closed',
  () => one(VALID_NODES.Table!(), (p) => (p.columns[0][INJECTED_KEY] = 1)),
  issue('unknown_property', `${C(0)}.props.columns[0]`),
);
accept('§2 the same column key in two tables', () =>
  doc([VALID_NODES.Table!(), mutate(VALID_NODES.Table!(), (n) => (n.id = 'table2'))]),
);

// Progress
accept('§5 Progress default at 0 and at max', () =>
  doc([
    node('Progress', 'p0', { value: 0 }),
    node('Progress', 'p1', { value: 100 }),
    node('Progress', 'p2', { value: expr(st('n')), max: 10 }),
  ]),
);
reject(
  '§5 Progress max must be > 0 (0)',
  () => one(VALID_NODES.Progress!(), (p) => (p.max = 0)),
  issue('number_out_of_range', `${C(0)}.props.max`),
);
reject(
  '§5 Progress max must be > 0 (negative)',
  () => one(VALID_NODES.Progress!(), (p) => (p.max = -5)),
  issue('number_out_of_range', `${C(0)}.props.max`),
);
reject(
  '§5 Progress value must be a number (literal)',
  () => one(VALID_NODES.Progress!(), (p) => (p.value = 'half')),
  issue('type_mismatch', `${C(0)}.props.value`),
  issue('invalid_type', `${C(0)}.props.value`),
);
reject(
  '§5 Progress value must always be a number (expression)',
  () => one(VALID_NODES.Progress!(), (p) => (p.value = expr(st('b')))),
  issue('type_mismatch', `${C(0)}.props.value`),
);
reject(
  '§5 Progress default above max (default max 100)',
  () =>
    one(VALID_NODES.Progress!(), (p) => {
      p.value = expr(op('mul', st('n'), 20));
      delete p.max;
    }),
  issue('evaluation_failed', `${C(0)}.props.value`),
  issue('number_out_of_range', `${C(0)}.props.value`),
);
reject(
  '§5 Progress default above an explicit max',
  () => one(VALID_NODES.Progress!(), (p) => (p.max = 5)),
  issue('evaluation_failed', `${C(0)}.props.value`),
  issue('number_out_of_range', `${C(0)}.props.value`),
);
reject(
  '§5 Progress default below 0',
  () => one(VALID_NODES.Progress!(), (p) => (p.value = -1)),
  issue('evaluation_failed', `${C(0)}.props.value`),
  issue('number_out_of_range', `${C(0)}.props.value`),
);

// Chart
accept('§5 Chart with positive and negative values, 200 points', () =>
  one(
    VALID_NODES.Chart!(),
    (p) =>
      (p.data = Array.from({ length: 200 }, (_, i) => ({ id: `p${i}`, label: `P${i}`, value: i - 100 }))),
  ),
);
reject(
  '§5 Chart with 201 points',
  () =>
    one(
      VALID_NODES.Chart!(),
      (p) => (p.data = Array.from({ length: 201 }, (_, i) => ({ id: `p${i}`, label: `P${i}`, value: i }))),
    ),
  issue('too_many', `${C(0)}.props.data`),
);
reject(
  '§5 Chart with 0 points',
  () => one(VALID_NODES.Chart!(), (p) => (p.data = [])),
  issue('too_few', `${C(0)}.props.data`),
);
reject(
  '§5 Chart kind is bar or line',
  () => one(VALID_NODES.Chart!(), (p) => (p.kind = 'pie')),
  issue('invalid_value', `${C(0)}.props.kind`),
);
reject(
  '§5 Chart point ids are unique in a chart',
  () => one(VALID_NODES.Chart!(), (p) => (p.data[1].id = 'p1')),
  issue('duplicate_id', `${C(0)}.props.data[1].id`),
);
accept('§2 the same point id in two charts', () =>
  doc([VALID_NODES.Chart!(), mutate(VALID_NODES.Chart!(), (n) => (n.id = 'chart2'))]),
);
reject(
  '§5 Chart point ids are identifiers',
  () => one(VALID_NODES.Chart!(), (p) => (p.data[0].id = '9p')),
  issue('invalid_identifier', `${C(0)}.props.data[0].id`),
);
reject(
  '§5 Chart point label of 0 characters',
  () => one(VALID_NODES.Chart!(), (p) => (p.data[0].label = '')),
  issue('string_too_short', `${C(0)}.props.data[0].label`),
);
reject(
  '§5 Chart point value must be a number (literal)',
  () => one(VALID_NODES.Chart!(), (p) => (p.data[0].value = 'x')),
  issue('type_mismatch', `${C(0)}.props.data[0].value`),
  issue('invalid_type', `${C(0)}.props.data[0].value`),
);
reject(
  '§5 Chart point value must always be a number (expression)',
  () => one(VALID_NODES.Chart!(), (p) => (p.data[1].value = expr(st('s')))),
  issue('type_mismatch', `${C(0)}.props.data[1].value`),
);
reject(
  '§3 a Chart point value whose default evaluation fails',
  () =>
    one(VALID_NODES.Chart!(), (p) => (p.data[1].value = expr(op('div', st('n'), op('sub', st('n'), 10))))),
  issue('evaluation_failed', `${C(0)}.props.data[1].value`),
);
reject(
  '§5 a Chart point is closed (no SVG path)',
  () => one(VALID_NODES.Chart!(), (p) => (p.data[0].path = 'M0 0')),
  issue('unknown_property', `${C(0)}.props.data[0]`),
);

// Result and ResultFormat
accept('§5 Result without a format may show a string', () =>
  doc([node('Result', 'r', { value: expr(st('s')) })]),
);
accept('§5 ResultFormat: currency with currency, percent, decimal, digits 0 and 6', () =>
  doc([
    node('Result', 'r1', { value: 1, format: { style: 'currency', currency: 'USD', digits: 0 } }),
    node('Result', 'r2', { value: 0.05, format: { style: 'percent' } }),
    node('Result', 'r3', { value: 1, format: { style: 'decimal', digits: 6 } }),
    node('Result', 'r4', { value: 1, format: { style: 'currency', currency: 'EUR' } }),
  ]),
);
const resultWith = (format: J, value: unknown = 1) => doc([node('Result', 'r', { value, format })]);
reject(
  '§5 currency style requires currency',
  () => resultWith({ style: 'currency' }),
  issue('missing_property', `${C(0)}.props.format.currency`),
);
reject(
  '§5 decimal style cannot carry currency',
  () => resultWith({ style: 'decimal', currency: 'CNY' }),
  issue('invalid_value', `${C(0)}.props.format.currency`),
  issue('unknown_property', `${C(0)}.props.format`),
);
reject(
  '§5 percent style cannot carry currency',
  () => resultWith({ style: 'percent', currency: 'USD' }),
  issue('invalid_value', `${C(0)}.props.format.currency`),
  issue('unknown_property', `${C(0)}.props.format`),
);
reject(
  '§5 currency is CNY, USD or EUR',
  () => resultWith({ style: 'currency', currency: 'JPY' }),
  issue('invalid_value', `${C(0)}.props.format.currency`),
);
reject(
  '§5 style is decimal, currency or percent',
  () => resultWith({ style: 'scientific' }),
  issue('invalid_value', `${C(0)}.props.format.style`),
);
reject(
  '§5 format needs a style',
  () => resultWith({ digits: 2 }),
  issue('missing_property', `${C(0)}.props.format.style`),
);
reject(
  '§5 digits above 6',
  () => resultWith({ style: 'decimal', digits: 7 }),
  issue('number_out_of_range', `${C(0)}.props.format.digits`),
);
reject(
  '§5 digits below 0',
  () => resultWith({ style: 'decimal', digits: -1 }),
  issue('number_out_of_range', `${C(0)}.props.format.digits`),
);
reject(
  '§5 digits must be an integer',
  () => resultWith({ style: 'decimal', digits: 2.5 }),
  issue('not_integer', `${C(0)}.props.format.digits`),
);
reject(
  '§5 a ResultFormat is closed',
  () => resultWith({ style: 'decimal', [INJECTED_KEY]: true }),
  issue('unknown_property', `${C(0)}.props.format`),
);
reject(
  '§5 a formatted Result whose value is a string literal',
  () => resultWith({ style: 'decimal' }, 'abc'),
  issue('type_mismatch', `${C(0)}.props.value`),
  issue('evaluation_failed', `${C(0)}.props.value`),
);
reject(
  '§5 a formatted Result whose value is a string state',
  () => resultWith({ style: 'percent' }, expr(st('s'))),
  issue('type_mismatch', `${C(0)}.props.value`),
  issue('evaluation_failed', `${C(0)}.props.value`),
);
reject(
  '§5 a formatted Result whose value is not always a number',
  () => resultWith({ style: 'decimal' }, expr(op('if', st('b'), 1, 'none'))),
  issue('type_mismatch', `${C(0)}.props.value`),
  issue('evaluation_failed', `${C(0)}.props.value`),
);

// ---------------------------------------------------------------------------------------------------------
// Running the corpus
// ---------------------------------------------------------------------------------------------------------

describeRuleCorpus(corpus);
