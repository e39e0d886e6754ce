/**
 * The pool of spare frames in jsdom: its size (refused when out of range), which spare a mount takes, that a
 * frame that held a Surface never comes back, and that the pool keeps its count. Each test gets a window of its
 * own (a jsdom frame), so that pools do not carry over. jsdom has no `Element.moveBefore`; a plain move stands
 * in for it (jsdom loads no frame documents, so nothing reloads either way). Real frames are moved in
 * Chromium by the hostile-Surface suite (e2e/, `warm` and `pool`).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_SPARE_SURFACE_FRAMES, prepareSurfaceFrame } from './frame-link.js';
import { mountSurface, type SurfaceHandle } from './surface-frame.js';

const handles: SurfaceHandle[] = [];

afterEach(() => {
  for (const handle of handles.splice(0)) handle.close();
  document.body.innerHTML = '';
});

/** A host window of its own; `movable` gives it `Element.moveBefore`. */
function host({ movable = true } = {}) {
  const outer = document.body.appendChild(document.createElement('iframe'));
  const view = outer.contentWindow as Window & typeof globalThis;
  const hostDocument = outer.contentDocument as Document;
  if (movable)
    Object.defineProperty(view.Element.prototype, 'moveBefore', {
      configurable: true,
      value(this: Element, node: Node, child: Node | null) {
        this.insertBefore(node, child);
      },
    });
  const spares = () => [
    ...hostDocument.querySelectorAll<HTMLIFrameElement>('[data-lineup-spare-surface] > iframe'),
  ];
  const container = () => hostDocument.body.appendChild(hostDocument.createElement('div'));
  const mount = (instanceId: string) => {
    const handle = mountSurface(container(), {
      instanceId,
      bundle: { name: instanceId, html: '<main></main>', css: '', js: '' },
      state: {},
      onEvent: vi.fn(),
    });
    handles.push(handle);
    return handle;
  };
  /** What a browser does once a spare's Surface document has run: its `ready`, with the channel's port. */
  const load = (frame: HTMLIFrameElement) => {
    const wrapper = frame.contentDocument as Document;
    const content = wrapper.body.appendChild(wrapper.createElement('iframe')).contentWindow;
    const port = { onmessage: null, postMessage: vi.fn(), close: vi.fn() };
    const ready = new view.Event('message');
    Object.assign(ready, {
      data: { namespace: 'lineup.surface.v1', type: 'ready' },
      source: content,
      origin: 'null',
      ports: [port],
    });
    view.dispatchEvent(ready);
    return port;
  };
  return { view, document: hostDocument, spares, mount, load };
}

