/**
 * Speed goal of component streaming (seed 002 §12): the median cost of `acceptCheckpoint` against
 * `parseDocument` of the same snapshot alone (target ≤ 1.2×) over a generation of maximum-size snapshots.
 * Both sides get the same freshly `JSON.parse`d frame text, so neither hits parseDocument's fast path for
 * already-validated documents.
 *
 * The figure to read is the paired task's line "median … ratio …": it times both sides on the same frame in
 * the same iteration, alternating which goes first, so a busy machine slows both alike and the ratio of the
 * medians stays stable. The two single-side tasks after it give vitest's usual table (mean, p75, …).
 *
 * A generation of maximum-size frames ends long before seq 256: the 16 MiB generation budget holds 62 frames
 * of ~262 KB plus complete once one maximum frame is reserved for it. The benchmark streams one such
 * generation to its budget, one Card title per frame, and accepts its frames in order, starting over with
 * `null` after the last.
 *
 * What acceptCheckpoint adds to parseDocument: the envelope, the contract checks and the frame's byte size
 * (sizes of unchanged branches are remembered). Structural sharing with the previous snapshot replaces most of
 * parseDocument's copy with a comparison, which costs less (dsl/copy.ts). The SHA-256 digest (~2.5 ms per
 * 262 KB) is not computed for a new seq: only a seq that arrives again needs it (digest.ts).
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

// The package has no DOM or Node types; the clock every supported runtime has.
declare const performance: { now(): number };

function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const paired = {
  index: 0,
  receiver: null as UIStreamState | null,
  parse: [] as number[],
  accept: [] as number[],
};

function timeParse(text: string): void {
  const frame = JSON.parse(text) as { snapshot: unknown };
  const start = performance.now();
  parseDocument(frame.snapshot);
  paired.parse.push(performance.now() - start);
}

function timeAccept(text: string, first: boolean): void {
  const frame: unknown = JSON.parse(text);
  const start = performance.now();
  paired.receiver = acceptCheckpoint(first ? null : paired.receiver, frame);
  paired.accept.push(performance.now() - start);
}

let parseIndex = 0;
let acceptIndex = 0;
let receiver: UIStreamState | null = null;

describe(`one generation of ${frames.length} frames with ${snapshotBytes}-byte snapshots`, () => {
  bench(
    'paired: parseDocument and acceptCheckpoint of each frame, alternating order',
    () => {
      const frame = paired.index % frames.length;
      const text = frames[frame]!;
      if (paired.index % 2 === 0) {
        timeParse(text);
        timeAccept(text, frame === 0);
      } else {
        timeAccept(text, frame === 0);
        timeParse(text);
      }
      paired.index++;
    },
    {
      ...OPTIONS,
      setup: () => {
        paired.index = 0;
        paired.parse.length = 0;
        paired.accept.length = 0;
      },
      teardown: (_task, mode) => {
        if (mode !== 'run') return;
        const parse = median(paired.parse);
        const accept = median(paired.accept);
        console.log(
          `median over ${paired.parse.length} frames: parseDocument ${parse.toFixed(2)} ms, acceptCheckpoint ${accept.toFixed(2)} ms, ratio ${(accept / parse).toFixed(3)} (target ≤ 1.2)`,
        );
      },
    },
  );
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
