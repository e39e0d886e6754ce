/**
 * The strict event envelope (seed 002 §12 "严格事件信封", §13 limits): one row per rule, asserting the issue's
 * path and code. Frames are checked through `acceptCheckpoint(null, frame)`, the receiver's entry point.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import initialFixture from '../../fixtures/stream-initial.json' with { type: 'json' };
import { clone, thrownBy } from '../../test/utils.js';
import { UIStreamError } from '../errors/errors.js';
import { UI_LIMITS } from '../limits/ui-limits.js';
import { UI_STREAM_LIMITS, UIStreamCheckpointSchema } from './checkpoint.js';
import { acceptCheckpoint, startUIStream } from './stream.js';

// biome-ignore lint/suspicious/noExplicitAny: rows corrupt frames as plain JSON.
type J = any;

const opening = (): J => clone(startUIStream(clone(initialFixture), 'call-open-1', 1).checkpoint);
/** A valid non-opening frame on its own: seq 2, an add from revision 0. */
const addFrame = (): J => ({ ...opening(), seq: 2, baseRevision: 0, revision: 1, type: 'add' });
const INJECTED = 'INJECTED_xyz';

const rejection = (input: unknown): UIStreamError =>
  thrownBy(UIStreamError, () => acceptCheckpoint(null, input));

interface Row {
  readonly rule: string;
  readonly frame: () => unknown;
  readonly path: string;
  readonly code: string;
}

const with_ = (base: () => J, patch: J) => () => ({ ...base(), ...patch });

