/**
 * The conversation model, as the view drives it: every envelope is a real `lineup.v1` message from
 * `parseEnvelope`, applied live (with the Surface side effects played on a stand-in for `SurfaceInstances`) or
 * replayed from structured clones, as `ConversationStore` gives its records back; both must show the same.
 */
import type { UIOpenPayload } from '@lineup/shared/protocol';
import { describe, expect, it } from 'vitest';
import {
  agentSays,
  appCall,
  CONVERSATION,
  checkpointMessage,
  close,
  forged,
  frames,
  inventory,
  notes,
  ofKind,
  only,
  open,
  patch,
  received,
  sent,
  surfaceOf,
  toolCall,
  toolProgress,
  uiDocument,
  uiEvent,
  unsupported,
  userSays,
} from '../../test/conversation-model.ts';
import { type ConversationMessage, ConversationModel, type Entry, type SideEffect } from './model.ts';

// --- Replay equivalence ----------------------------------------------------------------------------------------

/**
 * A stand-in for the view's Surface frames: what `SurfaceEntry` mounts for each Surface entry (the payload,
 * opened with the entry's `state` when a patch came first) and what the live side effects do to open frames.
 */
class Frames {
  /** The open frames by instance id, as `SurfaceInstances` keeps them. */
  readonly open = new Map<string, { readonly handle: object; state: unknown }>();
  /** What each mounted `SurfaceEntry` (by entry key) opened. */
  readonly #mounted = new Map<number, { readonly payload: UIOpenPayload; readonly handle: object }>();

  effect(side: SideEffect | null): void {
    if (side?.kind === 'patch') {
      const frame = this.open.get(side.payload.instance_id);
      if (frame !== undefined) frame.state = side.payload.state;
    } else if (side?.kind === 'close') this.open.delete(side.payload.instance_id);
  }

  userClose(instanceId: string): void {
    this.open.delete(instanceId);
  }

