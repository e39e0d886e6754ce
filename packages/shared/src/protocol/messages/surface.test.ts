/**
 * Rules of the UI Surface payloads (seed 000 §4), one row per rule, each asserting the issue's code and path
 * through the whole envelope (`parseEnvelope`), so paths start at `payload`.
 */
import { describe, expect, it } from 'vitest';
import { codesAndPaths, envelopeRejection } from '../../../test/utils.js';
import { SURFACE_CHANNEL_LIMITS } from '../../bridge/surface.js';
import type { UIIssueCode } from '../../errors/issues.js';
import { parseEnvelope } from '../envelope.js';
import { LINEUP_WIRE_LIMITS } from './limits.js';

// biome-ignore lint/suspicious/noExplicitAny: rows build and mutate arbitrary (often invalid) JSON on purpose.
type J = any;

const DIGEST = 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=';

const envelope = (type: string, payload: unknown, kind = 'agent'): J => ({
  v: 1,
  id: 'msg_01',
  type: `lineup.v1.${type}`,
  conversation_id: 'conv_01',
  sender: { kind, id: 'agent_hermes_main' },
  payload,
});

const bundle = (): J => ({
  id: 'com.lineup.weather.dashboard',
  name: '天气面板',
  version: '1.0.0',
  integrity: DIGEST,
  html: "<main><button id='refresh'>刷新</button></main>",
  css: 'main { padding: 16px }',
  js: "document.querySelector('#refresh').onclick=()=>LineUpSurface.event('refresh',{unit:'c'})",
});
const open = (change?: (payload: J) => void): J => {
  const payload: J = { instance_id: 'weather.dashboard.01', app: bundle(), state: { city: '北京' } };
  change?.(payload);
  return envelope('ui.open', payload);
};
const openByReference = (change?: (payload: J) => void): J => {
  const payload: J = {
    instance_id: 'canvas.01',
    surface: { app_id: 'com.lineup.svg-canvas', surface_id: 'canvas' },
    state: {},
  };
  change?.(payload);
  return envelope('ui.open', payload);
};
const patch = (change?: (payload: J) => void): J => {
  const payload: J = { instance_id: 'weather.dashboard.01', state: { city: '上海', temperature: 28 } };
  change?.(payload);
  return envelope('ui.patch', payload);
};
const close = (change?: (payload: J) => void): J => {
  const payload: J = { instance_id: 'weather.dashboard.01', reason: 'completed' };
  change?.(payload);
  return envelope('ui.close', payload);
};
const event = (change?: (payload: J) => void): J => {
  const payload: J = { instance_id: 'weather.dashboard.01', event: 'refresh', data: { unit: 'c' } };
  change?.(payload);
  return envelope('ui.event', payload, 'client');
};

/** A data object whose JSON is exactly `bytes` long: `{"s":"aaa…"}` is 8 bytes plus the string. */
const dataOfBytes = (bytes: number): J => ({ s: 'a'.repeat(bytes - 8) });

