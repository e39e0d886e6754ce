/**
 * What a refusal costs against taking a valid message of the same size, in one run (`pnpm bench`): a client reads
 * each frame with `readEnvelopeText` and judges a document with `parseDocument`; refusing one builds its answer's
 * issues with `wireIssues`. Each group holds a valid frame and refused frames of the same length; vitest prints
 * each entry's hz and its ratio to the fastest of the group, so "refusing costs no more than taking" reads as every
 * refusal at or above the valid entry.
 */
import { bench, describe } from 'vitest';
import { buildMaxDocument } from '../../bench/max-document.js';
import { parseDocument } from '../dsl/document.js';
import { UISchemaError } from '../errors/errors.js';
import { readEnvelopeText } from './envelope.js';
import { wireIssues } from './messages/issues.js';

const header = {
  v: 1,
  id: 'msg_bench_1',
  type: 'lineup.v1.ui.document',
  conversation_id: 'conv_bench',
  sender: { kind: 'agent', id: 'agent_bench' },
};

/** What the client does with a frame: read it, judge a document, or build the answer to a refusal. */
function take(text: string): number {
  const read = readEnvelopeText(text, { direction: 'agent_to_client' });
  if (read.kind === 'invalid') return wireIssues(read.error.issues).length;
  if (read.kind !== 'message' || read.message.type !== 'lineup.v1.ui.document') return 0;
  try {
    parseDocument(read.message.payload.document);
    return 0;
  } catch (error) {
    if (!(error instanceof UISchemaError)) throw error;
    return wireIssues(error.issues, 'payload.document').length;
  }
}

/** `text` padded with spaces before its last character to exactly `length`. */
function padded(text: string, length: number): string {
  if (text.length > length) throw new Error(`cannot pad ${text.length} characters to ${length}`);
  return `${text.slice(0, -1)}${' '.repeat(length - text.length)}${text.slice(-1)}`;
}

const document = buildMaxDocument(262_144 - 2_048);
const valid = JSON.stringify({ ...header, payload: { document } });
const length = valid.length + 64;
const VALID = padded(valid, length);
// Invalid where it costs most to find: the last thing read.
const EXTRA_FIELD = padded(JSON.stringify({ ...header, payload: { document, zz: 1 } }), length);
const BAD_DOCUMENT = padded(
  JSON.stringify({ ...header, payload: { document: { ...document, title: '' } } }),
  length,
);
const cases = [VALID, EXTRA_FIELD, BAD_DOCUMENT].map(take);
if (cases[0] !== 0 || cases[1] === 0 || cases[2] === 0)
  throw new Error('the benchmark frames are not what they say');

describe(`a ui.document frame of ${length} characters`, () => {
  bench('valid: read and parseDocument (baseline)', () => {
    take(VALID);
  });
  bench('refused at the envelope: an extra payload field, at the end', () => {
    take(EXTRA_FIELD);
  });
  bench('refused by parseDocument: an empty title', () => {
    take(BAD_DOCUMENT);
  });
});

// A megabyte: the largest valid frame (a chat turn's worth of text per value) against frames that break the
// envelope's budget of depth or values, each exactly as long.
const MEGABYTE = 1_048_576 - 1_024;
const bigValid = padded(
  JSON.stringify({
    ...header,
    type: 'lineup.v1.ui.open',
    payload: {
      instance_id: 'bench.1',
      app: {
        id: 'com.example.bench',
        name: 'Bench',
        version: '1.0.0',
        html: 'x'.repeat(160_000),
        css: '',
        js: '',
      },
      state: Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`k${index}`, 'y'.repeat(4_000)])),
    },
  }),
  MEGABYTE,
);
const deep = padded(
  `{"v":1,"id":"m","type":"lineup.v1.ui.patch","conversation_id":"c","payload":{"state":{"d":${'['.repeat(400_000)}${']'.repeat(400_000)}}}}`,
  MEGABYTE,
);
const many = padded(
  `{"v":1,"id":"m","type":"lineup.v1.ui.patch","conversation_id":"c","payload":{"state":{"d":[${'0,'.repeat(400_000)}0]}}}`,
  MEGABYTE,
);
// The dearest valid frame of this length: a Surface state at its byte budget, all small values.
const manyValid = padded(
  `{"v":1,"id":"m","type":"lineup.v1.ui.patch","conversation_id":"c","sender":{"kind":"agent","id":"a"},"payload":{"instance_id":"b.1","state":{"d":[${'0,'.repeat(130_000)}0]}}}`,
  MEGABYTE,
);
for (const frame of [bigValid, manyValid])
  if (readEnvelopeText(frame, { direction: 'agent_to_client' }).kind !== 'message')
    throw new Error('a large benchmark frame is not valid');

describe(`a frame of ${MEGABYTE} characters`, () => {
  bench('valid: a Surface with its bundle and state (baseline)', () => {
    take(bigValid);
  });
  bench('valid: 130,000 small values, a Surface state at its budget', () => {
    take(manyValid);
  });
  bench('refused: nested 400,000 levels', () => {
    take(deep);
  });
  bench('refused: 400,000 values', () => {
    take(many);
  });
  bench('JSON.parse alone of the nesting (what the scan spares)', () => {
    JSON.parse(deep);
  });
});
