/**
 * Replays the seed's component stream example (seed 002 §12) as a producer would send it: every frame is
 * serialized to JSON text and accepted by the receiver with `acceptCheckpoint`, exactly as frames from an
 * agent would be. Used by the host's example menu until an agent transport is connected.
 */
import { acceptCheckpoint, advanceUIStream, startUIStream, type UIStreamState } from '@lineup/shared';
import streamInitial from '@lineup/shared/fixtures/stream-initial.json';
import streamMutations from '@lineup/shared/fixtures/stream-mutations.json';

/** The frames of one generation as JSON text: the opening snapshot, the three mutations, complete. */
export function exampleStreamFrames(sourceCallId: string, generation: number): string[] {
  let producer = startUIStream(streamInitial, sourceCallId, generation);
  const frames = [JSON.stringify(producer.checkpoint)];
  for (const mutation of streamMutations) {
    producer = advanceUIStream(producer, mutation);
    frames.push(JSON.stringify(producer.checkpoint));
  }
  frames.push(JSON.stringify(advanceUIStream(producer, { type: 'complete' }).checkpoint));
  return frames;
}

/** Accepts one frame of JSON text on top of the receiver state. */
export function receiveFrame(current: UIStreamState | null, text: string): UIStreamState {
  return acceptCheckpoint(current, JSON.parse(text));
}
