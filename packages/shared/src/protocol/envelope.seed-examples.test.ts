/**
 * The `lineup.v1` envelope (seed 000 §3): the seed's own examples (§4–§5) parse as typed messages, and the
 * results are deep-frozen copies that parse to themselves again, never echo what they reject and narrow by
 * type.
 */
import { describe, expect, it } from 'vitest';
import { type J, SEED_SHORT, SEED_UI_OPEN, withChange, wrap } from '../../test/envelope.js';
import { clone, envelopeIssuesOf, expectDeepFrozen, thrownBy } from '../../test/utils.js';
import { LineUpProtocolError } from '../errors/errors.js';
import { type ParsedEnvelope, parseEnvelope } from './envelope.js';

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
