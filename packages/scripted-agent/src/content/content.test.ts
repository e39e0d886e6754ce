/**
 * What the agent shows, validated by the shared validators in both languages: the documents with
 * `parseDocument` (and their derived values computed), the stream accepted frame by frame with
 * `acceptCheckpoint`, and the Surface bundle with `SurfaceBundleSchema`.
 */
import {
  acceptCheckpoint,
  evaluateDerived,
  initialState,
  parseDocument,
  UIStreamCheckpointSchema,
  type UIStreamState,
} from '@lineup/shared';
import { SurfaceBundleSchema, UIOpenPayloadSchema } from '@lineup/shared/protocol';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../conversation/language.js';
import { compoundInterestDocument } from './compound-interest.js';
import { productComparisonDocument } from './product-comparison.js';
import { savingsStreamFrames } from './savings-stream.js';
import { WEATHER_BUNDLE, weatherState } from './weather-surface.js';

const HAN = /\p{Script=Han}/u;

describe.each(LANGUAGES)('in %s', (language) => {
  it('the compound interest calculator is a valid interactive document that computes', () => {
    const document = parseDocument(compoundInterestDocument(language));
    expect(document.mode).toBe('interactive_ui');
    expect(HAN.test(document.title ?? '')).toBe(language === 'zh');
    const derived = evaluateDerived(document, initialState(document));
    // 10,000 at 5% for 10 years.
    expect(derived.total).toBeCloseTo(16_288.95, 2);
    expect(derived.gain).toBeCloseTo(6_288.95, 2);
  });

  it('the product comparison is a valid display-only document of two products', () => {
    const document = parseDocument(productComparisonDocument(language));
    expect(document.mode).toBe('structured_ui');
    expect(HAN.test(document.title ?? '')).toBe(language === 'zh');
    const derived = evaluateDerived(document, initialState(document));
    expect(derived.proPremium).toBeGreaterThan(0);
  });

  it('the stream is accepted in order, every frame a valid checkpoint with a valid snapshot', () => {
    const frames = savingsStreamFrames(language, 'call_stream_1');
    expect(frames.map((frame) => frame.type)).toEqual(['snapshot', 'add', 'update', 'remove', 'complete']);
    let state: UIStreamState | null = null;
    for (const frame of frames) {
      // As a client receives it: JSON text, then the receiver.
      const received = JSON.parse(JSON.stringify(frame));
      expect(UIStreamCheckpointSchema.safeParse(received).success).toBe(true);
      parseDocument(received.snapshot);
      state = acceptCheckpoint(state, received);
    }
    expect(state).toMatchObject({ status: 'completed', seq: 5, revision: 3, sourceCallId: 'call_stream_1' });
  });

  it('a frame received again changes nothing, and an older one never overwrites a newer one', () => {
    const frames = savingsStreamFrames(language, 'call_stream_2');
    const opened = acceptCheckpoint(null, frames[0]);
    const added = acceptCheckpoint(opened, frames[1]);
    expect(acceptCheckpoint(added, frames[1])).toBe(added);
    expect(acceptCheckpoint(added, frames[0])).toBe(added);
  });

  it('the weather Surface opens with a valid bundle and state, and every refresh too', () => {
    for (const index of [0, 1, 2, 3]) {
      const payload = {
        instance_id: 'lineup-demo.weather',
        app: { ...WEATHER_BUNDLE },
        state: weatherState(language, index),
      };
      expect(UIOpenPayloadSchema.safeParse(payload).success).toBe(true);
    }
    expect(weatherState(language, 3)).toEqual(weatherState(language, 0));
  });
});

describe('the weather bundle', () => {
  it('is a valid inline bundle that reads only its state and sends only `refresh`', () => {
    expect(SurfaceBundleSchema.safeParse(WEATHER_BUNDLE).success).toBe(true);
    expect(WEATHER_BUNDLE.js).toContain("LineUpSurface.event('refresh', {})");
    expect(WEATHER_BUNDLE.js).not.toMatch(/fetch|XMLHttpRequest|innerHTML|eval/);
  });
});
