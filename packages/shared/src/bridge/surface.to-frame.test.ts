/**
 * `lineup.surface.v1` (seed 000 §2.4, §4.1–§4.3), to the frame: `parseSurfaceMessageToFrame`, one row per rule,
 * asserting the issue's code and path; exact limits accepted and one past rejected.
 */
import { describe, expect, it } from 'vitest';
import {
  event,
  focus,
  INSTANCE,
  type Row,
  ready,
  start,
  state,
  violation,
  WRONG_TYPE,
} from '../../test/surface.js';
import { issuesOf, json, objectOfBytes } from '../../test/utils.js';
import { parseSurfaceMessageToFrame, SURFACE_CHANNEL_LIMITS, SURFACE_NAMESPACE } from './surface.js';

const TO_FRAME_REJECTIONS: Row[] = [
  {
    rule: 'another namespace',
    input: () => ({ ...state(), namespace: 'lineup.miniapp.v1' }),
    code: 'invalid_value',
    path: 'namespace',
  },
  { rule: 'event is upward only', input: () => event(), code: 'invalid_value', path: 'type' },
  { rule: 'ready is upward only', input: () => ready(), code: 'invalid_value', path: 'type' },
  { rule: 'violation is upward only', input: () => violation('focus'), code: 'invalid_value', path: 'type' },
  {
    rule: 'start without js',
    input: () => {
      const { js: _, ...rest } = start();
      return rest;
    },
    code: 'missing_property',
    path: 'js',
  },
  {
    rule: 'start with a bundle over 160 KiB in total',
    input: () =>
      start({
        html: 'h'.repeat(SURFACE_CHANNEL_LIMITS.maxBundleBytes / 2),
        js: 'j'.repeat(SURFACE_CHANNEL_LIMITS.maxBundleBytes / 2 + 1),
      }),
    code: 'too_large',
    path: '$',
  },
  {
    rule: 'start with a width of 0',
    input: () => start({ width: 0 }),
    code: 'number_out_of_range',
    path: 'width',
  },
  {
    rule: 'start with a fractional width',
    input: () => start({ width: 480.5 }),
    code: 'invalid_type',
    path: 'width',
  },
  {
    rule: 'start with a width past the bound',
    input: () => start({ width: SURFACE_CHANNEL_LIMITS.maxFrameWidth + 1 }),
    code: 'number_out_of_range',
    path: 'width',
  },
  {
    rule: 'start with a width in a string',
    input: () => start({ width: '480px' }),
    code: WRONG_TYPE,
    path: 'width',
  },
  {
    rule: 'start naming the app (identity is the host business)',
    input: () => start({ id: 'com.example.app' }),
    code: 'unknown_property',
    path: '$',
  },
  {
    rule: 'focus with a target element',
    input: () => ({ ...focus(), selector: '#password' }),
    code: 'unknown_property',
    path: '$',
  },
  {
    rule: 'code is never sent down',
    input: () => ({ ...state(), js: 'alert(1)' }),
    code: 'unknown_property',
    path: '$',
  },
  {
    rule: 'html is never a type',
    input: () => ({ ...state(), type: 'html' }),
    code: 'invalid_value',
    path: 'type',
  },
  { rule: 'state an array', input: () => state([]), code: WRONG_TYPE, path: 'state' },
  { rule: 'state null', input: () => state(null), code: WRONG_TYPE, path: 'state' },
  {
    rule: 'state missing',
    input: () => ({ namespace: SURFACE_NAMESPACE, type: 'state', instance_id: INSTANCE }),
    code: 'missing_property',
    path: 'state',
  },
  {
    rule: 'state one byte too large',
    input: () => state(objectOfBytes(SURFACE_CHANNEL_LIMITS.maxStateBytes + 1)),
    code: 'too_large',
    path: 'state',
  },
  {
    rule: 'state with a __proto__ key',
    input: () => state(json('{"__proto__":{}}')),
    code: 'invalid_identifier',
    path: 'state',
  },
  {
    rule: 'another instance',
    input: () => ({ ...state(), instance_id: 'other' }),
    code: 'invalid_value',
    path: 'instance_id',
  },
];
describe('parseSurfaceMessageToFrame', () => {
  it('accepts a state, and one of exactly the state budget', () => {
    expect(parseSurfaceMessageToFrame(focus(), INSTANCE)).toEqual(focus());
    expect(parseSurfaceMessageToFrame(start(), INSTANCE)).toEqual(start());
    for (const width of [1, 498, SURFACE_CHANNEL_LIMITS.maxFrameWidth])
      expect(parseSurfaceMessageToFrame(start({ width }), INSTANCE)).toEqual(start({ width }));
    const largestBundle = start({ html: '', css: '', js: 'j'.repeat(SURFACE_CHANNEL_LIMITS.maxBundleBytes) });
    expect(parseSurfaceMessageToFrame(largestBundle, INSTANCE).type).toBe('start');
    expect(parseSurfaceMessageToFrame(state(), INSTANCE)).toEqual(state());
    expect(parseSurfaceMessageToFrame(state({}))).toEqual(state({}));
    const largest = state(objectOfBytes(SURFACE_CHANNEL_LIMITS.maxStateBytes));
    expect(parseSurfaceMessageToFrame(largest).type).toBe('state');
  });

  it.each(TO_FRAME_REJECTIONS.map((row) => [row.rule, row] as const))('rejects %s', (_rule, row) => {
    const issues = issuesOf(() => parseSurfaceMessageToFrame(row.input(), INSTANCE));
    expect(issues).toContainEqual(expect.objectContaining({ code: row.code, path: row.path }));
  });
});