describe('prepareSurfaceFrame: the pool size', () => {
  it.each([
    ['0', 0],
    ['a negative number', -1],
    ['a fraction', 1.5],
    ['more than the maximum', MAX_SPARE_SURFACE_FRAMES + 1],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a string', '2'],
    ['null', null],
  ])('refuses %s with a TypeError, loading nothing', (_name, frames) => {
    const { document: hostDocument, spares } = host();
    expect(() => prepareSurfaceFrame(hostDocument, { frames: frames as number })).toThrow(
      new TypeError('prepareSurfaceFrame: options.frames must be a whole number from 1 to 8.'),
    );
    expect(spares()).toHaveLength(0);
  });

  it('refuses a bad size also where frames cannot be moved', () => {
    const { document: hostDocument } = host({ movable: false });
    expect(() => prepareSurfaceFrame(hostDocument, { frames: 0 })).toThrow(TypeError);
  });

  it('keeps one spare by default, however often it is called', () => {
    const { document: hostDocument, spares } = host();
    prepareSurfaceFrame(hostDocument);
    const [first] = spares();
    prepareSurfaceFrame(hostDocument);
    expect(spares()).toEqual([first]);
  });

  it('keeps as many sandboxed spares as asked, up to the maximum, each with documents of its own', () => {
    const { document: hostDocument, spares } = host();
    prepareSurfaceFrame(hostDocument, { frames: 3 });
    expect(spares()).toHaveLength(3);
    for (const frame of spares()) expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    expect(new Set(spares().map((frame) => frame.srcdoc)).size).toBe(3); // a nonce each
    prepareSurfaceFrame(hostDocument, { frames: MAX_SPARE_SURFACE_FRAMES });
    expect(spares()).toHaveLength(MAX_SPARE_SURFACE_FRAMES);
  });

  it('keeps the size it was given when called again without one', () => {
    const { document: hostDocument, spares } = host();
    prepareSurfaceFrame(hostDocument, { frames: 3 });
    prepareSurfaceFrame(hostDocument);
    expect(spares()).toHaveLength(3);
  });

  it('discards the newest spares, with their holders, when asked for fewer', () => {
    const { document: hostDocument, spares } = host();
    prepareSurfaceFrame(hostDocument, { frames: 4 });
    const [first, second, third, fourth] = spares();
    prepareSurfaceFrame(hostDocument, { frames: 2 });
    expect(spares()).toEqual([first, second]);
    expect(third?.isConnected).toBe(false);
    expect(fourth?.isConnected).toBe(false);
    expect(hostDocument.querySelectorAll('[data-lineup-spare-surface]')).toHaveLength(2);
  });

  it('loads nothing where frames cannot be moved: every Surface loads a frame of its own', async () => {
    const { document: hostDocument, spares, mount } = host({ movable: false });
    prepareSurfaceFrame(hostDocument, { frames: 2 });
    expect(spares()).toHaveLength(0);
    const handle = mount('a');
    expect(handle.frame.parentElement?.hasAttribute('data-lineup-spare-surface')).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(spares()).toHaveLength(0);
  });
});

