/**
 * Speed goal of component streaming (seed 002 §12): the median cost of `acceptCheckpoint` against
 * `parseDocument` of the same snapshot alone (target ≤ 1.2×) over a generation of maximum-size snapshots.
 * Both sides get the same freshly `JSON.parse`d frame text each iteration, so neither hits parseDocument's
 * fast path for already-validated documents. `pnpm bench` prints both and the ratio of their means; the
 * medians are in `vitest bench --outputJson`.
 *
 * A generation of maximum-size frames ends long before seq 256: the 16 MiB generation budget holds 62 frames
 * of ~262 KB plus complete once one maximum frame is reserved for it. The benchmark streams one such
 * generation to its budget, one Card title per frame, and accepts its frames in order, starting over with
 * `null` after the last.
 *
 * What acceptCheckpoint adds to parseDocument: structural sharing with the previous snapshot (one deep
 * comparison, the larger part), the envelope, the contract checks and the frame's byte size (sizes of unchanged
 * branches are remembered). The SHA-256 digest (~2.5 ms per 262 KB) is not computed for a new seq: only a seq
 * that arrives again needs it (digest.ts).
 */
import { bench, describe } from 'vitest';
import { buildMaxDocument, documentBytes } from '../../bench/max-document.js';
import { parseDocument } from '../dsl/document.js';
import { UIStreamError } from '../dsl/errors.js';
import { acceptCheckpoint, advanceUIStream, startUIStream, type UIStreamState } from './stream.js';

function streamToBudget(): string[] {
  const document = buildMaxDocument();
  const cards = (document.root as { children: { id: string; props: { title: string } }[] }).children;
  let state = startUIStream(document, 'bench-call', 1);
  const frames = [JSON.stringify(state.checkpoint)];
  for (let step = 0; ; step++) {
    try {
      // One Card title per frame, toggled between "Section n" and "section n": the snapshot keeps its maximum
      // size and every other branch is unchanged.
      const card = cards[step % cards.length]!;
      const lower = Math.floor(step / cards.length) % 2 === 0;
      const title = lower ? card.props.title.toLowerCase() : card.props.title;
      state = advanceUIStream(state, { type: 'update', nodeId: card.id, props: { title, gap: 'md' } });
    } catch (error) {
      if (!(error instanceof UIStreamError)) throw error;
      break;
    }
    frames.push(JSON.stringify(state.checkpoint));
  }
  frames.push(JSON.stringify(advanceUIStream(state, { type: 'complete' }).checkpoint));
  return frames;
}

const frames = streamToBudget();
const snapshotBytes = documentBytes(JSON.parse(frames[0]!).snapshot);

/** Long enough for a stable median on a busy machine. */
const OPTIONS = { time: 4_000, warmupTime: 500 };

let parseIndex = 0;
let acceptIndex = 0;
let receiver: UIStreamState | null = null;

describe(`one generation of ${frames.length} frames with ${snapshotBytes}-byte snapshots`, () => {
  bench(
    'parseDocument of the snapshot (baseline)',
    () => {
      const frame = JSON.parse(frames[parseIndex]!) as { snapshot: unknown };
      parseIndex = (parseIndex + 1) % frames.length;
      parseDocument(frame.snapshot);
    },
    OPTIONS,
  );
  bench(
    'acceptCheckpoint of the frame',
    () => {
      const frame: unknown = JSON.parse(frames[acceptIndex]!);
      if (acceptIndex === 0) receiver = null;
      acceptIndex = (acceptIndex + 1) % frames.length;
      receiver = acceptCheckpoint(receiver, frame);
    },
    OPTIONS,
  );
});
