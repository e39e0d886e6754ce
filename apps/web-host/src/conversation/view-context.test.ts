import { VIEW_CONTEXT_LIMITS } from '@lineup/shared/protocol';
import { describe, expect, it } from 'vitest';
import { keptViewContexts, ViewContexts } from './view-context.ts';

const source = (callId: string, conversationId = 'conv_a') => ({
  conversationId,
  callId,
  tool: 'map.show_map',
  server: 'Map',
});
const text = (...parts: string[]) => ({ content: parts.map((part) => ({ type: 'text', text: part })) });

describe('ViewContexts', () => {
  it("keeps each view's latest context, replaced not appended, until the user's next turn takes it once", () => {
    const contexts = new ViewContexts();
    let changes = 0;
    contexts.onChange(() => {
      changes += 1;
    });
    contexts.update(source('call_1'), text('Paris'));
    contexts.update(source('call_2'), { structuredContent: { selected: 'cafe-a' } });
    contexts.update(source('call_1'), { ...text('Lyon', 'zoom 11'), structuredContent: { zoom: 11 } });
    contexts.update(source('call_3', 'conv_b'), text('elsewhere'));
    expect(contexts.waiting('conv_a').map((item) => item.context)).toEqual([
      { call_id: 'call_2', tool: 'map.show_map', data: { selected: 'cafe-a' } },
      { call_id: 'call_1', tool: 'map.show_map', text: 'Lyon\nzoom 11', data: { zoom: 11 } },
    ]);
    expect(contexts.take('conv_a').map((item) => item.context.call_id)).toEqual(['call_2', 'call_1']);
    expect(contexts.take('conv_a')).toEqual([]);
    expect(contexts.waiting('conv_b')).toHaveLength(1);
    expect(changes).toBe(5);
  });

  it('an empty update withdraws what the view said; forget drops it', () => {
    const contexts = new ViewContexts();
    contexts.update(source('call_1'), text('Paris'));
    contexts.update(source('call_1'), { content: [] });
    expect(contexts.waiting('conv_a')).toEqual([]);
    contexts.update(source('call_1'), text('Paris'));
    contexts.update(source('call_1'), text('   '));
    expect(contexts.waiting('conv_a')).toEqual([]);
    contexts.update(source('call_2'), text('Rome'));
    contexts.forget('conv_a', 'call_2');
    expect(contexts.waiting('conv_a')).toEqual([]);
  });

  it.each([
    [
      'an image',
      { content: [{ type: 'image', data: 'iVBOR', mimeType: 'image/png' }] },
      /not "image" content/,
    ],
    ['a resource link', { content: [{ type: 'resource_link', uri: 'file:///x' }] }, /not "resource_link"/],
    ['too much text', text('x'.repeat(VIEW_CONTEXT_LIMITS.maxTextLength + 1)), /at most 4096 characters/],
    ['a control character', text('bell \u0007'), /no control characters/],
    [
      'too much data',
      { structuredContent: { blob: 'x'.repeat(VIEW_CONTEXT_LIMITS.maxDataBytes) } },
      /at most 8192 bytes/,
    ],
  ])('refuses %s with why, and keeps what was there', (_name, update, reason) => {
    const contexts = new ViewContexts();
    contexts.update(source('call_1'), text('before'));
    expect(() => contexts.update(source('call_1'), update as never)).toThrow(reason);
    expect(contexts.waiting('conv_a').map((item) => item.context.text)).toEqual(['before']);
  });

  it(`lets at most ${VIEW_CONTEXT_LIMITS.maxViews} views' contexts wait; a waiting one may still change`, () => {
    const contexts = new ViewContexts();
    for (let index = 0; index < VIEW_CONTEXT_LIMITS.maxViews; index++)
      contexts.update(source(`call_${index}`), text(`view ${index}`));
    expect(() => contexts.update(source('call_extra'), text('one more'))).toThrow(/already waits/);
    contexts.update(source('call_0'), text('changed'));
    expect(contexts.waiting('conv_a')).toHaveLength(VIEW_CONTEXT_LIMITS.maxViews);
    expect(contexts.waiting('conv_a').at(-1)?.context.text).toBe('changed');
  });

  it('gives back what a turn that was not sent took, behind what views said since, within the bound', () => {
    const contexts = new ViewContexts();
    contexts.update(source('call_1'), text('old one'));
    contexts.update(source('call_2'), text('old two'));
    const taken = contexts.take('conv_a');
    contexts.update(source('call_2'), text('new two'));
    contexts.giveBack('conv_a', taken);
    expect(contexts.waiting('conv_a').map((item) => item.context.text)).toEqual(['old one', 'new two']);
    // Full of newer ones: the oldest given back is the one left out.
    const full = new ViewContexts();
    full.update(source('call_a'), text('a'));
    full.update(source('call_b'), text('b'));
    const earlier = full.take('conv_a');
    for (let index = 0; index < VIEW_CONTEXT_LIMITS.maxViews - 1; index++)
      full.update(source(`call_${index}`), text(`view ${index}`));
    full.giveBack('conv_a', earlier);
    expect(full.waiting('conv_a')).toHaveLength(VIEW_CONTEXT_LIMITS.maxViews);
    expect(full.waiting('conv_a')[0]?.context.text).toBe('b');
  });
});

