/**
 * The `lineup.v1` envelope (seed 000 §3): the seed's own examples, the envelope rules (one row each, asserting
 * code and path), the classification of unknown types as `unsupported`, directions, the catalogue, and the
 * text entry point.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { clone, envelopeIssuesOf, expectDeepFrozen, thrownBy } from '../../test/utils.js';
import { LineUpProtocolError } from '../errors/errors.js';
import type { UIIssueCode } from '../errors/issues.js';
import {
  ENVELOPE_HEADER_SCAN_CHARS,
  envelopeHeader,
  LINEUP_ENVELOPE_BUDGET,
  type ParsedEnvelope,
  parseEnvelope,
  parseEnvelopeText,
  readEnvelopeText,
} from './envelope.js';
import {
  isLineUpMessageType,
  LINEUP_MESSAGE_SCHEMAS,
  LINEUP_MESSAGE_TYPES,
  LINEUP_PAYLOAD_SCHEMAS,
  LineUpMessageSchema,
} from './envelope-schemas.js';
import { LINEUP_WIRE_LIMITS } from './messages/limits.js';

// biome-ignore lint/suspicious/noExplicitAny: rows build and mutate arbitrary (often invalid) JSON on purpose.
type J = any;

const DIGEST = 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=';

/** seed 000 §4.1, verbatim except the integrity placeholder `sha256-BASE64_DIGEST` (see the test below). */
const SEED_UI_OPEN = {
  v: 1,
  id: 'msg_ui_01',
  type: 'lineup.v1.ui.open',
  conversation_id: 'conv_01',
  sender: { kind: 'agent', id: 'agent_hermes_main' },
  payload: {
    instance_id: 'weather.dashboard.01',
    app: {
      id: 'com.lineup.weather.dashboard',
      name: '天气面板',
      version: '1.0.0',
      integrity: DIGEST,
      html: "<main><button id='refresh'>刷新</button></main>",
      css: 'main { padding: 16px }',
      js: "document.querySelector('#refresh').onclick=()=>LineUpSurface.event('refresh',{unit:'c'})",
    },
    state: { city: '北京', temperature: 22 },
  },
};

/**
 * The seed's other examples show only `type` and `payload` ("所有消息均使用既有 lineup.v1 信封"); they are
 * completed with an envelope header from the right sender, and their type and payload kept verbatim.
 */
const SEED_SHORT: Record<string, { type: string; payload: unknown }> = {
  '§4.2 ui.event': {
    type: 'lineup.v1.ui.event',
    payload: { instance_id: 'weather.dashboard.01', event: 'refresh', data: { unit: 'c' } },
  },
  '§4.3 ui.patch': {
    type: 'lineup.v1.ui.patch',
    payload: { instance_id: 'weather.dashboard.01', state: { city: '上海', temperature: 28 } },
  },
  '§4.3 ui.close': {
    type: 'lineup.v1.ui.close',
    payload: { instance_id: 'weather.dashboard.01', reason: 'completed' },
  },
  '§5.1 client.inventory': {
    type: 'lineup.v1.client.inventory',
    payload: {
      revision: 'catalog-42',
      standard_components: [
        { id: 'choice', version: '1' },
        { id: 'confirm', version: '1' },
        { id: 'input', version: '1' },
      ],
      applications: [
        {
          id: 'com.lineup.svg-canvas',
          version: '1.0.0',
          surfaces: [{ id: 'canvas', events: ['draw', 'resize', 'snapshot'] }],
        },
      ],
      capabilities: [{ name: 'artifact.save', version: '1.0', risk: 'user_confirmation' }],
    },
  },
  '§5.2 app.list': {
    type: 'lineup.v1.app.list',
    payload: {
      capabilities: [
        {
          name: 'app.open_url',
          version: '1.0',
          risk: 'user_confirmation',
          input_schema: { type: 'object', required: ['url'] },
        },
        {
          name: 'clipboard.write',
          version: '1.0',
          risk: 'user_confirmation',
          input_schema: { type: 'object', required: ['text'] },
        },
        {
          name: 'device.pick_file',
          version: '1.0',
          risk: 'system_permission',
          input_schema: { type: 'object' },
        },
      ],
    },
  },
  '§5.3 app.call': {
    type: 'lineup.v1.app.call',
    payload: {
      call_id: 'call_open_docs_01',
      capability: 'app.open_url',
      reason: '打开部署文档供你核对',
      expires_at: '2026-08-02T12:10:00Z',
      arguments: { url: 'https://example.com/docs' },
    },
  },
  '§5.3 app.result': {
    type: 'lineup.v1.app.result',
    payload: { call_id: 'call_open_docs_01', status: 'completed', result: { opened: true } },
  },
};