const REJECT: [rule: string, input: () => unknown, code: UIIssueCode, path: string][] = [
  [
    '§4.1 instance_id outside [A-Za-z0-9._:-]',
    () => open((p) => (p.instance_id = 'a b')),
    'invalid_value',
    'payload.instance_id',
  ],
  [
    '§4.1 instance_id longer than 128',
    () => open((p) => (p.instance_id = 'a'.repeat(129))),
    'string_too_long',
    'payload.instance_id',
  ],
  [
    '§4.1 empty instance_id',
    () => open((p) => (p.instance_id = '')),
    'string_too_short',
    'payload.instance_id',
  ],
  [
    '§4.1 missing instance_id',
    () => open((p) => delete p.instance_id),
    'missing_property',
    'payload.instance_id',
  ],
  [
    '§4.1 both inline bundle and surface reference',
    () => open((p) => (p.surface = { app_id: 'com.a.b', surface_id: 'x' })),
    'invalid_value',
    'payload.surface',
  ],
  ['§4.1 neither bundle nor reference', () => open((p) => delete p.app), 'missing_property', 'payload.app'],
  [
    '§4.1 app.id not reverse-DNS',
    () => open((p) => (p.app.id = 'weather')),
    'invalid_value',
    'payload.app.id',
  ],
  [
    '§4.1 app.id with upper case',
    () => open((p) => (p.app.id = 'com.Lineup.weather')),
    'invalid_value',
    'payload.app.id',
  ],
  [
    '§4.1 app.version not SemVer',
    () => open((p) => (p.app.version = '1.0')),
    'invalid_value',
    'payload.app.version',
  ],
  [
    '§4.1 app.version with a leading zero',
    () => open((p) => (p.app.version = '01.0.0')),
    'invalid_value',
    'payload.app.version',
  ],
  [
    '§4.1 integrity not sha256-<base64 digest>',
    () => open((p) => (p.app.integrity = 'sha256-BASE64_DIGEST')),
    'invalid_value',
    'payload.app.integrity',
  ],
  [
    '§4.1 integrity of another algorithm',
    () => open((p) => (p.app.integrity = DIGEST.replace('sha256', 'sha512'))),
    'invalid_value',
    'payload.app.integrity',
  ],
  ['§4.1 bundle without js', () => open((p) => delete p.app.js), 'missing_property', 'payload.app.js'],
  [
    '§4.1 bundle with a url field',
    () => open((p) => (p.app.url = 'https://example.com/app.js')),
    'unknown_property',
    'payload.app',
  ],
  ['§4.1 bundle name blank', () => open((p) => (p.app.name = '   ')), 'invalid_value', 'payload.app.name'],
  [
    '§4.1 bundle name with a control character',
    () => open((p) => (p.app.name = 'a\u0007b')),
    'invalid_value',
    'payload.app.name',
  ],
  [
    '§4.1 bundle over 160 KiB in total',
    () =>
      open((p) => {
        const third = Math.ceil((LINEUP_WIRE_LIMITS.maxBundleBytes + 1) / 3);
        p.app.html = 'h'.repeat(third);
        p.app.css = 'c'.repeat(third);
        p.app.js = 'j'.repeat(third);
      }),
    'too_large',
    'payload.app',
  ],
  [
    '§4.1 bundle counted in UTF-8 bytes',
    () => open((p) => (p.app.html = '界'.repeat(LINEUP_WIRE_LIMITS.maxBundleBytes / 3 + 1))),
    'too_large',
    'payload.app',
  ],
  ['§4.1 state not an object', () => open((p) => (p.state = [1, 2])), 'invalid_type', 'payload.state'],
  ['§4.1 state missing', () => open((p) => delete p.state), 'missing_property', 'payload.state'],
  [
    '§4.1 state over the Surface state budget',
    () => open((p) => (p.state = dataOfBytes(SURFACE_CHANNEL_LIMITS.maxStateBytes + 1))),
    'too_large',
    'payload.state',
  ],
  [
    '§4.1 own __proto__ key in state',
    () => open((p) => Object.defineProperty(p.state, '__proto__', { value: { x: 1 }, enumerable: true })),
    'invalid_identifier',
    'payload.state',
  ],
  [
    '§5.1 reference with an unknown field',
    () => openByReference((p) => (p.surface.bundle_url = 'x')),
    'unknown_property',
    'payload.surface',
  ],
  [
    '§5.1 reference surface id with a dot',
    () => openByReference((p) => (p.surface.surface_id = 'a.b')),
    'invalid_value',
    'payload.surface.surface_id',
  ],
  ['§4.3 patch with html', () => patch((p) => (p.html = '<p>')), 'unknown_property', 'payload'],
  ['§4.3 patch with css', () => patch((p) => (p.css = 'p{}')), 'unknown_property', 'payload'],
  ['§4.3 patch with js', () => patch((p) => (p.js = 'alert(1)')), 'unknown_property', 'payload'],
  ['§4.3 patch with a new app bundle', () => patch((p) => (p.app = bundle())), 'unknown_property', 'payload'],
  ['§4.3 patch without state', () => patch((p) => delete p.state), 'missing_property', 'payload.state'],
  ['§4.3 patch state a string', () => patch((p) => (p.state = 'x')), 'invalid_type', 'payload.state'],
  ['§4.3 close without reason', () => close((p) => delete p.reason), 'missing_property', 'payload.reason'],
  [
    '§4.3 close reason free text',
    () => close((p) => (p.reason = 'All done!')),
    'invalid_value',
    'payload.reason',
  ],
  [
    '§4.2 event name starting with a digit',
    () => event((p) => (p.event = '1refresh')),
    'invalid_value',
    'payload.event',
  ],
  [
    '§4.2 event name longer than 64',
    () => event((p) => (p.event = `a${'b'.repeat(64)}`)),
    'string_too_long',
    'payload.event',
  ],
  ['§4.2 event name with a slash', () => event((p) => (p.event = 'a/b')), 'invalid_value', 'payload.event'],
  ['§4.2 event data an array', () => event((p) => (p.data = [])), 'invalid_type', 'payload.data'],
  ['§4.2 event data missing', () => event((p) => delete p.data), 'missing_property', 'payload.data'],
  [
    '§4.2 event data of exactly 16 KiB (one byte over)',
    () => event((p) => (p.data = dataOfBytes(16_384))),
    'too_large',
    'payload.data',
  ],
  ['§4.2 event with an app_call field', () => event((p) => (p.app_call = {})), 'unknown_property', 'payload'],
];