const REJECTED: Row[] = [
  {
    rule: 'protocol is the stream protocol',
    frame: with_(opening, { protocol: 'other' }),
    path: 'protocol',
    code: 'invalid_value',
  },
  {
    rule: 'version is 1.0',
    frame: with_(opening, { version: '1.1' }),
    path: 'version',
    code: 'invalid_value',
  },
  {
    rule: 'sourceCallId is non-empty',
    frame: with_(opening, { sourceCallId: '' }),
    path: 'sourceCallId',
    code: 'string_too_short',
  },
  {
    rule: 'sourceCallId is at most 256 characters',
    frame: with_(opening, { sourceCallId: 'c'.repeat(UI_STREAM_LIMITS.maxSourceCallIdLength + 1) }),
    path: 'sourceCallId',
    code: 'string_too_long',
  },
  {
    rule: 'sourceCallId is printable ASCII',
    frame: with_(opening, { sourceCallId: 'caf\u00e9' }),
    path: 'sourceCallId',
    code: 'invalid_value',
  },
  {
    rule: 'sourceCallId has no control characters',
    frame: with_(opening, { sourceCallId: 'a\tb' }),
    path: 'sourceCallId',
    code: 'invalid_value',
  },
  {
    rule: 'sourceCallId is a string',
    frame: with_(opening, { sourceCallId: 7 }),
    path: 'sourceCallId',
    code: 'invalid_type',
  },
  {
    rule: 'uiId is an identifier',
    frame: with_(opening, { uiId: 'bad id' }),
    path: 'uiId',
    code: 'invalid_value',
  },
  {
    rule: 'generation is at least 1',
    frame: with_(opening, { generation: 0 }),
    path: 'generation',
    code: 'number_out_of_range',
  },
  {
    rule: 'generation is at most 1,000,000,000',
    frame: with_(opening, { generation: UI_STREAM_LIMITS.maxGeneration + 1 }),
    path: 'generation',
    code: 'number_out_of_range',
  },
  {
    rule: 'generation is an integer',
    frame: with_(opening, { generation: 1.5 }),
    path: 'generation',
    code: 'invalid_type',
  },
  { rule: 'seq is at least 1', frame: with_(opening, { seq: 0 }), path: 'seq', code: 'number_out_of_range' },
  {
    rule: 'seq is at most 256',
    frame: with_(addFrame, { seq: 257 }),
    path: 'seq',
    code: 'number_out_of_range',
  },
  {
    rule: 'revision is at least 0',
    frame: with_(opening, { revision: -1 }),
    path: 'revision',
    code: 'number_out_of_range',
  },
  {
    rule: 'revision is at most 256',
    frame: with_(addFrame, { revision: 257, baseRevision: 256 }),
    path: 'revision',
    code: 'number_out_of_range',
  },
  {
    rule: 'baseRevision is a number or null',
    frame: with_(addFrame, { baseRevision: '0' }),
    path: 'baseRevision',
    code: 'invalid_type',
  },
  {
    rule: 'type is one of the seven',
    frame: with_(addFrame, { type: 'patch' }),
    path: 'type',
    code: 'invalid_value',
  },
  {
    rule: 'message is at most 512 characters',
    frame: with_(opening, { message: 'm'.repeat(UI_STREAM_LIMITS.maxMessageLength + 1) }),
    path: 'message',
    code: 'string_too_long',
  },
  {
    rule: 'the envelope is closed',
    frame: with_(opening, { [INJECTED]: 1 }),
    path: '$',
    code: 'unknown_property',
  },
  {
    rule: 'every field is required',
    frame: () => {
      const frame = opening();
      delete frame.seq;
      return frame;
    },
    path: 'seq',
    code: 'missing_property',
  },
  {
    rule: 'the snapshot is required',
    frame: () => {
      const frame = opening();
      delete frame.snapshot;
      return frame;
    },
    path: 'snapshot',
    code: 'missing_property',
  },
  // §12 single-frame rules
  {
    rule: 'seq > revision',
    frame: with_(addFrame, { seq: 3, baseRevision: 2, revision: 3 }),
    path: 'revision',
    code: 'number_out_of_range',
  },
  {
    rule: 'a snapshot frame has baseRevision null',
    frame: with_(opening, { baseRevision: 0 }),
    path: 'baseRevision',
    code: 'invalid_value',
  },
  {
    rule: 'a snapshot frame has seq 1',
    frame: with_(opening, { seq: 2 }),
    path: 'seq',
    code: 'invalid_value',
  },
  {
    rule: 'seq 1 is the snapshot',
    frame: with_(opening, { type: 'complete', baseRevision: 0 }),
    path: 'type',
    code: 'invalid_value',
  },
  {
    rule: 'only the snapshot has baseRevision null',
    frame: with_(addFrame, { baseRevision: null }),
    path: 'baseRevision',
    code: 'invalid_value',
  },
  {
    rule: 'add has revision = baseRevision + 1',
    frame: with_(addFrame, { seq: 4, revision: 2 }),
    path: 'revision',
    code: 'invalid_value',
  },
  {
    rule: 'update has revision = baseRevision + 1',
    frame: with_(addFrame, { type: 'update', revision: 0 }),
    path: 'revision',
    code: 'invalid_value',
  },
  {
    rule: 'remove has revision = baseRevision + 1',
    frame: with_(addFrame, { type: 'remove', baseRevision: 1 }),
    path: 'revision',
    code: 'invalid_value',
  },
  {
    rule: 'complete keeps revision = baseRevision',
    frame: with_(addFrame, { type: 'complete' }),
    path: 'revision',
    code: 'invalid_value',
  },
  {
    rule: 'cancel keeps revision = baseRevision',
    frame: with_(addFrame, { type: 'cancel' }),
    path: 'revision',
    code: 'invalid_value',
  },
  {
    rule: 'error keeps revision = baseRevision',
    frame: with_(addFrame, { type: 'error' }),
    path: 'revision',
    code: 'invalid_value',
  },
  // The snapshot: parseDocument, issues prefixed `snapshot`
  {
    rule: 'the snapshot is a valid document (unknown component)',
    frame: () => {
      const frame = opening();
      frame.snapshot.root.children[0].type = 'Panel';
      return frame;
    },
    path: 'snapshot.root.children[0].type',
    code: 'unknown_component',
  },
  {
    rule: 'the snapshot is a valid document (title length)',
    frame: () => {
      const frame = opening();
      frame.snapshot.title = 't'.repeat(UI_LIMITS.maxTitleLength + 1);
      return frame;
    },
    path: 'snapshot.title',
    code: 'string_too_long',
  },
  {
    rule: 'the snapshot stays within the document budget',
    frame: () => {
      const frame = opening();
      frame.snapshot.root.children[1].props.text = 'x'.repeat(UI_LIMITS.maxDocumentBytes);
      return frame;
    },
    path: 'snapshot',
    code: 'too_large',
  },
  {
    rule: 'the snapshot is an object',
    frame: with_(opening, { snapshot: [] }),
    path: 'snapshot',
    code: 'invalid_type',
  },
  {
    rule: 'uiId is the snapshot document id',
    frame: with_(opening, { uiId: 'another_ui' }),
    path: 'uiId',
    code: 'invalid_value',
  },
  { rule: 'a frame is an object (number)', frame: () => 42, path: '$', code: 'invalid_type' },
  { rule: 'a frame is an object (array)', frame: () => [opening()], path: '$', code: 'invalid_type' },
  { rule: 'a frame is an object (null)', frame: () => null, path: '$', code: 'invalid_type' },
  {
    rule: 'a frame is plain JSON (class instance)',
    frame: () => Object.assign(new (class Frame {})(), opening()),
    path: '$',
    code: 'invalid_json',
  },
];