function wrap(type: string, payload: unknown): J {
  const fromAgent =
    LINEUP_MESSAGE_TYPES[type as keyof typeof LINEUP_MESSAGE_TYPES]?.direction !== 'client_to_agent';
  return {
    v: 1,
    id: 'msg_01',
    type,
    conversation_id: 'conv_01',
    sender: fromAgent ? { kind: 'agent', id: 'agent_hermes_main' } : { kind: 'client', id: 'web-host' },
    payload: clone(payload),
  };
}

describe("the seed's examples (seed 000 §4–§5)", () => {
  it('§4.1 ui.open parses as a typed message equal to its input', () => {
    const parsed = parseEnvelope(clone(SEED_UI_OPEN));
    expect(parsed.kind).toBe('message');
    if (parsed.kind !== 'message' || parsed.message.type !== 'lineup.v1.ui.open')
      throw new Error('unexpected');
    expect(parsed.message).toEqual(SEED_UI_OPEN);
    expect(parsed.message.payload.app?.id).toBe('com.lineup.weather.dashboard');
  });

  for (const [name, { type, payload }] of Object.entries(SEED_SHORT)) {
    it(`${name} parses as a message with the same type and payload`, () => {
      const parsed = parseEnvelope(wrap(type, payload));
      if (parsed.kind !== 'message') throw new Error('expected a message');
      expect(parsed.message.type).toBe(type);
      expect(parsed.message.payload).toEqual(payload);
    });
  }

  it('§4.1 the integrity placeholder "sha256-BASE64_DIGEST" is not a SHA-256 digest and is rejected', () => {
    const input = clone(SEED_UI_OPEN) as J;
    input.payload.app.integrity = 'sha256-BASE64_DIGEST';
    expect(envelopeIssuesOf(input)).toContainEqual({ code: 'invalid_value', path: 'payload.app.integrity' });
  });
});

const base = (): J => wrap('lineup.v1.ui.event', SEED_SHORT['§4.2 ui.event']!.payload);
const withChange = (change: (envelope: J) => void) => () => {
  const envelope = base();
  change(envelope);
  return envelope;
};