const ACCEPT: [rule: string, input: () => unknown][] = [
  ['§4.1 inline bundle', () => open()],
  ['§4.1 inline bundle without integrity', () => open((p) => delete p.app.integrity)],
  ['§4.1 instance_id of exactly 128', () => open((p) => (p.instance_id = `a.b:c-d_${'e'.repeat(120)}`))],
  ['§4.1 SemVer with pre-release and build', () => open((p) => (p.app.version = '2.0.0-rc.1+build.5'))],
  ['§4.1 empty css and js', () => open((p) => Object.assign(p.app, { css: '', js: '' }))],
  [
    '§4.1 bundle of exactly 160 KiB',
    () =>
      open((p) =>
        Object.assign(p.app, { html: 'h'.repeat(LINEUP_WIRE_LIMITS.maxBundleBytes), css: '', js: '' }),
      ),
  ],
  ['§5.1 surface reference of an enabled app', () => openByReference()],
  ['§4.3 patch', () => patch()],
  ['§4.3 close', () => close()],
  ['§4.2 event', () => event()],
  ['§4.3 user close as event close', () => event((p) => Object.assign(p, { event: 'close', data: {} }))],
  ['§4.2 event name of exactly 64', () => event((p) => (p.event = `a${'b'.repeat(63)}`))],
  ['§4.2 event name with ._:-', () => event((p) => (p.event = 'draw.stroke:end-1'))],
  ['§4.2 event data of 16,383 bytes (under 16 KiB)', () => event((p) => (p.data = dataOfBytes(16_383)))],
  [
    '§4.2 nested event data',
    () =>
      event(
        (p) =>
          (p.data = {
            points: [
              [1, 2],
              [3, 4],
            ],
            meta: { ok: true, n: null },
          }),
      ),
  ],
];

describe('UI Surface payload rules (seed 000 §4)', () => {
  it('has a unique name per row', () => {
    const names = [...REJECT, ...ACCEPT].map(([rule]) => rule);
    expect(new Set(names).size).toBe(names.length);
  });
  for (const [rule, input, code, path] of REJECT) {
    it(`rejects: ${rule}`, () => {
      const error = envelopeRejection(input());
      expect(codesAndPaths(error.issues)).toContainEqual({ code, path });
    });
  }
  for (const [rule, input] of ACCEPT) {
    it(`accepts: ${rule}`, () => {
      expect(parseEnvelope(input()).kind).toBe('message');
    });
  }

  it('measures event data exactly: 16,383 bytes pass and 16,384 fail', () => {
    expect(JSON.stringify(dataOfBytes(16_383)).length).toBe(16_383);
    expect(SURFACE_CHANNEL_LIMITS.maxEventDataBytes).toBe(16_383);
    expect(parseEnvelope(event((p) => (p.data = dataOfBytes(16_383)))).kind).toBe('message');
    expect(envelopeRejection(event((p) => (p.data = dataOfBytes(16_384)))).issues[0]).toMatchObject({
      code: 'too_large',
      path: 'payload.data',
    });
  });

  it('a patch carrying code is rejected without echoing the code', () => {
    const error = envelopeRejection(patch((p) => (p.html = '<script>zzInjected()</script>')));
    expect(error.message).not.toContain('zzInjected');
    expect(error.message).not.toContain('html');
  });
});
