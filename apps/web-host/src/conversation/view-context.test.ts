import { VIEW_CONTEXT_LIMITS } from '@lineup/shared/protocol';
import { describe, expect, it } from 'vitest';
import { ViewContexts } from './view-context.ts';

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