const REJECT: [rule: string, input: () => unknown, code: UIIssueCode, path: string][] = [
  ['not an object', () => 'lineup.v1.ui.event', 'invalid_type', '$'],
  ['an array', () => [], 'invalid_type', '$'],
  ['null', () => null, 'invalid_type', '$'],
  ['v missing', withChange((e) => delete e.v), 'missing_property', 'v'],
  ['v a string', withChange((e) => (e.v = '1')), 'invalid_type', 'v'],
  ['v zero', withChange((e) => (e.v = 0)), 'invalid_value', 'v'],
  ['v fractional', withChange((e) => (e.v = 1.5)), 'invalid_value', 'v'],
  ['id missing', withChange((e) => delete e.id), 'missing_property', 'id'],
  ['id empty', withChange((e) => (e.id = '')), 'string_too_short', 'id'],
  ['id with a space', withChange((e) => (e.id = 'msg 01')), 'invalid_value', 'id'],
  ['id not ASCII', withChange((e) => (e.id = 'msg_é')), 'invalid_value', 'id'],
  ['id with a control character', withChange((e) => (e.id = 'msg\n01')), 'invalid_value', 'id'],
  ['id longer than 128', withChange((e) => (e.id = 'm'.repeat(129))), 'string_too_long', 'id'],
  ['id a number', withChange((e) => (e.id = 1)), 'invalid_type', 'id'],
  ['type missing', withChange((e) => delete e.type), 'missing_property', 'type'],
  ['type with a space', withChange((e) => (e.type = 'lineup.v1.ui event')), 'invalid_value', 'type'],
  ['type longer than 128', withChange((e) => (e.type = `x${'y'.repeat(128)}`)), 'string_too_long', 'type'],
  [
    'conversation_id missing',
    withChange((e) => delete e.conversation_id),
    'missing_property',
    'conversation_id',
  ],
  [
    'conversation_id too long',
    withChange((e) => (e.conversation_id = 'c'.repeat(129))),
    'string_too_long',
    'conversation_id',
  ],
  ['sender missing', withChange((e) => delete e.sender), 'missing_property', 'sender'],
  ['sender a string', withChange((e) => (e.sender = 'client')), 'invalid_type', 'sender'],
  [
    'sender with an extra field',
    withChange((e) => (e.sender.token = 'secret')),
    'unknown_property',
    'sender',
  ],
  ['sender of the wrong party', withChange((e) => (e.sender.kind = 'agent')), 'invalid_value', 'sender.kind'],
  ['sender id missing', withChange((e) => delete e.sender.id), 'missing_property', 'sender.id'],
  ['target without id', withChange((e) => (e.target = { kind: 'agent' })), 'missing_property', 'target.id'],
  [
    'target kind not a token',
    withChange((e) => (e.target = { kind: 'Agent Main', id: 'a' })),
    'invalid_value',
    'target.kind',
  ],
  ['payload missing', withChange((e) => delete e.payload), 'missing_property', 'payload'],
  ['payload an array', withChange((e) => (e.payload = [])), 'invalid_type', 'payload'],
  ['an extra envelope field', withChange((e) => (e.signature = 'x')), 'unknown_property', '$'],
  ['an undefined value', withChange((e) => (e.target = undefined)), 'invalid_json', 'target'],
  ['a NaN', withChange((e) => (e.payload.data.n = Number.NaN)), 'invalid_json', 'payload.data.n'],
  [
    'a class instance',
    withChange((e) => (e.payload.data.at = new Date(0))),
    'invalid_json',
    'payload.data.at',
  ],
  [
    'over the envelope budget',
    withChange((e) => (e.payload.data.s = 'a'.repeat(LINEUP_WIRE_LIMITS.maxEnvelopeBytes))),
    'too_large',
    '$',
  ],
  [
    'nested deeper than the envelope budget',
    withChange((e) => {
      let value: J = 1;
      for (let level = 0; level < LINEUP_WIRE_LIMITS.maxEnvelopeDepth; level++) value = [value];
      e.payload.data.deep = value;
    }),
    'too_deep',
    `payload.data.deep${'[0]'.repeat(LINEUP_WIRE_LIMITS.maxEnvelopeDepth - 3)}`,
  ],
  [
    'an unknown type with an extra field',
    withChange((e) => Object.assign(e, { type: 'lineup.v1.ui.foo', extra: 1 })),
    'unknown_property',
    '$',
  ],
  [
    'an unknown type without conversation_id',
    withChange((e) => {
      e.type = 'lineup.v1.app.bar';
      delete e.conversation_id;
    }),
    'missing_property',
    'conversation_id',
  ],
  [
    'an unknown type whose payload is not an object',
    withChange((e) => Object.assign(e, { type: 'x.y', payload: 'run' })),
    'invalid_type',
    'payload',
  ],
];

