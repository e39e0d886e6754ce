/**
 * The rule corpus of `parseDocument` for state and shared domains (seed 002 §4): state fields, the step grid,
 * strings, the types of bindings, and the domains of numeric controls and Selects. One row per rule: invalid rows
 * assert the issue's `code` and exact `path` (PATHS.md); valid rows pin the edges. The base document, its
 * builders and the runner are in test/document-rules.ts.
 */
import {
  button,
  C,
  describeRuleCorpus,
  doc,
  expr,
  form,
  INJECTED_KEY,
  issue,
  mutate,
  node,
  one,
  PLAN_OPTIONS,
  repeat,
  ruleCorpus,
  select,
  setAction,
  st,
  VALID_NODES,
  withState,
} from '../../test/document-rules.js';

const corpus = ruleCorpus();
const { reject, accept } = corpus;

// ---------------------------------------------------------------------------------------------------------
// §4 State and shared domains
// ---------------------------------------------------------------------------------------------------------

reject(
  '§4 a state declaration must be an object',
  () => withState({ x: 5 }),
  issue('invalid_type', 'state.x'),
);
reject(
  '§4 a state declaration needs a type',
  () => withState({ x: { initial: 1 } }),
  issue('missing_property', 'state.x.type'),
);
reject(
  '§4 a state declaration needs an initial value',
  () => withState({ x: { type: 'number' } }),
  issue('missing_property', 'state.x.initial'),
);
reject(
  '§4 no null state',
  () => withState({ x: { type: 'number', initial: null } }),
  issue('invalid_type', 'state.x.initial'),
);
reject(
  '§4 no object or array state type',
  () => withState({ x: { type: 'array', initial: [] } }),
  issue('invalid_value', 'state.x.type'),
);
reject(
  '§4 no "null" state type',
  () => withState({ x: { type: 'null', initial: null } }),
  issue('invalid_value', 'state.x.type'),
);
reject(
  '§4 a number initial must be a number',
  () => withState({ x: { type: 'number', initial: '5' } }),
  issue('invalid_type', 'state.x.initial'),
);
reject(
  '§4 a string initial must be a string',
  () => withState({ x: { type: 'string', initial: 5 } }),
  issue('invalid_type', 'state.x.initial'),
);
reject(
  '§4 a boolean initial must be a real boolean ("true")',
  () => withState({ x: { type: 'boolean', initial: 'true' } }),
  issue('invalid_type', 'state.x.initial'),
);
reject(
  '§4 a boolean initial must be a real boolean (0)',
  () => withState({ x: { type: 'boolean', initial: 0 } }),
  issue('invalid_type', 'state.x.initial'),
);
reject(
  '§4 a state declaration is closed',
  () => withState({ x: { type: 'number', initial: 1, [INJECTED_KEY]: 1 } }),
  issue('unknown_property', 'state.x'),
);
reject(
  '§4 a string state has no step',
  () => withState({ x: { type: 'string', initial: '', step: 1 } }),
  issue('unknown_property', 'state.x'),
);
reject(
  '§4 a boolean state has no maxLength',
  () => withState({ x: { type: 'boolean', initial: true, maxLength: 4 } }),
  issue('unknown_property', 'state.x'),
);
reject(
  '§4 a number state has no maxLength',
  () => withState({ x: { type: 'number', initial: 1, maxLength: 4 } }),
  issue('unknown_property', 'state.x'),
);
reject(
  '§4 min <= max',
  () => withState({ x: { type: 'number', initial: 5, min: 10, max: 0 } }),
  issue('number_out_of_range', 'state.x.min'),
  issue('number_out_of_range', 'state.x.max'),
  issue('invalid_value', 'state.x.min'),
  issue('invalid_value', 'state.x.max'),
);
accept('§4 min = max is a valid state', () =>
  withState({ x: { type: 'number', initial: 5, min: 5, max: 5 } }),
);
reject(
  '§4 initial above max',
  () => withState({ x: { type: 'number', initial: 11, min: 0, max: 10 } }),
  issue('number_out_of_range', 'state.x.initial'),
);
reject(
  '§4 initial below min',
  () => withState({ x: { type: 'number', initial: -1, min: 0, max: 10 } }),
  issue('number_out_of_range', 'state.x.initial'),
);
accept('§4 bounds are inclusive', () =>
  withState({
    lo: { type: 'number', initial: 0, min: 0, max: 10 },
    hi: { type: 'number', initial: 10, min: 0, max: 10 },
  }),
);
reject(
  '§4 step must be positive (0)',
  () => withState({ x: { type: 'number', initial: 0, step: 0 } }),
  issue('number_out_of_range', 'state.x.step'),
);
reject(
  '§4 step must be positive (negative)',
  () => withState({ x: { type: 'number', initial: 0, step: -1 } }),
  issue('number_out_of_range', 'state.x.step'),
);
reject(
  '§4 a bound above 1e15',
  () => withState({ x: { type: 'number', initial: 0, max: 2e15 } }),
  issue('number_out_of_range', 'state.x.max'),
);
reject(
  '§4 a bound below -1e15',
  () => withState({ x: { type: 'number', initial: 0, min: -2e15 } }),
  issue('number_out_of_range', 'state.x.min'),
);
reject(
  '§4 an unbounded initial above 1e15',
  () => withState({ x: { type: 'number', initial: 1.5e15 } }),
  issue('number_out_of_range', 'state.x.initial'),
);
accept('§4 an unbounded initial of 1e15', () => withState({ x: { type: 'number', initial: 1e15 } }));

