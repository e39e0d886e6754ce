/**
 * The rule corpus of `parseDocument` for actions (seed 002 §6, §11): the local actions `set` and `reset`, and the
 * 1.1 host operations and agent callbacks with their arguments and result maps. One row per rule: invalid rows
 * assert the issue's `code` and exact `path` (PATHS.md); valid rows pin the edges. The base document, its
 * builders and the runner are in test/document-rules.ts.
 */
import {
  BASE_ACTIONS,
  BASE_STATE,
  bareObjectValue,
  button,
  C,
  describeRuleCorpus,
  doc,
  doc11,
  dv,
  expr,
  form,
  INJECTED_KEY,
  invoke,
  issue,
  mutate,
  numberStates,
  omit,
  op,
  repeat,
  ruleCorpus,
  setAction,
  setOwn,
  st,
  withState,
} from '../../test/document-rules.js';
import { clone } from '../../test/utils.js';

const corpus = ruleCorpus();
const { reject, accept } = corpus;

// ---------------------------------------------------------------------------------------------------------
// §6 Local actions
// ---------------------------------------------------------------------------------------------------------

accept('§6 set with a literal and with an expression in range', () =>
  doc([
    button('a', setAction('n', 20)),
    button('b', setAction('n', expr(op('add', st('n'), 1)))),
    button('c', setAction('b', true)),
    button('d', setAction('s', '')),
  ]),
);
accept('§4 a set action on a 0.1 grid tolerates 0.1 + 0.2', () =>
  withState({ x: { type: 'number', initial: 0.1, min: 0, max: 1, step: 0.1 } }, [
    button('a', setAction('x', expr(op('add', st('x'), 0.2)))),
  ]),
);
reject(
  '§6 action type is reset or set',
  () => doc([button('a', { type: 'navigate', url: 'https://example.invalid' })]),
  issue('invalid_value', `${C(0)}.props.action.type`),
);
reject(
  '§6 an action needs a type',
  () => doc([button('a', { key: 'n', value: 1 })]),
  issue('missing_property', `${C(0)}.props.action.type`),
);
reject(
  '§6 an action must be an object',
  () => doc([button('a', 'reset')]),
  issue('invalid_type', `${C(0)}.props.action`),
);
reject(
  '§6 reset carries nothing else (no URL)',
  () => doc([button('a', { type: 'reset', url: 'https://example.invalid' })]),
  issue('unknown_property', `${C(0)}.props.action`),
);
reject(
  '§6 set carries no nested action',
  () => doc([button('a', { ...setAction('n', 1), action: { type: 'reset' } })]),
  issue('unknown_property', `${C(0)}.props.action`),
);
reject(
  '§6 set carries no tool name',
  () => doc([button('a', { ...setAction('n', 1), tool: 'read' })]),
  issue('unknown_property', `${C(0)}.props.action`),
);
reject(
  '§6 set needs a key',
  () => doc([button('a', omit(setAction('n', 1), 'key'))]),
  issue('missing_property', `${C(0)}.props.action.key`),
);
reject(
  '§6 set needs a value',
  () => doc([button('a', omit(setAction('n', 1), 'value'))]),
  issue('missing_property', `${C(0)}.props.action.value`),
);
reject(
  '§6 set key must be a declared state field',
  () => doc([button('a', setAction('missing', 1))]),
  issue('unknown_reference', `${C(0)}.props.action.key`),
);
reject(
  '§6 set key cannot name a derived field',
  () => doc([button('a', setAction('double', 1))]),
  issue('unknown_reference', `${C(0)}.props.action.key`),
);
reject(
  '§6 set value of the wrong type (literal)',
  () => doc([button('a', setAction('n', 'ten'))]),
  issue('type_mismatch', `${C(0)}.props.action.value`),
);
reject(
  '§6 set value of the wrong type (expression)',
  () => doc([button('a', setAction('b', expr(st('n'))))]),
  issue('type_mismatch', `${C(0)}.props.action.value`),
);
reject(
  '§6 set value is a Value: a bare { state } is rejected',
  () => doc([button('a', setAction('n', st('n')))]),
  ...bareObjectValue(`${C(0)}.props.action.value`),
);
reject(
  '§6 set value above the state max',
  () => doc([button('a', setAction('n', 101))]),
  issue('number_out_of_range', `${C(0)}.props.action.value`),
  issue('evaluation_failed', `${C(0)}.props.action.value`),
);
reject(
  '§6 set value computed above the state max in the default state',
  () => doc([button('a', setAction('n', expr(op('add', st('n'), 1000))))]),
  issue('evaluation_failed', `${C(0)}.props.action.value`),
  issue('number_out_of_range', `${C(0)}.props.action.value`),
);
reject(
  '§4 set value off the step grid (literal)',
  () => doc([button('a', setAction('n', 10.5))]),
  issue('step_mismatch', `${C(0)}.props.action.value`),
);
reject(
  '§4 set value computed off the step grid',
  () => doc([button('a', setAction('n', expr(op('add', st('n'), 0.5))))]),
  issue('step_mismatch', `${C(0)}.props.action.value`),
  issue('evaluation_failed', `${C(0)}.props.action.value`),
);
reject(
  '§6 set value longer than the state maxLength',
  () => doc([button('a', setAction('s', repeat(33)))]),
  issue('string_too_long', `${C(0)}.props.action.value`),
  issue('evaluation_failed', `${C(0)}.props.action.value`),
);
reject(
  '§6 set value whose default evaluation divides by zero',
  () => doc([button('a', setAction('n', expr(op('div', st('n'), 0))))]),
  issue('evaluation_failed', `${C(0)}.props.action.value`),
);
reject(
  '§6 a Form action is checked like a Button action',
  () => doc([form('f', [], setAction('missing', 1))]),
  issue('unknown_reference', `${C(0)}.props.action.key`),
);

