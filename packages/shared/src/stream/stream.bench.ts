/**
 * Speed goal of component streaming (seed 002 §12): the median cost of `acceptCheckpoint` against
 * `parseDocument` of the same snapshot alone (target ≤ 1.2×) over a generation of maximum-size snapshots.
 * Both sides get the same freshly `JSON.parse`d frame text, so neither hits parseDocument's fast path for
 * already-validated documents.
 *
 * The figures to read are the paired tasks' lines "median … ratio …": a paired task times both sides on the
 * same frame in the same iteration, alternating which goes first, so a busy machine slows both alike and the
 * ratio of the medians stays stable. The single-side tasks give vitest's usual table (mean, p75, …).
 *
 * A 256-frame generation of maximum-size snapshots cannot exist: the 16 MiB generation budget holds 62 frames
 * of ~262 KB plus complete once one maximum frame is reserved for it. So two generations are measured, each
 * streamed to its budget, one Card title per frame, and accepted in order, starting over with `null` after
 * the last frame:
 * - maximum-size snapshots (262,075 bytes): 63 frames;
 * - the largest snapshots a 256-frame generation can hold (~64 KB): 256 frames.
 *
 * What acceptCheckpoint adds to parseDocument: the envelope, the contract checks and the frame's byte size
 * (sizes of unchanged branches are remembered). Structural sharing with the previous snapshot replaces most of
 * parseDocument's copy with a comparison, which costs less (dsl/copy.ts). The SHA-256 digest (~2.5 ms per
 * 262 KB) is not computed for a new seq: only a seq that arrives again needs it (digest.ts).
 */
import { bench, describe } from 'vitest';
import { buildMaxDocument, documentBytes } from '../../bench/max-document.js';
import { parseDocument } from '../dsl/document.js';
import { UIStreamError } from '../errors/errors.js';
import { UI_PROTOCOL_LIMITS } from '../limits/ui-limits.js';
import { acceptCheckpoint, advanceUIStream, startUIStream, type UIStreamState } from './stream.js';

/** Every frame of one generation of `document`, streamed until the budget refuses a frame, then complete. */
function streamToBudget(document: ReturnType<typeof buildMaxDocument>): string[] {
  const cards = (document.root as { children: { id: string; props: { title: string } }[] }).children;
  let state = startUIStream(document, 'bench-call', 1);
  const frames = [JSON.stringify(state.checkpoint)];
  for (let step = 0; ; step++) {
    try {
      // One Card title per frame, toggled between "Section n" and "section n": the snapshot keeps its size
      // and every other branch is unchanged.
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

/**
 * Snapshot size for a full 256-frame generation: 255 frames plus the reserved maximum frame fit the
 * generation budget; an envelope takes at most 320 bytes of each frame.
 */
const FULL_GENERATION_SNAPSHOT_BYTES =
  Math.floor(
    (UI_PROTOCOL_LIMITS.maxStreamBytes - UI_PROTOCOL_LIMITS.maxStreamFrameBytes) /
      (UI_PROTOCOL_LIMITS.maxStreamFrames - 1),
  ) - 320;

const generations = [
  { name: 'maximum-size snapshots', frames: streamToBudget(buildMaxDocument()) },
  {
    name: 'the largest snapshots of a full generation',
    frames: streamToBudget(buildMaxDocument(FULL_GENERATION_SNAPSHOT_BYTES)),
  },
];
if (generations[1]!.frames.length !== UI_PROTOCOL_LIMITS.maxStreamFrames)
  throw new Error(`Expected a ${UI_PROTOCOL_LIMITS.maxStreamFrames}-frame generation.`);

/** Long enough for a stable median on a busy machine. */
const OPTIONS = { time: 4_000, warmupTime: 500 };

// The package has no DOM or Node types; the clock every supported runtime has.
declare const performance: { now(): number };

function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A bench task timing parseDocument and acceptCheckpoint on each frame in turn; prints both medians. */
function pairedTask(name: string, frames: readonly string[]): void {
  const samples = { parse: [] as number[], accept: [] as number[] };
  let index = 0;
  let receiver: UIStreamState | null = null;
  const timeParse = (text: string): void => {
    const frame = JSON.parse(text) as { snapshot: unknown };
    const start = performance.now();
    parseDocument(frame.snapshot);
    samples.parse.push(performance.now() - start);
  };
  const timeAccept = (text: string, first: boolean): void => {
    const frame: unknown = JSON.parse(text);
    const start = performance.now();
    receiver = acceptCheckpoint(first ? null : receiver, frame);
    samples.accept.push(performance.now() - start);
  };
  bench(
    'paired: parseDocument and acceptCheckpoint of each frame, alternating order',
    () => {
      const frame = index % frames.length;
      const text = frames[frame]!;
      if (index % 2 === 0) {
        timeParse(text);
        timeAccept(text, frame === 0);
      } else {
        timeAccept(text, frame === 0);
        timeParse(text);
      }
      index++;
    },
    {
      ...OPTIONS,
      setup: () => {
        index = 0;
        samples.parse.length = 0;
        samples.accept.length = 0;
      },
      teardown: (_task, mode) => {
        if (mode !== 'run') return;
        const parse = median(samples.parse);
        const accept = median(samples.accept);
        console.log(
          `${name}: median over ${samples.parse.length} frames: parseDocument ${parse.toFixed(2)} ms, acceptCheckpoint ${accept.toFixed(2)} ms, ratio ${(accept / parse).toFixed(3)} (target ≤ 1.2)`,
        );
      },
    },
  );
}

for (const { name, frames } of generations) {
  const snapshotBytes = documentBytes(JSON.parse(frames[0]!).snapshot);
  const label = `${name}: one generation of ${frames.length} frames with ${snapshotBytes}-byte snapshots`;
  describe(label, () => {
    pairedTask(label, frames);

    let parseIndex = 0;
    let acceptIndex = 0;
    let receiver: UIStreamState | null = null;
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
}