// Step grid
reject(
  '§4 step 1 does not accept 10.5',
  () => withState({ x: { type: 'number', initial: 10.5, step: 1 } }),
  issue('step_mismatch', 'state.x.initial'),
);
reject(
  '§4 the grid starts at min (min 1, step 2, initial 2)',
  () => withState({ x: { type: 'number', initial: 2, min: 1, max: 9, step: 2 } }),
  issue('step_mismatch', 'state.x.initial'),
);
accept('§4 the grid starts at min (min 1, step 2, initial 3)', () =>
  withState({ x: { type: 'number', initial: 3, min: 1, max: 9, step: 2 } }),
);
reject(
  '§4 without min the grid starts at 0 (step 3, initial 7)',
  () => withState({ x: { type: 'number', initial: 7, step: 3 } }),
  issue('step_mismatch', 'state.x.initial'),
);
accept('§4 without min the grid starts at 0 and extends below it (step 3, initial -6)', () =>
  withState({ x: { type: 'number', initial: -6, step: 3 } }),
);
accept('§4 a negative origin (min -5, step 2, initial -1)', () =>
  withState({ x: { type: 'number', initial: -1, min: -5, max: 5, step: 2 } }),
);
accept('§4 float tolerance: step 0.1 accepts 0.3', () =>
  withState({ x: { type: 'number', initial: 0.3, min: 0, max: 1, step: 0.1 } }),
);
accept('§4 float tolerance: step 0.1 accepts 0.1 + 0.2', () =>
  withState({ x: { type: 'number', initial: 0.1 + 0.2, min: 0, max: 1, step: 0.1 } }),
);
accept('§4 float tolerance from a fractional origin (min 0.1, step 0.2, initial 0.7)', () =>
  withState({ x: { type: 'number', initial: 0.7, min: 0.1, max: 1.1, step: 0.2 } }),
);
reject(
  '§4 step 0.1 still rejects 0.35',
  () => withState({ x: { type: 'number', initial: 0.35, min: 0, max: 1, step: 0.1 } }),
  issue('step_mismatch', 'state.x.initial'),
);
accept('§4 float tolerance scales with the value (step 0.01, initial 12345.67)', () =>
  withState({ x: { type: 'number', initial: 12345.67, min: 0, max: 1_000_000, step: 0.01 } }),
);
accept('§4 float tolerance: step 0.01 accepts 0.07', () =>
  withState({ x: { type: 'number', initial: 0.07, step: 0.01 } }),
);
accept('§4 no step means a continuous value', () =>
  withState({ x: { type: 'number', initial: 7.25, min: 0, max: 10 } }),
);

// Strings
reject(
  '§4 maxLength below 1',
  () => withState({ x: { type: 'string', initial: '', maxLength: 0 } }),
  issue('number_out_of_range', 'state.x.maxLength'),
);
reject(
  '§4 maxLength above 4,096',
  () => withState({ x: { type: 'string', initial: '', maxLength: 4097 } }),
  issue('number_out_of_range', 'state.x.maxLength'),
);
reject(
  '§4 maxLength must be an integer',
  () => withState({ x: { type: 'string', initial: '', maxLength: 2.5 } }),
  issue('not_integer', 'state.x.maxLength'),
);
accept('§4 maxLength 1 and 4,096', () =>
  withState({
    x: { type: 'string', initial: 'a', maxLength: 1 },
    y: { type: 'string', initial: repeat(4096), maxLength: 4096 },
  }),
);
reject(
  '§4 initial longer than maxLength',
  () => withState({ x: { type: 'string', initial: 'abcdef', maxLength: 5 } }),
  issue('string_too_long', 'state.x.initial'),
);
reject(
  '§4 maxLength defaults to 4,096',
  () => withState({ x: { type: 'string', initial: repeat(4097) } }),
  issue('string_too_long', 'state.x.initial'),
);
accept('§4 an empty initial string', () => withState({ x: { type: 'string', initial: '' } }));

