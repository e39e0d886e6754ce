/**
 * Component streaming's test data (`stream/stream.*.test.ts`, seed 002 §12): the seed's opening document and
 * three patches, the seed example played through, frames as a receiver gets them from the wire, and the
 * expected rejection of a call.
 */
import { expect } from 'vitest';
import initialFixture from '../fixtures/stream-initial.json' with { type: 'json' };
import mutationsFixture from '../fixtures/stream-mutations.json' with { type: 'json' };
import type { UINode } from '../src/dsl/types.js';
import { UIStreamError } from '../src/errors/errors.js';
import { advanceUIStream, startUIStream, type UIStreamState } from '../src/stream/stream.js';
import { clone, thrownBy } from './utils.js';

// biome-ignore lint/suspicious/noExplicitAny: tests build and corrupt frames as plain JSON.
export type J = any;

export const initial = (): J => clone(initialFixture);
export const mutations = (): J[] => clone(mutationsFixture) as J[];
/** A frame as it arrives from history or the wire: fresh JSON, no shared objects with the producer. */
export const wire = (state: UIStreamState): J => clone(state.checkpoint);

const rejection = (run: () => unknown): UIStreamError => thrownBy(UIStreamError, run);

export function expectIssue(run: () => unknown, path: string, code: string): UIStreamError {
  const error = rejection(run);
  expect(error.issues).toContainEqual(expect.objectContaining({ path, code }));
  return error;
}

/** The seed's example: open, three patches, complete. Returns every state in order. */
export function seedExample(): UIStreamState[] {
  const states = [startUIStream(initial(), 'call-open-1', 1)];
  for (const mutation of mutations()) states.push(advanceUIStream(states.at(-1)!, mutation));
  states.push(advanceUIStream(states.at(-1)!, { type: 'complete' }));
  return states;
}

/** Finds a node by id. */
export function node(root: UINode, id: string): UINode | undefined {
  if (root.id === id) return root;
  if ('children' in root) {
    for (const child of root.children) {
      const found = node(child, id);
      if (found) return found;
    }
  }
  return undefined;
}

/** A consecutive frame after `state` with the snapshot changed by `edit`, as a receiver would get it. */
export function nextFrame(state: UIStreamState, edit: (snapshot: J) => void, overrides: J = {}): J {
  const frame = wire(state);
  edit(frame.snapshot);
  return {
    ...frame,
    seq: state.seq + 1,
    baseRevision: state.revision,
    revision: state.revision + 1,
    type: 'update',
    ...overrides,
  };
}