describe('ViewContexts kept with the conversation', () => {
  /** A store that keeps each conversation's latest save, as JSON (what IndexedDB would hold), and can be slow. */
  function memoryStore() {
    const saved = new Map<string, unknown>();
    const saves: string[] = [];
    let hold: Promise<void> = Promise.resolve();
    return {
      saved,
      saves,
      holdUntil(until: Promise<void>) {
        hold = until;
      },
      store: {
        save: async (conversationId: string, waiting: readonly unknown[]) => {
          saves.push(conversationId);
          await hold;
          saved.set(conversationId, JSON.parse(JSON.stringify(waiting)));
        },
      },
    };
  }

  it('a page loaded again gets back what waited, once, and a turn that took it leaves nothing to send again', async () => {
    const memory = memoryStore();
    const before = new ViewContexts();
    before.keepIn(memory.store);
    before.update(source('call_1'), text('Paris'));
    before.update(source('call_2'), { structuredContent: { zoom: 11 } });
    before.update(source('call_3', 'conv_b'), text('elsewhere'));
    await before.settled();

    // The reload: a new page, the conversation read back.
    const after = new ViewContexts();
    after.keepIn(memory.store);
    after.restore('conv_a', memory.saved.get('conv_a'));
    expect(after.waiting('conv_a')).toEqual(before.waiting('conv_a'));
    expect(after.waiting('conv_b')).toEqual([]);
    // Read back again in the same page (a switch back to it): nothing is added twice, nothing taken comes back.
    const taken = after.take('conv_a');
    expect(taken.map((item) => item.context.call_id)).toEqual(['call_1', 'call_2']);
    await after.settled();
    after.restore('conv_a', [{ context: taken[0]?.context, server: 'Map' }]);
    expect(after.waiting('conv_a')).toEqual([]);
    expect(memory.saved.get('conv_a')).toEqual([]);
    // And a later page reads back nothing to send.
    const later = new ViewContexts();
    later.restore('conv_a', memory.saved.get('conv_a'));
    expect(later.waiting('conv_a')).toEqual([]);
  });

  it('settled() waits for the write of a take, so a turn is recorded only after the store forgot what it carries', async () => {
    const memory = memoryStore();
    const contexts = new ViewContexts();
    contexts.keepIn(memory.store);
    contexts.update(source('call_1'), text('Paris'));
    await contexts.settled();
    let release: () => void = () => {};
    memory.holdUntil(
      new Promise((resolve) => {
        release = resolve;
      }),
    );
    contexts.take('conv_a');
    let settled = false;
    void contexts.settled().then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled).toBe(false);
    expect(memory.saved.get('conv_a')).toHaveLength(1);
    release();
    await contexts.settled();
    expect(settled).toBe(true);
    expect(memory.saved.get('conv_a')).toEqual([]);
  });

  it('writes every change in order, so the store ends with the latest; a view closed is forgotten there too', async () => {
    const memory = memoryStore();
    const contexts = new ViewContexts();
    const stop = contexts.keepIn(memory.store);
    contexts.update(source('call_1'), text('one'));
    contexts.update(source('call_1'), text('two'));
    contexts.update(source('call_2'), text('other'));
    contexts.forget('conv_a', 'call_2');
    await contexts.settled();
    expect(memory.saves).toEqual(['conv_a', 'conv_a', 'conv_a', 'conv_a']);
    expect(memory.saved.get('conv_a')).toEqual([
      { context: { call_id: 'call_1', tool: 'map.show_map', text: 'two' }, server: 'Map' },
    ]);
    // A refused update writes nothing; after stop(), nothing is written.
    expect(() => contexts.update(source('call_1'), text('bell \u0007'))).toThrow();
    stop();
    contexts.update(source('call_1'), text('three'));
    await contexts.settled();
    expect(memory.saves).toHaveLength(4);
  });

  it('a view that spoke before the conversation was read back keeps its newer context; the bound holds', () => {
    const contexts = new ViewContexts();
    contexts.update(source('call_1'), text('newer'));
    const saved = Array.from({ length: VIEW_CONTEXT_LIMITS.maxViews }, (_, index) => ({
      context: { call_id: `kept_${index}`, tool: 'map.show_map', text: `kept ${index}` },
      server: 'Map',
    }));
    contexts.restore('conv_a', saved);
    const waiting = contexts.waiting('conv_a');
    expect(waiting).toHaveLength(VIEW_CONTEXT_LIMITS.maxViews);
    expect(waiting.at(-1)?.context).toEqual({ call_id: 'call_1', tool: 'map.show_map', text: 'newer' });
    expect(waiting[0]?.context.call_id).toBe('kept_1');
  });

  it.each<[string, unknown]>([
    ['nothing', undefined],
    ['not a list', { context: {} }],
    ['a list of other things', [1, 'two', null]],
    ['a context without a server', [{ context: { call_id: 'call_1', tool: 'map.show_map', text: 'x' } }]],
    [
      'a server name too long',
      [{ context: { call_id: 'c', tool: 't', text: 'x' }, server: 'x'.repeat(257) }],
    ],
    [
      'a context off its schema',
      [{ context: { call_id: 'call_1', tool: 'map.show_map', text: 'bell \u0007' }, server: 'Map' }],
    ],
    [
      'a context with no text or data',
      [{ context: { call_id: 'call_1', tool: 'map.show_map' }, server: 'Map' }],
    ],
  ])('reads back %s as nothing waiting', (_name, saved) => {
    expect(keptViewContexts(saved)).toEqual([]);
  });
});