const ACCEPT: [rule: string, input: () => unknown][] = [
  ['§4.1 target omitted', base],
  ['a target', withChange((e) => (e.target = { kind: 'agent', id: 'agent_hermes_main' }))],
  ['ids of printable ASCII punctuation', withChange((e) => (e.id = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'))],
  [
    'ids of exactly 128',
    withChange((e) => Object.assign(e, { id: 'i'.repeat(128), conversation_id: 'c'.repeat(128) })),
  ],
];

describe('envelope rules (seed 000 §3)', () => {
  it('has a unique name per row', () => {
    const names = [...REJECT, ...ACCEPT].map(([rule]) => rule);
    expect(new Set(names).size).toBe(names.length);
  });
  for (const [rule, input, code, path] of REJECT) {
    it(`rejects: ${rule}`, () => {
      expect(envelopeIssuesOf(input())).toContainEqual({ code, path });
    });
  }
  for (const [rule, input] of ACCEPT) {
    it(`accepts: ${rule}`, () => {
      expect(parseEnvelope(input()).kind).toBe('message');
    });
  }
});

describe('unknown types are unsupported, never executed (seed 000 §3)', () => {
  const UNKNOWN = [
    'lineup.v1.ui.foo',
    'lineup.v1.app.bar',
    'lineup.v1.x.y',
    'ui.foo',
    'app.bar',
    'x.y',
    'lineup.v2.ui.open',
    'lineup.v1.ui.open.extra',
    'LINEUP.V1.UI.OPEN',
    'constructor',
    'toString',
    'hasOwnProperty',
  ];
  for (const type of UNKNOWN) {
    it(`classifies ${type} as unsupported, with the header to answer it`, () => {
      const input = withChange((e) => Object.assign(e, { type, payload: { anything: ['goes', 1] } }))();
      expect(parseEnvelope(input)).toEqual({
        kind: 'unsupported',
        reason: 'unknown_type',
        id: 'msg_01',
        type,
        conversation_id: 'conv_01',
        sender: { kind: 'client', id: 'web-host' },
      });
    });
  }

  it('answers a later protocol version unsupported, with only the fields that are valid', () => {
    const later = { v: 2, id: 'msg_02', type: 'lineup.v2.ui.open', conversation: { id: 'c' }, body: {} };
    expect(parseEnvelope(later)).toEqual({
      kind: 'unsupported',
      reason: 'unsupported_version',
      id: 'msg_02',
      type: 'lineup.v2.ui.open',
    });
    expect(parseEnvelope({ v: 7, id: 'bad id' })).toEqual({
      kind: 'unsupported',
      reason: 'unsupported_version',
    });
  });

  it('still requires safe JSON within the budget of a later version', () => {
    expect(envelopeIssuesOf({ v: 2, big: 'a'.repeat(LINEUP_WIRE_LIMITS.maxEnvelopeBytes) })).toContainEqual({
      code: 'too_large',
      path: '$',
    });
  });

  it('never classifies a known type with an invalid payload as unsupported', () => {
    expect(
      envelopeIssuesOf(wrap('lineup.v1.ui.patch', { instance_id: 'a', state: {}, js: 'x' })),
    ).toContainEqual({
      code: 'unknown_property',
      path: 'payload',
    });
  });

  it('accepts the unsupported answer itself, from either side', () => {
    for (const kind of ['agent', 'client']) {
      const answer = {
        ...wrap('lineup.v1.unsupported', {
          message_id: 'msg_01',
          message_type: 'lineup.v1.ui.foo',
          reason: 'unknown_type',
        }),
        sender: { kind, id: 'side' },
      };
      expect(parseEnvelope(answer).kind).toBe('message');
      expect(parseEnvelope(answer, { direction: 'agent_to_client' }).kind).toBe('message');
      expect(parseEnvelope(answer, { direction: 'client_to_agent' }).kind).toBe('message');
    }
    expect(
      envelopeIssuesOf({
        ...wrap('lineup.v1.unsupported', { message_id: 'm', reason: 'unknown_type' }),
        sender: { kind: 'user', id: 'u' },
      }),
    ).toContainEqual({
      code: 'invalid_value',
      path: 'sender.kind',
    });
  });
});

describe('directions (seed 000 §3)', () => {
  it('matches the table of seed 000 §3 and the types DESIGN.md leaves open', () => {
    const directions = Object.fromEntries(
      Object.entries(LINEUP_MESSAGE_TYPES).map(([type, { direction }]) => [type, direction]),
    );
    expect(directions).toEqual({
      'lineup.v1.ui.open': 'agent_to_client',
      'lineup.v1.ui.patch': 'agent_to_client',
      'lineup.v1.ui.close': 'agent_to_client',
      'lineup.v1.ui.event': 'client_to_agent',
      'lineup.v1.ui.document': 'agent_to_client',
      'lineup.v1.ui.checkpoint': 'agent_to_client',
      'lineup.v1.ui.action': 'client_to_agent',
      'lineup.v1.ui.action_result': 'agent_to_client',
      'lineup.v1.client.inventory': 'client_to_agent',
      'lineup.v1.app.list': 'client_to_agent',
      'lineup.v1.app.call': 'agent_to_client',
      'lineup.v1.app.result': 'client_to_agent',
      'lineup.v1.tool.call': 'agent_to_client',
      'lineup.v1.tool.progress': 'client_to_agent',
      'lineup.v1.tool.result': 'client_to_agent',
      'lineup.v1.chat.user_message': 'client_to_agent',
      'lineup.v1.chat.agent_message': 'agent_to_client',
      'lineup.v1.unsupported': 'either',
    });
    expect(Object.keys(LINEUP_PAYLOAD_SCHEMAS)).toEqual(Object.keys(LINEUP_MESSAGE_TYPES));
    expect(Object.keys(LINEUP_MESSAGE_SCHEMAS)).toEqual(Object.keys(LINEUP_MESSAGE_TYPES));
    expect(Object.isFrozen(LINEUP_MESSAGE_TYPES)).toBe(true);
  });

  it('refuses a message travelling the wrong way, at type, before reading its payload', () => {
    const open = clone(SEED_UI_OPEN);
    expect(parseEnvelope(open, { direction: 'agent_to_client' }).kind).toBe('message');
    expect(envelopeIssuesOf(open, { direction: 'client_to_agent' })).toEqual([
      { code: 'invalid_value', path: 'type' },
    ]);
    const event = base();
    expect(parseEnvelope(event, { direction: 'client_to_agent' }).kind).toBe('message');
    expect(envelopeIssuesOf(event, { direction: 'agent_to_client' })).toEqual([
      { code: 'invalid_value', path: 'type' },
    ]);
    event.payload = 'not even an object';
    expect(envelopeIssuesOf(event, { direction: 'agent_to_client' })).toEqual([
      { code: 'invalid_value', path: 'type' },
    ]);
  });

  it('answers unknown types unsupported whatever the direction', () => {
    const input = withChange((e) => (e.type = 'lineup.v1.ui.foo'))();
    expect(parseEnvelope(input, { direction: 'agent_to_client' }).kind).toBe('unsupported');
  });

  it('requires the sending party of the direction', () => {
    const open = clone(SEED_UI_OPEN) as J;
    open.sender.kind = 'client';
    expect(envelopeIssuesOf(open)).toContainEqual({ code: 'invalid_value', path: 'sender.kind' });
  });
});

describe('results', () => {
  it('are deep-frozen copies; the input is untouched', () => {
    const input = clone(SEED_UI_OPEN);
    const snapshot = clone(input);
    const parsed = parseEnvelope(input);
    expectDeepFrozen(parsed);
    expect(input).toEqual(snapshot);
    expect(Object.isFrozen(input.payload.state)).toBe(false);
    expectDeepFrozen(parseEnvelope(withChange((e) => (e.type = 'x.y'))()));
  });

  it('parse to themselves again', () => {
    for (const { type, payload } of Object.values(SEED_SHORT)) {
      const parsed = parseEnvelope(wrap(type, payload)) as Extract<ParsedEnvelope, { kind: 'message' }>;
      expect(parseEnvelope(clone(parsed.message))).toEqual(parsed);
    }
  });

  it('never echo unknown keys or rejected values', () => {
    const inputs: unknown[] = [
      withChange((e) => (e.zzInjectedKey = 1))(),
      withChange((e) => (e.id = 'zzInjected value'))(),
      withChange((e) => (e.payload.zzInjectedKey = 'zzInjected'))(),
      withChange((e) => (e.payload.event = '9zzInjected'))(),
      withChange((e) => (e.sender.kind = 'zzInjected'))(),
    ];
    for (const input of inputs) {
      const error = thrownBy(LineUpProtocolError, () => parseEnvelope(input));
      expect(error.message).not.toContain('zzInjected');
      expect(JSON.stringify(error.issues)).not.toContain('zzInjected');
    }
  });

  it('narrow by type', () => {
    const parsed = parseEnvelope(wrap('lineup.v1.app.call', SEED_SHORT['§5.3 app.call']!.payload));
    if (parsed.kind === 'message' && parsed.message.type === 'lineup.v1.app.call') {
      expect(parsed.message.payload.expires_at).toBe('2026-08-02T12:10:00Z');
    } else throw new Error('expected app.call');
  });
});

describe('parseEnvelopeText', () => {
  it('parses JSON text', () => {
    expect(parseEnvelopeText(JSON.stringify(SEED_UI_OPEN)).kind).toBe('message');
  });
  it('reports text that is not JSON as invalid_json at the root, without echoing it', () => {
    const error = thrownBy(LineUpProtocolError, () => parseEnvelopeText('{"v":1,zzInjected'));
    expect(error.issues).toEqual([expect.objectContaining({ code: 'invalid_json', path: '$' })]);
    expect(error.message).not.toContain('zzInjected');
  });
  it('refuses text over the budget before parsing it', () => {
    const text = ' '.repeat(LINEUP_WIRE_LIMITS.maxEnvelopeBytes + 1);
    expect(thrownBy(LineUpProtocolError, () => parseEnvelopeText(text)).issues[0]).toMatchObject({
      code: 'too_large',
      path: '$',
    });
  });
  it('refuses something that is not text', () => {
    expect(
      thrownBy(LineUpProtocolError, () => parseEnvelopeText(1 as unknown as string)).issues[0],
    ).toMatchObject({
      code: 'invalid_type',
    });
  });
  it('keeps an own "__proto__" key as data and rejects it', () => {
    const text = JSON.stringify(base()).replace('"data":{', '"data":{"__proto__":{"polluted":true},');
    expect(thrownBy(LineUpProtocolError, () => parseEnvelopeText(text)).issues[0]).toMatchObject({
      code: 'invalid_identifier',
      path: 'payload.data',
    });
    expect(({} as J).polluted).toBeUndefined();
  });
});

describe('readEnvelopeText', () => {
  const call = {
    v: 1,
    id: 'msg_call_1',
    type: 'lineup.v1.tool.call',
    conversation_id: 'conv_01',
    sender: { kind: 'agent', id: 'agent_hermes_main' },
    payload: { call_id: 'call_1', inventory_revision: 'inv-1', tool: 'pomodoro.start', arguments: {} },
  };
  const header = {
    id: 'msg_call_1',
    type: 'lineup.v1.tool.call',
    conversation_id: 'conv_01',
    call_id: 'call_1',
  };

  it('returns a valid message as parseEnvelope does', () => {
    const read = readEnvelopeText(JSON.stringify(call), { direction: 'agent_to_client' });
    expect(read).toEqual(parseEnvelope(call, { direction: 'agent_to_client' }));
  });

  const rows: [string, () => string, UIIssueCode, Record<string, unknown>][] = [
    [
      'an invalid payload: the header and the call_id still read',
      () => JSON.stringify({ ...call, payload: { ...call.payload, inventory_revision: undefined } }),
      'missing_property',
      { ...header, sender: call.sender },
    ],
    [
      'a call_id outside the id pattern: the rest of the header reads',
      () => JSON.stringify({ ...call, payload: { ...call.payload, call_id: 'has space' } }),
      'invalid_value',
      { id: header.id, type: header.type, conversation_id: 'conv_01', sender: call.sender },
    ],
    [
      'text cut off: what came before the cut reads',
      () => JSON.stringify(call).slice(0, 120),
      'invalid_json',
      { id: header.id, type: header.type, conversation_id: 'conv_01' },
    ],
    [
      'nesting past the budget, from the text alone',
      () =>
        JSON.stringify({ ...call, payload: { ...call.payload, arguments: { deep: 'HOLE' } } }).replace(
          '"HOLE"',
          `${'['.repeat(200)}${']'.repeat(200)}`,
        ),
      'too_deep',
      header,
    ],
    [
      'more values than the budget, from the text alone',
      () =>
        JSON.stringify({ ...call, payload: { ...call.payload, arguments: { many: 'HOLE' } } }).replace(
          '"HOLE"',
          `[${'0,'.repeat(LINEUP_WIRE_LIMITS.maxEnvelopeValues)}0]`,
        ),
      'too_many',
      header,
    ],
    [
      'over the byte budget: only the first characters are read, for the header',
      () =>
        JSON.stringify({
          ...call,
          payload: { ...call.payload, arguments: { text: 'x'.repeat(LINEUP_WIRE_LIMITS.maxEnvelopeBytes) } },
        }),
      'too_large',
      header,
    ],
    [
      'over the byte budget with the header after the payload: no header',
      () =>
        JSON.stringify({
          payload: { text: 'x'.repeat(LINEUP_WIRE_LIMITS.maxEnvelopeBytes) },
          id: 'msg_late',
          conversation_id: 'conv_01',
        }),
      'too_large',
      {},
    ],
    ['not JSON at all', () => 'hello agent', 'invalid_json', {}],
    ['JSON that is not an object', () => '[1,2,3]', 'invalid_type', {}],
  ];
  it.each(rows)('%s', (_name, text, code, expected) => {
    const read = readEnvelopeText(text(), { direction: 'agent_to_client' });
    if (read.kind !== 'invalid') throw new Error(`expected invalid, got ${read.kind}`);
    expect(read.error.issues[0]?.code).toBe(code);
    expect(read.header).toEqual(expected);
  });

  it('reads a header that is in the first ENVELOPE_HEADER_SCAN_CHARS characters of a frame over the budget', () => {
    const padding = 'x'.repeat(ENVELOPE_HEADER_SCAN_CHARS);
    const early = JSON.stringify({ id: 'm', conversation_id: 'c', filler: padding, payload: {} });
    const late = JSON.stringify({ filler: padding, id: 'm', conversation_id: 'c', payload: {} });
    const over = (text: string) => `${text}${' '.repeat(LINEUP_WIRE_LIMITS.maxEnvelopeBytes)}`;
    const headerOf = (text: string) => {
      const read = readEnvelopeText(over(text));
      return read.kind === 'invalid' ? read.header : undefined;
    };
    expect(headerOf(early)).toEqual({ id: 'm', conversation_id: 'c' });
    expect(headerOf(late)).toEqual({});
  });

  it('never throws, whatever the text', () => {
    for (const text of ['', '{', '"', '{"id":', '{"id":"\\u00', '\u0000', '{"payload":{"call_id":[1]}}'])
      expect(readEnvelopeText(text).kind).toBe('invalid');
    expect(readEnvelopeText(42).kind).toBe('invalid');
  });

  it('reads a header without running a getter', () => {
    let ran = false;
    const input = { id: 'm', conversation_id: 'c' };
    Object.defineProperty(input, 'type', {
      enumerable: true,
      get() {
        ran = true;
        return 'lineup.v1.ui.open';
      },
    });
    expect(envelopeHeader(input)).toEqual({ id: 'm', conversation_id: 'c' });
    expect(ran).toBe(false);
  });
});

describe('catalogue and schemas', () => {
  it('knows its types by own property only', () => {
    expect(isLineUpMessageType('lineup.v1.ui.open')).toBe(true);
    expect(isLineUpMessageType('constructor')).toBe(false);
    expect(isLineUpMessageType(1)).toBe(false);
  });
  it('budgets the envelope for a checkpoint inside it (seed 002 §13 shell reserve)', () => {
    expect(LINEUP_ENVELOPE_BUDGET.maxDepth).toBe(132);
    expect(LINEUP_ENVELOPE_BUDGET.maxBytes).toBeGreaterThan(266_240 + 163_840);
  });
  it('exports a JSON Schema of every message', () => {
    const schema = z.toJSONSchema(LineUpMessageSchema) as {
      $ref: string;
      $defs: Record<string, { oneOf: unknown[] }>;
    };
    expect(schema.$ref).toBe('#/$defs/LineUpMessage');
    expect(schema.$defs.LineUpMessage!.oneOf).toHaveLength(Object.keys(LINEUP_MESSAGE_TYPES).length);
  });
});
