/**
 * Envelope parsing throughput: messages per second for a typical `ui.event` (seed 000 §4.2), against
 * `JSON.parse` of the same text in the same run as the baseline. `pnpm bench` prints each entry's hz
 * (messages per second) and its ratio to the fastest entry of the group.
 */
import { bench, describe } from 'vitest';
import { parseEnvelope, parseEnvelopeText } from './envelope.js';

/** A Surface click reported to the agent: a small data object, as `LineUpSurface.event` sends. */
const EVENT = {
  v: 1,
  id: 'msg_evt_000123',
  type: 'lineup.v1.ui.event',
  conversation_id: 'conv_01HZX4K8Q2',
  sender: { kind: 'client', id: 'web-host' },
  target: { kind: 'agent', id: 'agent_hermes_main' },
  payload: {
    instance_id: 'weather.dashboard.01',
    event: 'refresh',
    data: { unit: 'c', city: '北京', range: { from: '2026-08-02', days: 7 }, layers: ['temp', 'rain'] },
  },
};
const TEXT = JSON.stringify(EVENT);
const DECODED = JSON.parse(TEXT) as unknown;
const UNKNOWN_TEXT = TEXT.replace('lineup.v1.ui.event', 'lineup.v1.ui.hover');

if (parseEnvelope(DECODED, { direction: 'client_to_agent' }).kind !== 'message') {
  throw new Error('benchmark message is not valid');
}

describe(`ui.event envelope (${TEXT.length} bytes)`, () => {
  bench('JSON.parse of the same text (baseline)', () => {
    JSON.parse(TEXT);
  });
  bench('JSON.parse + parseEnvelope (decode and validate)', () => {
    parseEnvelope(JSON.parse(TEXT), { direction: 'client_to_agent' });
  });
  bench('parseEnvelopeText', () => {
    parseEnvelopeText(TEXT, { direction: 'client_to_agent' });
  });
  bench('parseEnvelope of a decoded value (validate only)', () => {
    parseEnvelope(DECODED, { direction: 'client_to_agent' });
  });
  bench('parseEnvelopeText of an unknown type (classified unsupported)', () => {
    parseEnvelopeText(UNKNOWN_TEXT);
  });
});
