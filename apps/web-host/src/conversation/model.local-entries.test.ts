/**
 * The conversation model, as the view drives it: the entries the view adds itself, its listeners, and a burst
 * of thousands of envelopes.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  agentSays,
  CONVERSATION,
  close,
  notes,
  open,
  patch,
  received,
  sent,
  surfaceOf,
  userSays,
  watched,
} from '../../test/conversation-model.ts';
import { ConversationModel, type Entry } from './model.ts';

// --- Local entries and listeners -------------------------------------------------------------------------------

describe('ConversationModel: local entries and listeners', () => {
  it('add returns distinct, increasing keys shared with applied envelopes', () => {
    const model = new ConversationModel(CONVERSATION);
    const keys = [
      model.add({ kind: 'stream', label: 'Streamed interface' }),
      model.add({ kind: 'document', label: 'Pasted document', document: { any: 'thing' } }),
    ];
    model.apply(received(agentSays('between')));
    keys.push(model.add({ kind: 'note', label: 'Refused', tone: 'refused', text: 'no' }));
    const all = model.entries.map((entry) => entry.key);
    expect(new Set(all).size).toBe(4);
    expect(all).toEqual([...all].sort((a, b) => a - b));
    expect(keys).toEqual([all[0], all[1], all[3]]);
    // A local entry is not an agent message.
    expect(model.entries[0]?.messageId).toBeUndefined();
    expect(model.entries[2]?.messageId).toBeDefined();
  });

  it('removeSurface removes only the Surface of that instance', () => {
    const model = new ConversationModel(CONVERSATION);
    model.apply(received(open('counter.1', { count: 1 })));
    model.apply(received(open('counter.2', { count: 2 })));
    model.add({ kind: 'note', label: 'Refused', tone: 'refused', text: 'counter.1' });
    model.removeSurface('counter.1');
    expect(model.entries.map((entry) => entry.kind)).toEqual(['surface', 'note']);
    expect(surfaceOf(model, 'counter.2')).toBeDefined();
  });

  it('calls listeners on every change and not after they unsubscribe', () => {
    const model = new ConversationModel(CONVERSATION);
    const first = vi.fn();
    const second = vi.fn();
    const stopFirst = model.subscribe(first);
    model.subscribe(second);
    model.add({ kind: 'stream', label: 'Streamed interface' });
    model.apply(received(open('counter.1', { count: 1 })));
    model.apply(received(patch('counter.1', { count: 2 })));
    expect(first).toHaveBeenCalledTimes(3);
    stopFirst();
    model.apply(received(close('counter.1')));
    model.apply(sent(userSays('after')));
    expect(first).toHaveBeenCalledTimes(3);
    expect(second).toHaveBeenCalledTimes(5);
  });

  it('a listener sees the new entries when it is called', () => {
    const model = new ConversationModel(CONVERSATION);
    const seen: number[] = [];
    model.subscribe(() => seen.push(model.entries.length));
    model.apply(received(agentSays('one')));
    model.apply(received(agentSays('two')));
    expect(seen).toEqual([1, 2]);
  });

  it('a listener that unsubscribes while called does not keep the others from being called', () => {
    const model = new ConversationModel(CONVERSATION);
    const later = vi.fn();
    const stop: { current: () => void } = { current: () => {} };
    stop.current = model.subscribe(() => stop.current());
    model.subscribe(later);
    model.add({ kind: 'stream', label: 'Streamed interface' });
    model.add({ kind: 'stream', label: 'Streamed interface' });
    expect(later).toHaveBeenCalledTimes(2);
  });

  it('entries keep their identity between changes (a stable snapshot for useSyncExternalStore)', () => {
    const model = new ConversationModel(CONVERSATION);
    model.apply(received(agentSays('one')));
    const first = model.entries;
    expect(model.entries).toBe(first);
    model.apply(received(agentSays('two')));
    expect(model.entries).not.toBe(first);
    expect(first).toHaveLength(1);
  });
});

describe('ConversationModel: a burst', () => {
  it('takes 5,000 agent messages in order, each once, without changing an array it handed out', () => {
    const { model, listener } = watched();
    const handedOut: (readonly Entry[])[] = [];
    for (let index = 1; index <= 5_000; index++) {
      model.apply(received(agentSays(`turn ${index}`)));
      if (index % 1_000 === 0) handedOut.push(model.entries);
    }
    expect(model.size).toBe(5_000);
    expect(listener).toHaveBeenCalledTimes(5_000);
    const texts = model.entries.map((entry) => (entry.kind === 'chat' ? entry.text : ''));
    expect(texts[0]).toBe('turn 1');
    expect(texts.at(-1)).toBe('turn 5000');
    expect(new Set(model.entries.map((entry) => entry.key)).size).toBe(5_000);
    // Arrays handed out earlier are snapshots: a view that rendered one is never changed under it.
    expect(handedOut.map((entries) => entries.length)).toEqual([1_000, 2_000, 3_000, 4_000, 5_000]);
  });

  it('finds the right Surface to patch and close after others were removed before it', () => {
    const model = new ConversationModel(CONVERSATION);
    for (const id of ['s.1', 's.2', 's.3', 's.4']) {
      model.apply(received(open(id, { count: 0 })));
      model.apply(received(agentSays(`after ${id}`)));
    }
    model.apply(received(close('s.1')));
    model.removeSurface('s.3');
    model.apply(received(patch('s.4', { count: 4 })));
    model.apply(received(patch('s.2', { count: 2 })));
    expect(surfaceOf(model, 's.2')?.state).toEqual({ count: 2 });
    expect(surfaceOf(model, 's.4')?.state).toEqual({ count: 4 });
    expect(surfaceOf(model, 's.1')).toBeUndefined();
    expect(surfaceOf(model, 's.3')).toBeUndefined();
    // A patch for a removed Surface is refused, not applied to a neighbour.
    model.apply(received(patch('s.3', { count: 3 })));
    expect(notes(model, 'refused').at(-1)?.text).toBe('No open Surface s.3 to patch.');
    const keys = model.entries.map((entry) => entry.key);
    expect(keys).toEqual([...keys].sort((a, b) => a - b));
  });
});