// ---------------------------------------------------------------------------------------------------------
// §11 Host operations and agent callbacks (1.1)
// ---------------------------------------------------------------------------------------------------------

accept('§11 invoke from a Button and a Form', () =>
  doc11([button('a', invoke('read_info')), form('f', [], invoke('ask'))]),
);
reject(
  '§11 invoke must name a declared action',
  () => doc11([button('a', invoke('missing'))]),
  issue('unknown_reference', `${C(0)}.props.action.actionId`),
);
reject(
  '§11 invoke carries only an actionId',
  () => doc11([button('a', { ...invoke('read_info'), [INJECTED_KEY]: 1 })]),
  issue('unknown_property', `${C(0)}.props.action`),
);
reject(
  '§11 invoke needs an actionId',
  () => doc11([button('a', { type: 'invoke' })]),
  issue('missing_property', `${C(0)}.props.action.actionId`),
);
reject(
  '§11 an action id must be an identifier',
  () => doc11([], { actions: { 'read info': BASE_ACTIONS.ask } }),
  issue('invalid_identifier', 'actions'),
);
reject(
  '§11 an action definition must be an object',
  () => mutate(doc11(), (d) => (d.actions.ask = 'prompt')),
  issue('invalid_type', 'actions.ask'),
);
reject(
  '§11 kind is tool or agent',
  () => mutate(doc11(), (d) => (d.actions.read_info.kind = 'script')),
  issue('invalid_value', 'actions.read_info.kind'),
);
reject(
  '§11 an action definition needs a kind',
  () => mutate(doc11(), (d) => delete d.actions.read_info.kind),
  issue('missing_property', 'actions.read_info.kind'),
);
for (const key of ['toolName', 'principal', 'confirmed', 'url', 'token', INJECTED_KEY]) {
  reject(
    `§11 a tool action cannot carry "${key === INJECTED_KEY ? 'an unknown key' : key}"`,
    () => mutate(doc11(), (d) => (d.actions.read_info[key] = 'x')),
    issue('unknown_property', 'actions.read_info'),
  );
}
reject(
  '§11 a tool action needs a capabilityId',
  () => mutate(doc11(), (d) => delete d.actions.read_info.capabilityId),
  issue('missing_property', 'actions.read_info.capabilityId'),
);
reject(
  '§11 capabilityId is an identifier',
  () => mutate(doc11(), (d) => (d.actions.read_info.capabilityId = 'read file')),
  issue('invalid_identifier', 'actions.read_info.capabilityId'),
);
reject(
  '§11 a tool action needs arguments',
  () => mutate(doc11(), (d) => delete d.actions.read_info.arguments),
  issue('missing_property', 'actions.read_info.arguments'),
);
accept('§11 empty arguments and no resultMap', () =>
  mutate(doc11(), (d) => {
    d.actions.read_info.arguments = {};
    delete d.actions.read_info.resultMap;
  }),
);
reject(
  '§11 argument keys are identifiers',
  () => mutate(doc11(), (d) => (d.actions.read_info.arguments['file path'] = 'x')),
  issue('invalid_identifier', 'actions.read_info.arguments'),
);
reject(
  '§11 arguments are flat: no arrays',
  () => mutate(doc11(), (d) => (d.actions.read_info.arguments.limit = [1, 2])),
  issue('invalid_type', 'actions.read_info.arguments.limit'),
);
reject(
  '§11 arguments are flat: no objects',
  () => mutate(doc11(), (d) => (d.actions.read_info.arguments.limit = { max: 1 })),
  ...bareObjectValue('actions.read_info.arguments.limit'),
);
reject(
  '§11 argument references are checked',
  () => mutate(doc11(), (d) => (d.actions.read_info.arguments.file_path = expr(st('missing')))),
  issue('unknown_reference', 'actions.read_info.arguments.file_path.expr.state'),
);
reject(
  '§11 argument strings are scalars (at most 4,096)',
  () => mutate(doc11(), (d) => (d.actions.read_info.arguments.file_path = repeat(4097))),
  issue('string_too_long', 'actions.read_info.arguments.file_path'),
);
reject(
  '§13 more than 32 arguments',
  () =>
    mutate(
      doc11(),
      (d) =>
        (d.actions.read_info.arguments = Object.fromEntries(
          Array.from({ length: 33 }, (_, i) => [`a${i}`, i]),
        )),
    ),
  issue('too_many', 'actions.read_info.arguments'),
);
accept('§13 exactly 32 arguments', () =>
  mutate(
    doc11(),
    (d) =>
      (d.actions.read_info.arguments = Object.fromEntries(
        Array.from({ length: 32 }, (_, i) => [`a${i}`, i]),
      )),
  ),
);
reject(
  '§11 a resultMap key must be a declared state field',
  () => mutate(doc11(), (d) => (d.actions.read_info.resultMap = { nope: 'totalLines' })),
  issue('invalid_result_map', 'actions.read_info.resultMap.nope'),
);
reject(
  '§11 a resultMap key cannot name a derived field',
  () => mutate(doc11(), (d) => (d.actions.read_info.resultMap = { double: 'totalLines' })),
  issue('invalid_result_map', 'actions.read_info.resultMap.double'),
);
reject(
  '§11 a resultMap value is a top-level field name, not a path',
  () => mutate(doc11(), (d) => (d.actions.read_info.resultMap.n = 'result.user.secret')),
  issue('invalid_result_map', 'actions.read_info.resultMap.n'),
  issue('invalid_identifier', 'actions.read_info.resultMap.n'),
);
reject(
  '§11 a resultMap value is a string',
  () => mutate(doc11(), (d) => (d.actions.read_info.resultMap.n = 5)),
  issue('invalid_type', 'actions.read_info.resultMap.n'),
  issue('invalid_identifier', 'actions.read_info.resultMap.n'),
);
reject(
  '§11 an own "__proto__" resultMap key',
  () => mutate(doc11(), (d) => setOwn(d.actions.read_info.resultMap, '__proto__', 'totalLines')),
  issue('invalid_identifier', 'actions.read_info.resultMap'),
  issue('invalid_result_map', 'actions.read_info.resultMap.__proto__'),
);
const resultMapOf = (entries: number) =>
  doc11([], {
    state: numberStates(entries),
    actions: {
      read_info: {
        kind: 'tool',
        capabilityId: 'read_file',
        arguments: {},
        resultMap: Object.fromEntries(Array.from({ length: entries }, (_, i) => [`f${i}`, `field${i}`])),
      },
    },
    derived: {},
  });
