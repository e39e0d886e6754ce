/**
 * The `lineup.v1` envelope (seed 000 §3): unknown types and later protocol versions are classified as
 * `unsupported`, never executed, and the `lineup.v1.unsupported` answer itself is a message.
 */
import { describe, expect, it } from 'vitest';
import { withChange, wrap } from '../../test/envelope.js';
import { envelopeIssuesOf } from '../../test/utils.js';
import { parseEnvelope } from './envelope.js';
import { LINEUP_WIRE_LIMITS } from './messages/limits.js';

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