// Binding types
const bindings: [string, string, string][] = [
  ['Input', 's', 'n'],
  ['NumberInput', 'n', 's'],
  ['Select', 'plan', 'n'],
  ['Slider', 'n', 'b'],
  ['Checkbox', 'b', 's'],
];
for (const [type, , wrong] of bindings) {
  reject(
    `§5 ${type} bound to a state of another type`,
    () =>
      one(VALID_NODES[type]!(), (p) => {
        p.bind = wrong;
        delete p.min;
        delete p.max;
        delete p.step;
      }),
    issue('bind_type_mismatch', `${C(0)}.props.bind`),
  );
  reject(
    `§3 ${type} bound to an undeclared state`,
    () => one(VALID_NODES[type]!(), (p) => (p.bind = 'missing')),
    issue('unknown_reference', `${C(0)}.props.bind`),
  );
  reject(
    `§3 ${type} bound to a derived field`,
    () => one(VALID_NODES[type]!(), (p) => (p.bind = 'double')),
    issue('unknown_reference', `${C(0)}.props.bind`),
  );
}

// Numeric control domains
accept('§4 NumberInput and Slider repeating the domain exactly', () =>
  doc([
    node('NumberInput', 'ni', { label: 'N', bind: 'n', min: 0, max: 100, step: 1 }),
    node('Slider', 'sl', { label: 'N', bind: 'n', min: 0, max: 100, step: 1 }),
    node('Slider', 'sl2', { label: 'N', bind: 'n', max: 100 }),
  ]),
);
accept('§4 NumberInput on an unbounded state', () =>
  doc([node('NumberInput', 'ni', { label: 'Free', bind: 'free' })]),
);
for (const type of ['NumberInput', 'Slider']) {
  reject(
    `§4 ${type} with a narrower max`,
    () => doc([node(type, 'c', { label: 'N', bind: 'n', max: 20 })]),
    issue('domain_mismatch', `${C(0)}.props.max`),
  );
  reject(
    `§4 ${type} with a wider min`,
    () => doc([node(type, 'c', { label: 'N', bind: 'n', min: -10 })]),
    issue('domain_mismatch', `${C(0)}.props.min`),
  );
  reject(
    `§4 ${type} with another step`,
    () => doc([node(type, 'c', { label: 'N', bind: 'n', step: 0.5 })]),
    issue('domain_mismatch', `${C(0)}.props.step`),
  );
}
reject(
  '§4 NumberInput cannot add a min the state lacks',
  () => doc([node('NumberInput', 'c', { label: 'F', bind: 'free', min: 0 })]),
  issue('domain_mismatch', `${C(0)}.props.min`),
);
reject(
  '§4 NumberInput cannot add a step the state lacks',
  () => doc([node('NumberInput', 'c', { label: 'F', bind: 'free', step: 0.5 })]),
  issue('domain_mismatch', `${C(0)}.props.step`),
);
reject(
  '§4 Slider cannot add bounds the state lacks',
  () => doc([node('Slider', 'c', { label: 'F', bind: 'free', min: 0, max: 10 })]),
  issue('domain_mismatch', `${C(0)}.props.min`),
  issue('domain_mismatch', `${C(0)}.props.max`),
  issue('domain_mismatch', `${C(0)}.props.bind`),
);
reject(
  '§4 Slider needs state bounds',
  () => doc([node('Slider', 'c', { label: 'F', bind: 'free' })]),
  issue('domain_mismatch', `${C(0)}.props.bind`),
);
reject(
  '§4 Slider needs a state max, not only a min',
  () =>
    withState({ x: { type: 'number', initial: 0, min: 0 } }, [
      node('Slider', 'c', { label: 'X', bind: 'x' }),
    ]),
  issue('domain_mismatch', `${C(0)}.props.bind`),
);
reject(
  '§4 Slider needs strictly increasing bounds (min = max)',
  () =>
    withState({ x: { type: 'number', initial: 5, min: 5, max: 5 } }, [
      node('Slider', 'c', { label: 'X', bind: 'x' }),
    ]),
  issue('domain_mismatch', `${C(0)}.props.bind`),
);