reject(
  '§13 more than 32 resultMap entries',
  () => resultMapOf(33),
  issue('too_many', 'actions.read_info.resultMap'),
);
accept('§13 exactly 32 resultMap entries', () => resultMapOf(32));
reject(
  '§11 an agent callback has no resultMap',
  () => mutate(doc11(), (d) => (d.actions.ask.resultMap = { n: 'x' })),
  issue('unknown_property', 'actions.ask'),
);
reject(
  '§11 a tool action has no prompt',
  () => mutate(doc11(), (d) => (d.actions.read_info.prompt = 'x')),
  issue('unknown_property', 'actions.read_info'),
);
accept('§11 arguments are flat scalars: string, number, boolean, null', () =>
  mutate(
    doc11(),
    (d) => (d.actions.read_info.arguments = { a: 'x', b: 1, c: true, d: null, e: expr(dv('double')) }),
  ),
);
reject(
  '§11 an agent callback has no arguments',
  () => mutate(doc11(), (d) => (d.actions.ask.arguments = {})),
  issue('unknown_property', 'actions.ask'),
);
reject(
  '§11 an agent callback needs a prompt',
  () => mutate(doc11(), (d) => delete d.actions.ask.prompt),
  issue('missing_property', 'actions.ask.prompt'),
);
reject(
  '§11 an empty literal prompt',
  () => mutate(doc11(), (d) => (d.actions.ask.prompt = '')),
  issue('string_too_short', 'actions.ask.prompt'),
  issue('evaluation_failed', 'actions.ask.prompt'),
);
reject(
  '§11 a prompt that computes to "" in the default state',
  () =>
    doc11([], {
      state: { ...clone(BASE_STATE), empty: { type: 'string', initial: '' } },
      actions: { ...clone(BASE_ACTIONS), ask: { kind: 'agent', prompt: expr(op('concat', st('empty'))) } },
    }),
  issue('string_too_short', 'actions.ask.prompt'),
  issue('evaluation_failed', 'actions.ask.prompt'),
);
reject(
  '§13 a literal prompt longer than 4,096',
  () => mutate(doc11(), (d) => (d.actions.ask.prompt = repeat(4097))),
  issue('string_too_long', 'actions.ask.prompt'),
);
accept('§13 a literal prompt of exactly 4,096', () =>
  mutate(doc11(), (d) => (d.actions.ask.prompt = repeat(4096))),
);
reject(
  '§13 a computed prompt longer than 4,096',
  () => mutate(doc11(), (d) => (d.actions.ask.prompt = expr(op('concat', repeat(4000), repeat(97))))),
  issue('evaluation_failed', 'actions.ask.prompt'),
);
reject(
  '§11 a prompt must be a string (number literal)',
  () => mutate(doc11(), (d) => (d.actions.ask.prompt = 5)),
  issue('type_mismatch', 'actions.ask.prompt'),
);
reject(
  '§11 a prompt must always be a string (number state)',
  () => mutate(doc11(), (d) => (d.actions.ask.prompt = expr(st('n')))),
  issue('type_mismatch', 'actions.ask.prompt'),
);
reject(
  '§11 a prompt must always be a string (if with a number branch)',
  () => mutate(doc11(), (d) => (d.actions.ask.prompt = expr(op('if', st('b'), 'go', 1)))),
  issue('type_mismatch', 'actions.ask.prompt'),
);
reject(
  '§11 a prompt cannot be null',
  () => mutate(doc11(), (d) => (d.actions.ask.prompt = null)),
  issue('type_mismatch', 'actions.ask.prompt'),
  issue('invalid_type', 'actions.ask.prompt'),
);
reject(
  '§11 prompt references are checked',
  () => mutate(doc11(), (d) => (d.actions.ask.prompt = expr(op('concat', 'x', dv('missing'))))),
  issue('unknown_reference', 'actions.ask.prompt.expr.args[1].derived'),
);

// ---------------------------------------------------------------------------------------------------------
// Running the corpus
// ---------------------------------------------------------------------------------------------------------

describeRuleCorpus(corpus);