describe('mountSurface with a pool of spare frames', () => {
  it('gives Surfaces opening at once a loaded spare each, and sends each bundle at the mount', () => {
    const { document: hostDocument, spares, mount, load } = host();
    prepareSurfaceFrame(hostDocument, { frames: 3 });
    const frames = spares();
    const ports = frames.map(load);
    const opened = ['a', 'b', 'c'].map(mount);
    expect(opened.map((handle) => handle.frame)).toEqual(frames);
    opened.forEach((handle, index) => {
      expect(handle.ready).toBe(true);
      expect(ports[index]?.postMessage).toHaveBeenCalledWith(
        expect.objectContaining({ type: 'start', instance_id: handle.instanceId }),
      );
    });
    expect(spares()).toHaveLength(0);
  });

  it('sends the width the host laid the spare out at in start, and none while it has no layout', () => {
    const { document: hostDocument, spares, mount, load } = host();
    prepareSurfaceFrame(hostDocument, { frames: 2 });
    const [wide, hidden] = spares() as [HTMLIFrameElement, HTMLIFrameElement];
    // jsdom has no layout: the widths the host would read after the move.
    Object.defineProperty(wide, 'clientWidth', { configurable: true, value: 498 });
    Object.defineProperty(hidden, 'clientWidth', { configurable: true, value: 0 });
    const [widePort, hiddenPort] = [wide, hidden].map(load) as [
      ReturnType<typeof load>,
      ReturnType<typeof load>,
    ];
    mount('a');
    mount('b');
    expect(widePort.postMessage).toHaveBeenCalledWith(expect.objectContaining({ type: 'start', width: 498 }));
    const [hiddenStart] = hiddenPort.postMessage.mock.calls[0] as [Record<string, unknown>];
    expect(hiddenStart.type).toBe('start');
    expect(hiddenStart).not.toHaveProperty('width');
  });

  it('takes a spare that has loaded before one that is still loading', () => {
    const { document: hostDocument, spares, mount, load } = host();
    prepareSurfaceFrame(hostDocument, { frames: 2 });
    const [loading, loaded] = spares() as [HTMLIFrameElement, HTMLIFrameElement];
    load(loaded);
    const handle = mount('a');
    expect(handle.frame).toBe(loaded);
    expect(handle.ready).toBe(true);
    expect(spares()).toEqual([loading]);
  });

  it('sends the bundle to a spare taken while loading once it loads, and none to a frame loaded for the Surface', () => {
    const { view, document: hostDocument, spares, mount, load } = host();
    prepareSurfaceFrame(hostDocument, { frames: 1 });
    const [loading] = spares() as [HTMLIFrameElement];
    const spent = mount('a');
    expect(spent.frame).toBe(loading);
    expect(spent.ready).toBe(false);
    const port = load(loading);
    expect(spent.ready).toBe(true);
    expect(port.postMessage.mock.calls.map(([message]) => message.type)).toEqual(['start', 'state']);
    // No spare left (the pool refills later): this frame's documents carry its bundle, and only state is sent.
    const own = mount('b');
    expect(own.frame.parentElement?.hasAttribute('data-lineup-spare-surface')).toBe(false);
    const content = new view.DOMParser()
      .parseFromString(own.frame.srcdoc, 'text/html')
      .querySelector('iframe');
    expect(content?.getAttribute('srcdoc')).toContain('"start":{"instance_id":"b"');
    const ownPort = load(own.frame);
    expect(ownPort.postMessage.mock.calls.map(([message]) => message.type)).toEqual(['state']);
  });

  it('never returns a frame that held a Surface: closing removes it, and new frames fill the pool', async () => {
    const { document: hostDocument, spares, mount } = host();
    prepareSurfaceFrame(hostDocument, { frames: 2 });
    const used = [mount('a'), mount('b')].map((handle) => {
      handle.close();
      return handle.frame;
    });
    for (const frame of used) expect(frame.isConnected).toBe(false);
    await vi.waitFor(() => expect(spares()).toHaveLength(2));
    for (const frame of spares()) expect(used).not.toContain(frame);
    expect(used).not.toContain(mount('c').frame);
  });

  it('keeps its count: a spent spare is replaced once the host is idle, not at once', async () => {
    const { document: hostDocument, spares, mount } = host();
    prepareSurfaceFrame(hostDocument, { frames: 3 });
    mount('a');
    mount('b');
    expect(spares()).toHaveLength(1);
    await vi.waitFor(() => expect(spares()).toHaveLength(3));
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(spares()).toHaveLength(3);
  });

  it("loads spares at the width of the latest Surface's frame while it is there", async () => {
    const { document: hostDocument, spares, mount, load } = host();
    prepareSurfaceFrame(hostDocument, { frames: 2 });
    const holderWidths = () => spares().map((frame) => frame.parentElement?.style.width);
    expect(holderWidths()).toEqual(['100%', '100%']);
    for (const frame of spares()) load(frame);
    const open = mount('a');
    // jsdom has no layout: the width the host lays the moved frame out at.
    Object.defineProperty(open.frame, 'clientWidth', { configurable: true, value: 640 });
    // The spare left is resized once the host is idle, not at the mount; the new one loads at that width.
    expect(holderWidths()).toEqual(['100%']);
    await vi.waitFor(() => expect(spares()).toHaveLength(2));
    expect(holderWidths()).toEqual(['640px', '640px']);
  });

  it('loads spares at the width the last mount laid its frame out at once that frame is gone', async () => {
    const { document: hostDocument, spares, mount, load } = host();
    prepareSurfaceFrame(hostDocument, { frames: 1 });
    const [spare] = spares() as [HTMLIFrameElement];
    Object.defineProperty(spare, 'clientWidth', { configurable: true, value: 498 });
    load(spare);
    mount('a').close();
    await vi.waitFor(() => expect(spares()).toHaveLength(1));
    expect(spares()[0]?.parentElement?.style.width).toBe('498px');
  });

  it('starts a pool of one spare at the first mount of a document that prepared none', async () => {
    const { spares, mount } = host();
    mount('a');
    await vi.waitFor(() => expect(spares()).toHaveLength(1));
  });

  it('does not move spares the host removed from its document, and loads new ones', async () => {
    const { document: hostDocument, spares, mount } = host();
    prepareSurfaceFrame(hostDocument, { frames: 2 });
    const removed = spares();
    hostDocument.body.replaceChildren();
    const handle = mount('a');
    expect(removed).not.toContain(handle.frame);
    await vi.waitFor(() => expect(spares()).toHaveLength(2));
    for (const frame of spares()) expect(removed).not.toContain(frame);
  });
});