// Select domains
accept('§4 Select on a string state whose initial is an option', () =>
  doc([select('sel', 'plan', PLAN_OPTIONS)]),
);
reject(
  '§4 Select initial value must be an option',
  () => doc([select('sel', 'plan', ['pro', 'team'])]),
  issue('select_domain_conflict', `${C(0)}.props.options`),
  // The initial value is the first writer of the field (PATHS.md: "or the other writer that breaks the domain").
  issue('select_domain_conflict', 'state.plan.initial'),
);
reject(
  '§4 Select option values are unique',
  () => doc([select('sel', 'plan', ['basic', 'basic'])]),
  issue('duplicate_id', `${C(0)}.props.options[1].value`),
);
accept('§4 Select option labels may repeat', () =>
  one(select('sel', 'plan', PLAN_OPTIONS), (p) => {
    for (const option of p.options) option.label = 'Same';
  }),
);
reject(
  '§4 Select option values fit the state maxLength',
  () => doc([select('sel', 'plan', ['basic', 'enterprise'])]),
  issue('string_too_long', `${C(0)}.props.options[1].value`),
  issue('select_domain_conflict', `${C(0)}.props.options[1].value`),
);
reject(
  '§5 Select with no options',
  () => one(select('sel', 'plan', PLAN_OPTIONS), (p) => (p.options = [])),
  issue('too_few', `${C(0)}.props.options`),
);
reject(
  '§5 Select with 101 options',
  () => doc([select('sel', 's', ['hello', ...Array.from({ length: 100 }, (_, i) => `o${i}`)])]),
  issue('too_many', `${C(0)}.props.options`),
);
accept('§5 Select with exactly 100 options', () =>
  doc([select('sel', 's', ['hello', ...Array.from({ length: 99 }, (_, i) => `o${i}`)])]),
);
reject(
  '§5 Select option label of 0 characters',
  () => one(select('sel', 'plan', PLAN_OPTIONS), (p) => (p.options[0].label = '')),
  issue('string_too_short', `${C(0)}.props.options[0].label`),
);
reject(
  '§5 Select option label longer than 512',
  () => one(select('sel', 'plan', PLAN_OPTIONS), (p) => (p.options[0].label = repeat(513))),
  issue('string_too_long', `${C(0)}.props.options[0].label`),
);
reject(
  '§5 a Select option is closed',
  () => one(select('sel', 'plan', PLAN_OPTIONS), (p) => (p.options[0][INJECTED_KEY] = 1)),
  issue('unknown_property', `${C(0)}.props.options[0]`),
);
reject(
  '§4 two Selects on one field need the same value set',
  () => doc([select('a', 'plan', PLAN_OPTIONS), select('b', 'plan', ['basic', 'pro'])]),
  issue('select_domain_conflict', `${C(1)}.props.options`),
);
accept('§4 two Selects on one field: same values, other labels and order', () =>
  doc([
    select('a', 'plan', PLAN_OPTIONS),
    mutate(select('b', 'plan', ['team', 'basic', 'pro']), (n) => (n.props.label = 'Other')),
  ]),
);
reject(
  '§4 a set action cannot write a non-option into a Select-bound field',
  () => doc([select('sel', 'plan', PLAN_OPTIONS), button('go', setAction('plan', 'gold'))]),
  issue('select_domain_conflict', `${C(1)}.props.action.value`),
  issue('select_domain_conflict', `${C(1)}.props.action`),
);
reject(
  '§4 a Form set action cannot write a non-option into a Select-bound field',
  () => doc([select('sel', 'plan', PLAN_OPTIONS), form('f', [], setAction('plan', 'gold'))]),
  issue('select_domain_conflict', `${C(1)}.props.action.value`),
  issue('select_domain_conflict', `${C(1)}.props.action`),
);
accept('§4 a set action writing an option of a Select-bound field', () =>
  doc([select('sel', 'plan', PLAN_OPTIONS), button('go', setAction('plan', 'team'))]),
);
reject(
  '§4 a set action writing a non-option state value into a Select-bound field',
  () => doc([select('sel', 'plan', PLAN_OPTIONS), button('go', setAction('plan', expr(st('s'))))]),
  issue('select_domain_conflict', `${C(1)}.props.action.value`),
  issue('select_domain_conflict', `${C(1)}.props.action`),
);
reject(
  '§4 the Select domain binds writers that come before the Select',
  () => doc([button('go', setAction('plan', 'gold')), select('sel', 'plan', PLAN_OPTIONS)]),
  issue('select_domain_conflict', `${C(0)}.props.action.value`),
  issue('select_domain_conflict', `${C(0)}.props.action`),
);
reject(
  '§4 an Input before the Select on the same field',
  () => doc([node('Input', 'in', { label: 'Plan', bind: 'plan' }), select('sel', 'plan', PLAN_OPTIONS)]),
  issue('select_domain_conflict', `${C(0)}.props.bind`),
  issue('select_domain_conflict', C(0)),
  issue('select_domain_conflict', `${C(1)}.props.options`),
);
reject(
  '§4 an Input cannot write free text into a Select-bound field',
  () => doc([select('sel', 'plan', PLAN_OPTIONS), node('Input', 'in', { label: 'Plan', bind: 'plan' })]),
  issue('select_domain_conflict', `${C(1)}.props.bind`),
  issue('select_domain_conflict', C(1)),
);

// ---------------------------------------------------------------------------------------------------------
// Running the corpus
// ---------------------------------------------------------------------------------------------------------

describeRuleCorpus(corpus);