  /** A React commit: effects of unmounted or re-keyed payloads clean up, new ones open. */
  render(entries: readonly Entry[]): void {
    const surfaces = new Map(
      entries.flatMap((entry) => (entry.kind === 'surface' ? [[entry.key, entry] as const] : [])),
    );
    for (const [key, mounted] of this.#mounted) {
      if (surfaces.get(key)?.payload === mounted.payload) continue;
      const id = mounted.payload.instance_id;
      if (this.open.get(id)?.handle === mounted.handle) this.open.delete(id);
      this.#mounted.delete(key);
    }
    for (const [key, entry] of surfaces) {
      if (this.#mounted.has(key)) continue;
      const handle = {};
      this.#mounted.set(key, { payload: entry.payload, handle });
      this.open.set(entry.payload.instance_id, { handle, state: entry.state ?? entry.payload.state });
    }
  }

  states(): Record<string, unknown> {
    return Object.fromEntries([...this.open].map(([id, frame]) => [id, frame.state]));
  }
}

/** What a frame mounted from the model's entries would show: each open Surface with its latest state. */
const shownStates = (model: ConversationModel): Record<string, unknown> =>
  Object.fromEntries(
    ofKind(model, 'surface').map((entry) => [entry.payload.instance_id, entry.state ?? entry.payload.state]),
  );

/** A conversation as it was sent and received, in order. */
function realisticConversation(): ConversationMessage[] {
  const stream = frames('call_stream_conversation');
  return [
    sent(inventory()),
    sent(userSays('What is the weather, and how do my savings grow?')),
    received(agentSays('Let me open a dashboard.')),
    received(open('weather.1', { city: 'Beijing', temperature: 22 }, 'Weather')),
    received(toolCall()),
    sent(toolProgress()),
    received(checkpointMessage(stream[0])),
    received(patch('weather.1', { city: 'Beijing', temperature: 23 })),
    sent(uiEvent('weather.1', 'refresh', { unit: 'c' })),
    received(checkpointMessage(stream[2])),
    received(checkpointMessage(stream[1])),
    received(uiDocument('doc_summary', 'A summary')),
    received(open('counter.1', { count: 0 }, 'Counter')),
    received(patch('counter.1', { count: 1 })),
    received(open('weather.1', { city: 'Shanghai', temperature: 27 }, 'Weather v2')),
    received(patch('weather.1', { city: 'Shanghai', temperature: 28 })),
    sent(uiEvent('counter.1', 'close')),
    received(patch('counter.1', { count: 2 })),
    received(checkpointMessage(forged(stream[2]))),
    received(checkpointMessage(stream[3])),
    received(appCall()),
    received(checkpointMessage(stream[4])),
    received(open('counter.2', { count: 7 }, 'Counter')),
    received(patch('counter.2', { count: 8 })),
    received(patch('counter.2', { count: 9 })),
    received(close('weather.1')),
    received(unsupported('lineup.v1.ui.spin')),
    received(agentSays('Done.')),
    sent(userSays('Thanks')),
  ];
}

/** What the store gives back: a structured clone of each record (not the live objects). */
const stored = (messages: readonly ConversationMessage[]): ConversationMessage[] =>
  messages.map((item) => ({ ...item, message: structuredClone(item.message) }));

/**
 * Applies envelopes as the live view does: the user's close removes the Surface (and its frame) before the
 * `ui.event` goes out; side effects reach the frames at once, and React commits only at `renders` positions.
 */
function playLive(
  model: ConversationModel,
  frames: Frames,
  messages: readonly ConversationMessage[],
  renders: (index: number) => boolean = () => true,
  /** Ids already applied: the user's click that sent one of them happened once, before it went out. */
  seen = new Set<string>(),
): void {
  messages.forEach((item, index) => {
    const { message } = item;
    if (
      item.direction === 'out' &&
      message.type === 'lineup.v1.ui.event' &&
      message.payload.event === 'close' &&
      !seen.has(message.id)
    ) {
      frames.userClose(message.payload.instance_id);
      model.removeSurface(message.payload.instance_id);
    }
    seen.add(message.id);
    frames.effect(model.apply(item));
    if (renders(index)) frames.render(model.entries);
  });
  frames.render(model.entries);
}

function replay(messages: readonly ConversationMessage[]): ConversationModel {
  const model = new ConversationModel(CONVERSATION);
  for (const item of stored(messages))
    expect(model.apply(item) === null || item.direction === 'in').toBe(true);
  return model;
}

/** A seeded generator (mulberry32), so every ordering is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

const ORDERINGS: readonly (readonly [string, (messages: ConversationMessage[]) => ConversationMessage[]])[] =
  [
    ['as sent', (messages) => messages],
    ['reversed', (messages) => [...messages].reverse()],
    [
      'Surface messages first',
      (messages) => [
        ...messages.filter(
          (item) =>
            item.message.type.startsWith('lineup.v1.ui.') && item.message.type !== 'lineup.v1.ui.checkpoint',
        ),
        ...messages.filter(
          (item) =>
            !(
              item.message.type.startsWith('lineup.v1.ui.') && item.message.type !== 'lineup.v1.ui.checkpoint'
            ),
        ),
      ],
    ],
    ...[1, 2, 3, 5, 8, 13, 21, 34].map(
      (seed) =>
        [
          `shuffled (seed ${seed})`,
          (messages: ConversationMessage[]) => shuffled(messages, seeded(seed)),
        ] as const,
    ),
  ];

describe('ConversationModel: replay equivalence', () => {
  it('the realistic conversation shows what it should', () => {
    const model = replay(realisticConversation());
    expect(model.entries.map((entry) => entry.kind)).toEqual([
      'note', // inventory
      'chat', // the user's question
      'chat', // the agent's answer (weather.1, opened next, was closed by the agent at the end)
      'note', // tool.progress
      'checkpoints',
      'note', // ui.event refresh
      'document',
      'note', // the user's close of counter.1
      'note', // patch of the closed counter.1, refused
      'note', // the forged frame, refused
      'surface', // counter.2
      'note', // unsupported, refused
      'chat',
      'chat',
    ]);
    expect(shownStates(model)).toEqual({ 'counter.2': { count: 9 } });
    expect(only(model, 'checkpoints').stream).toMatchObject({ seq: 5, status: 'completed' });
    expect(notes(model, 'refused').map((entry) => entry.text)).toEqual([
      'No open Surface counter.1 to patch.',
      expect.stringMatching(/^Refused a stream frame at seq: /),
      'The agent does not support lineup.v1.ui.spin we sent.',
    ]);
  });

  it('the agent closing weather.1 last is what removes it; before that it shows its latest state', () => {
    const messages = realisticConversation();
    const untilClose = messages.slice(
      0,
      messages.findIndex((item) => item.message.type === 'lineup.v1.ui.close'),
    );
    const model = replay(untilClose);
    expect(shownStates(model)).toEqual({
      'weather.1': { city: 'Shanghai', temperature: 28 },
      'counter.2': { count: 9 },
    });
    expect(surfaceOf(model, 'weather.1')?.label).toBe('Weather v2');
    // The re-open kept weather.1 where it first opened: right after the agent's first answer.
    expect(model.entries.findIndex((entry) => entry.kind === 'surface')).toBe(3);
  });

  describe.each(ORDERINGS)('ordering: %s', (_name, order) => {
    const messages = () => order(realisticConversation());

    it('live (with side effects) and a replay into a fresh model show the same entries and Surface states', () => {
      const sequence = messages();
      const live = new ConversationModel(CONVERSATION);
      const frames = new Frames();
      playLive(live, frames, sequence);
      const replayed = replay(sequence);
      expect(replayed.entries).toEqual(live.entries);
      expect(shownStates(replayed)).toEqual(shownStates(live));
      // The live frames show what a frame mounted from the replayed entries opens with.
      expect(frames.states()).toEqual(shownStates(replayed));
    });

    it('live with React batching several envelopes per commit ends in the same frames', () => {
      const sequence = messages();
      const live = new ConversationModel(CONVERSATION);
      const frames = new Frames();
      const random = seeded(sequence.length * 7919);
      playLive(live, frames, sequence, () => random() < 0.3);
      expect(live.entries).toEqual(replay(sequence).entries);
      expect(frames.states()).toEqual(shownStates(live));
    });

    it.each([0, 5, 12, 20])(
      'a page load: %i stored records, then live envelopes that repeat some of them',
      (cut) => {
        const sequence = messages();
        const model = new ConversationModel(CONVERSATION);
        for (const item of stored(sequence.slice(0, cut))) model.apply(item);
        const frames = new Frames();
        frames.render(model.entries);
        // The connection had already handed over the last few stored ones: they arrive again, live.
        const storedIds = new Set(sequence.slice(0, cut).map((item) => item.message.id));
        playLive(model, frames, sequence.slice(Math.max(0, cut - 3)), undefined, storedIds);
        expect(model.entries).toEqual(replay(sequence).entries);
        expect(frames.states()).toEqual(shownStates(model));
      },
    );

    it('every envelope applied a second time, anywhere later, changes nothing', () => {
      const sequence = messages();
      const random = seeded(sequence.length * 104729);
      const withRepeats: ConversationMessage[] = [];
      const later: ConversationMessage[] = [];
      for (const item of sequence) {
        withRepeats.push(item);
        later.push(...stored([item]));
        // Some repeats arrive right away, the rest at random later points.
        while (later.length > 0 && random() < 0.5)
          withRepeats.push(later.splice(Math.floor(random() * later.length), 1)[0]!);
      }
      withRepeats.push(...later);
      const model = new ConversationModel(CONVERSATION);
      const frames = new Frames();
      playLive(model, frames, withRepeats);
      expect(model.entries).toEqual(replay(sequence).entries);
      expect(frames.states()).toEqual(shownStates(model));
    });
  });

  it('queued turns replayed as pending and then sent live end as a live run does', () => {
    const question = userSays('queued question');
    const event = uiEvent('counter.1', 'increment');
    const sequence: ConversationMessage[] = [
      received(open('counter.1', { count: 0 })),
      sent(question, true),
      sent(event, true),
      received(agentSays('back')),
    ];
    const live = new ConversationModel(CONVERSATION);
    for (const item of sequence) live.apply(item);
    live.apply(sent(question));
    live.apply(sent(event));

    const reloaded = new ConversationModel(CONVERSATION);
    for (const item of stored(sequence)) reloaded.apply(item); // the records still say queued
    reloaded.apply(sent(question)); // then the transport sends them
    reloaded.apply(sent(event));
    expect(reloaded.entries).toEqual(live.entries);
    expect(reloaded.entries.some((entry) => 'pending' in entry && entry.pending === true)).toBe(false);
  });
});
