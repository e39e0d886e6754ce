/**
 * The `lineup.v1` envelope (seed 000 §3): the envelope rules, one row each, asserting code and path, and the
 * envelopes they accept.
 */
import { describe, expect, it } from 'vitest';
import { base, type J, withChange } from '../../test/envelope.js';
import { envelopeIssuesOf } from '../../test/utils.js';
import type { UIIssueCode } from '../errors/issues.js';
import { parseEnvelope } from './envelope.js';
import { LINEUP_WIRE_LIMITS } from './messages/limits.js';

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