describe('frame rules', () => {
  it.each(REJECTED)('$rule', ({ frame, path, code }) => {
    const error = rejection(frame());
    expect(error.issues[0]).toMatchObject({ path, code });
  });

  it('accepts the edges of every range', () => {
    const frame = {
      ...addFrame(),
      sourceCallId: ` ${'~'.repeat(UI_STREAM_LIMITS.maxSourceCallIdLength - 1)}`,
      generation: UI_STREAM_LIMITS.maxGeneration,
      seq: 255,
      baseRevision: 253,
      revision: 254,
      message: 'm'.repeat(UI_STREAM_LIMITS.maxMessageLength),
    };
    expect(acceptCheckpoint(null, frame)).toMatchObject({ seq: 255, revision: 254 });
    expect(
      acceptCheckpoint(null, { ...frame, seq: 256, baseRevision: 255, revision: 255, type: 'complete' }).seq,
    ).toBe(256);
  });

  it('never calls a getter of the frame, and reports it where it sits', () => {
    let called = false;
    for (const key of ['seq', 'snapshot']) {
      const frame = opening();
      Object.defineProperty(frame, key, {
        enumerable: true,
        get() {
          called = true;
          return 1;
        },
      });
      expect(rejection(frame).issues[0]).toMatchObject({ path: key, code: 'invalid_json' });
    }
    const nested = opening();
    Object.defineProperty(nested.snapshot, 'title', {
      enumerable: true,
      get() {
        called = true;
        return 'x';
      },
    });
    expect(rejection(nested).issues[0]).toMatchObject({ path: 'snapshot.title', code: 'invalid_json' });
    expect(called).toBe(false);
  });

  it('neither modifies nor freezes the frame it is given', () => {
    const frame = opening();
    const copy = clone(frame);
    acceptCheckpoint(null, frame);
    expect(frame).toEqual(copy);
    expect(Object.isFrozen(frame)).toBe(false);
    expect(Object.isFrozen(frame.snapshot)).toBe(false);
  });

  it('does not pollute Object.prototype through own "__proto__" keys', () => {
    const text = JSON.stringify(opening()).replace('{', '{"__proto__":{"polluted":true},');
    expect(rejection(JSON.parse(text)).issues[0]).toMatchObject({ path: '$', code: 'invalid_identifier' });
    expect(({} as J).polluted).toBeUndefined();
  });

  it('never echoes unknown keys or rejected values', () => {
    const frame = { ...opening(), [INJECTED]: INJECTED, type: INJECTED, uiId: INJECTED };
    frame.snapshot.root.props[INJECTED] = INJECTED;
    const messages = JSON.stringify(rejection(frame).issues);
    expect(messages).not.toContain(INJECTED);
  });
});

describe('UIStreamCheckpointSchema', () => {
  it('describes a valid frame and the uiId binding', () => {
    expect(UIStreamCheckpointSchema.safeParse(opening()).success).toBe(true);
    const mismatch = UIStreamCheckpointSchema.safeParse({ ...opening(), uiId: 'another_ui' });
    expect(mismatch.success).toBe(false);
    expect(mismatch.error?.issues[0]?.path).toEqual(['uiId']);
    const rule = UIStreamCheckpointSchema.safeParse({ ...opening(), baseRevision: 0 });
    expect(rule.error?.issues[0]?.path).toEqual(['baseRevision']);
  });

  it('exports as JSON Schema with the document schema inside', () => {
    const generated = z.toJSONSchema(UIStreamCheckpointSchema, { target: 'draft-2020-12' }) as J;
    const schema = generated.$defs.UIStreamCheckpoint;
    expect(schema.properties.snapshot.oneOf).toEqual([
      { $ref: '#/$defs/DocumentV1_0' },
      { $ref: '#/$defs/DocumentV1_1' },
    ]);
    expect(schema.required).toEqual(
      expect.arrayContaining([
        'protocol',
        'version',
        'sourceCallId',
        'uiId',
        'generation',
        'seq',
        'snapshot',
      ]),
    );
    expect(schema.properties.type.enum).toEqual([
      'snapshot',
      'add',
      'update',
      'remove',
      'complete',
      'cancel',
      'error',
    ]);
    expect(schema.additionalProperties).toBe(false);
  });
});
