/**
 * The `lineup.v1` envelope (seed 000 §3), its text entry points: `parseEnvelopeText` parses JSON text within
 * the budget, and `readEnvelopeText` never throws and reads what it can of the header of a message it refuses.
 */
import { describe, expect, it } from 'vitest';
import { base, type J, SEED_UI_OPEN } from '../../test/envelope.js';
import { thrownBy } from '../../test/utils.js';
import { LineUpProtocolError } from '../errors/errors.js';
import type { UIIssueCode } from '../errors/issues.js';
import {
  ENVELOPE_HEADER_SCAN_CHARS,
  envelopeHeader,
  parseEnvelope,
  parseEnvelopeText,
  readEnvelopeText,
} from './envelope.js';
import { LINEUP_WIRE_LIMITS } from './messages/limits.js';

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
