/**
 * The host end of the channel in jsdom: the frames it builds, the one `ready` it accepts, what travels on the
 * port, rates, reports, focus, patch and close. The real sandbox, CSP, containment and ports are proven in
 * Chromium (e2e/containment.spec.ts); here the content frame is a nested jsdom frame and the port a fake.
 */
import { LineUpProtocolError } from '@lineup/shared';
import { SURFACE_CHANNEL_LIMITS } from '@lineup/shared/bridge';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FORBIDDEN_SANDBOX_TOKENS, SURFACE_CSP, SURFACE_PERMISSIONS_POLICY } from './sandbox.js';
import {
  mountSurface,
  RESIZE_CHANGES_PER_SECOND,
  RESIZE_SHRINK_TOLERANCE,
  type SurfaceHandle,
} from './surface-frame.js';

const BUNDLE = { name: '天气面板', html: '<main></main>', css: '', js: '' };
const INSTANCE = 'weather.dashboard.01';
let handle: SurfaceHandle | undefined;

beforeEach(() => {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'performance', 'requestAnimationFrame', 'cancelAnimationFrame'],
  });
});

afterEach(() => {
  handle?.close();
  handle = undefined;
  document.body.innerHTML = '';
  vi.useRealTimers();
});

interface FakePort {
  onmessage: ((event: { data: unknown }) => void) | null;
  postMessage: ReturnType<typeof vi.fn>;
  close: ReturnType<typeof vi.fn>;
}

const message = (type: string, extra: object = {}) => ({
  namespace: 'lineup.surface.v1',
  type,
  instance_id: INSTANCE,
  ...extra,
});
const READY = { namespace: 'lineup.surface.v1', type: 'ready' };

function mount(overrides: Partial<Parameters<typeof mountSurface>[1]> = {}) {
  const onEvent = vi.fn();
  const onRejected = vi.fn();
  handle = mountSurface(document.body, {
    instanceId: INSTANCE,
    bundle: BUNDLE,
    state: { city: '北京' },
    onEvent,
    onRejected,
    ...overrides,
  });
  const frame = handle.frame;
  // What the wrapper document does in a browser: one nested frame, where the Surface runs.
  const wrapper = frame.contentDocument as Document;
  const inner = wrapper.createElement('iframe');
  wrapper.body.appendChild(inner);
  const content = inner.contentWindow as Window;
  /** Dispatches a window message as the browser would, from `source`. */
  const windowMessage = (
    data: unknown,
    source: unknown = content,
    origin = 'null',
    ports: unknown[] = [],
  ) => {
    const event = new Event('message');
    Object.assign(event, { data, source, origin, ports });
    window.dispatchEvent(event);
  };
  const port: FakePort = { onmessage: null, postMessage: vi.fn(), close: vi.fn() };
  const connect = () => windowMessage(READY, content, 'null', [port]);
  const fromPort = (data: unknown) => port.onmessage?.({ data });
  return { onEvent, onRejected, frame, content, wrapper, windowMessage, port, connect, fromPort };
}

describe('mountSurface: the frames', () => {
  it('mounts a sandboxed frame with scripts only, every powerful feature off, holding the wrapper', () => {
    const { frame } = mount();
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    const tokens = frame.getAttribute('sandbox')!.split(/\s+/);
    for (const token of FORBIDDEN_SANDBOX_TOKENS) expect(tokens).not.toContain(token);
    expect(frame.getAttribute('allow')).toBe(SURFACE_PERMISSIONS_POLICY);
    expect(frame.getAttribute('csp')).toBe(SURFACE_CSP);
    expect(frame.getAttribute('title')).toBe('天气面板');
    expect(frame.getAttribute('src')).toBeNull();
    // The wrapper has no script, and holds the content frame, sandboxed again. A frame loaded for the Surface
    // carries its bundle as data of the prelude's one script: none of it is markup of either document.
    const wrapper = new DOMParser().parseFromString(frame.srcdoc, 'text/html');
    expect(wrapper.querySelectorAll('script')).toHaveLength(0);
    const inner = wrapper.querySelector('iframe');
    expect(inner?.getAttribute('sandbox')).toBe('allow-scripts');
    const content = new DOMParser().parseFromString(inner?.getAttribute('srcdoc') as string, 'text/html');
    expect(content.querySelectorAll('main')).toHaveLength(0);
    expect(content.body.children).toHaveLength(1);
    expect(content.querySelector('script')?.textContent).toContain(
      `"start":{"instance_id":"${INSTANCE}","html":"\\u003cmain>\\u003c/main>","css":"","js":""}`,
    );
  });

  it.each([
    ['an iframe', '<iframe src="https://example.com"></iframe>'],
    ['a link', '<LINK rel=preconnect href="https://example.com">'],
    ['an object', '<object data="x"></object>'],
    ['an embed with a newline', '<embed\nsrc="x">'],
    ['a prefixed XML frame', '<h:iframe xmlns:h="http://www.w3.org/1999/xhtml"/>'],
  ])('refuses a bundle whose HTML holds %s, mounting nothing', (_name, html) => {
    expect(() =>
      mountSurface(document.body, {
        instanceId: 'a',
        bundle: { ...BUNDLE, html },
        state: {},
        onEvent: vi.fn(),
      }),
    ).toThrow(LineUpProtocolError);
    expect(document.querySelector('iframe')).toBeNull();
  });

  it.each([
    ['in its script', { html: '', css: '', js: 'j'.repeat(SURFACE_CHANNEL_LIMITS.maxBundleBytes + 1) }],
    // 163,840 bytes as UTF-8 in fewer characters: three bytes each, one over across the texts.
    [
      'across its texts, counted as UTF-8',
      { html: '番'.repeat(20_000), css: 'c'.repeat(20_000), js: '钟'.repeat(27_947) },
    ],
  ])('refuses a bundle over 160 KiB %s, mounting nothing', (_name, texts) => {
    let error: unknown;
    try {
      mountSurface(document.body, {
        instanceId: 'a',
        bundle: { ...BUNDLE, ...texts },
        state: {},
        onEvent: vi.fn(),
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(LineUpProtocolError);
    expect((error as LineUpProtocolError).issues).toEqual([
      expect.objectContaining({ path: 'app', code: 'too_large' }),
    ]);
    expect(document.querySelector('iframe')).toBeNull();
  });

  it('mounts a bundle of exactly 160 KiB', () => {
    const js = 'j'.repeat(SURFACE_CHANNEL_LIMITS.maxBundleBytes);
    handle = mountSurface(document.body, {
      instanceId: 'a',
      bundle: { ...BUNDLE, html: '', css: '', js },
      state: {},
      onEvent: vi.fn(),
    });
    expect(handle.frame.isConnected).toBe(true);
  });

  it('refuses an initial state that is not a JSON object, mounting nothing', () => {
    expect(() =>
      mountSurface(document.body, { instanceId: 'a', bundle: BUNDLE, state: [] as never, onEvent: vi.fn() }),
    ).toThrow(LineUpProtocolError);
    expect(document.querySelector('iframe')).toBeNull();
  });
});

describe('mountSurface: the channel', () => {
  it('takes the port of the first ready, sends the state on it, and turns events into ui.event', () => {
    const { onEvent, port, connect, fromPort } = mount();
    expect(handle!.ready).toBe(false);
    connect();
    expect(handle!.ready).toBe(true);
    // A frame loaded for the Surface has its bundle already (a spare gets `start`: frame-link.test.ts).
    expect(port.postMessage.mock.calls).toEqual([[message('state', { state: { city: '北京' } })]]);
    fromPort(message('event', { event: 'refresh', data: { unit: 'c' } }));
    expect(onEvent).toHaveBeenCalledWith({ instance_id: INSTANCE, event: 'refresh', data: { unit: 'c' } });
  });

  it('passes only the declared events of a Surface of an installed app, and reports the others', () => {
    const { onEvent, onRejected, connect, fromPort } = mount({ events: ['start', 'stop'] });
    connect();
    fromPort(message('event', { event: 'start', data: { minutes: 5 } }));
    fromPort(message('event', { event: 'steal', data: {} }));
    fromPort(message('event', { event: 'steal', data: {} }));
    fromPort(message('event', { event: 'stop', data: {} }));
    expect(onEvent.mock.calls.map(([event]) => event.event)).toEqual(['start', 'stop']);
    expect(onRejected).toHaveBeenCalledWith({ reason: 'undeclared_event', event: 'steal', count: 1 });
    vi.advanceTimersByTime(1_000);
    expect(onRejected).toHaveBeenLastCalledWith({ reason: 'undeclared_event', event: 'steal', count: 1 });
    expect(onRejected).toHaveBeenCalledTimes(2);
  });

  it('accepts ready only from the content frame, with the opaque origin and exactly one port', () => {
    const { port, windowMessage, content, frame, onRejected } = mount();
    windowMessage(READY, window, 'null', [port]); // not this Surface at all: not even reported
    expect(onRejected).not.toHaveBeenCalled();
    windowMessage(READY, content, 'null', []);
    windowMessage(READY, content, 'null', [port, port]);
    windowMessage(message('ready'), content, 'null', [port]); // ready names no instance
    expect(onRejected).toHaveBeenCalledWith(expect.objectContaining({ reason: 'invalid_message', count: 1 }));
    windowMessage(READY, frame.contentWindow, 'null', [port]); // the wrapper has no script
    windowMessage(READY, content, 'https://example.com', [port]);
    expect(onRejected).toHaveBeenCalledWith({ reason: 'foreign_message', count: 1 });
    expect(handle!.ready).toBe(false);
    expect(port.postMessage).not.toHaveBeenCalled();
  });

  it('never reads a window message after the handshake, and reports them once per second', () => {
    const { connect, windowMessage, onRejected, port } = mount();
    connect();
    for (let index = 0; index < SURFACE_CHANNEL_LIMITS.windowMessageBurst; index++) windowMessage(READY);
    expect(port.postMessage).toHaveBeenCalledTimes(1);
    expect(onRejected.mock.calls).toEqual([[{ reason: 'foreign_message', count: 1 }]]);
    vi.advanceTimersByTime(1_000);
    expect(onRejected).toHaveBeenLastCalledWith({
      reason: 'foreign_message',
      count: SURFACE_CHANNEL_LIMITS.windowMessageBurst - 1,
    });
    expect(handle!.closed).toBe(false);
  });

  it('removes a Surface that floods the host with window messages', () => {
    const { connect, windowMessage, onRejected } = mount();
    connect();
    for (let index = 0; index < 10_000; index++) windowMessage({ any: index });
    expect(handle!.closed).toBe(true);
    expect(document.querySelector('iframe')).toBeNull();
    expect(onRejected).toHaveBeenLastCalledWith({ reason: 'flooded' });
    expect(onRejected).toHaveBeenCalledTimes(2);
  });

  it('reports invalid port messages, and forwards nothing from them', () => {
    const { onEvent, onRejected, connect, fromPort } = mount();
    connect();
    for (const bad of [
      message('event', { event: 'close', data: {} }),
      message('event', { event: 'refresh', data: [] }),
      message('event', { event: 'refresh', data: { big: 'x'.repeat(16 * 1024) } }),
      message('event', { event: 'refresh', data: {}, instance_id: 'other' }),
      { ...message('event', { event: 'refresh', data: {} }), namespace: 'lineup.miniapp.v1' },
      message('call', { capability: 'clipboard.write' }),
      READY,
      'not an object',
    ])
      fromPort(bad);
    expect(onEvent).not.toHaveBeenCalled();
    expect(onRejected).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1_000);
    expect(onRejected).toHaveBeenLastCalledWith(
      expect.objectContaining({ reason: 'invalid_message', count: 7 }),
    );
  });

  it('drops events beyond the rate and reports them with a count', () => {
    const { onEvent, onRejected, connect, fromPort } = mount();
    connect();
    for (let index = 0; index < 5_000; index++) fromPort(message('event', { event: 'tick', data: {} }));
    expect(onEvent).toHaveBeenCalledTimes(SURFACE_CHANNEL_LIMITS.eventBurst);
    vi.advanceTimersByTime(1_000);
    expect(onRejected.mock.calls).toEqual([
      [{ reason: 'rate_limited', count: 1 }],
      [{ reason: 'rate_limited', count: 5_000 - SURFACE_CHANNEL_LIMITS.eventBurst - 1 }],
    ]);
    fromPort(message('event', { event: 'tick', data: {} }));
    expect(onEvent).toHaveBeenCalledTimes(SURFACE_CHANNEL_LIMITS.eventBurst + 1);
  });

  it('sizes the frame on resize, up to the host maximum, once per animation frame (the latest wins)', () => {
    const { frame, connect, fromPort } = mount({ maxHeight: 500 });
    connect();
    fromPort(message('resize', { height: 321.2 }));
    expect(frame.style.height).toBe('240px');
    vi.advanceTimersToNextFrame();
    expect(frame.style.height).toBe('322px');
    fromPort(message('resize', { height: 5000 }));
    vi.advanceTimersToNextFrame();
    expect(frame.style.height).toBe('500px');
    for (const height of [300, 410, 280]) fromPort(message('resize', { height }));
    vi.advanceTimersToNextFrame();
    expect(frame.style.height).toBe('280px');
  });

  it('ignores a shrink smaller than the tolerance, so content that reflows cannot make the frame oscillate', () => {
    const { frame, connect, fromPort, onRejected } = mount();
    connect();
    fromPort(message('resize', { height: 400 }));
    vi.advanceTimersToNextFrame();
    fromPort(message('resize', { height: 400 - RESIZE_SHRINK_TOLERANCE + 1 }));
    vi.advanceTimersToNextFrame();
    expect(frame.style.height).toBe('400px');
    fromPort(message('resize', { height: 400 - RESIZE_SHRINK_TOLERANCE }));
    vi.advanceTimersToNextFrame();
    expect(frame.style.height).toBe(`${400 - RESIZE_SHRINK_TOLERANCE}px`);
    fromPort(message('resize', { height: 401 }));
    vi.advanceTimersToNextFrame();
    expect(frame.style.height).toBe('401px');
    expect(onRejected).not.toHaveBeenCalled();
  });

  it('holds the resizes of a Surface that keeps changing its height for a second, and reports it', () => {
    const { frame, connect, fromPort, onRejected } = mount();
    connect();
    // A loop: grow and shrink by 50 px every frame.
    for (let index = 0; index < RESIZE_CHANGES_PER_SECOND; index++) {
      fromPort(message('resize', { height: index % 2 === 0 ? 300 : 250 }));
      vi.advanceTimersToNextFrame();
    }
    expect(frame.style.height).toBe('250px');
    fromPort(message('resize', { height: 300 }));
    vi.advanceTimersToNextFrame();
    expect(frame.style.height).toBe('250px');
    expect(onRejected).toHaveBeenCalledWith({ reason: 'resize_throttled', count: 1 });
    for (let index = 0; index < 5; index++) {
      fromPort(message('resize', { height: 320 + index * 10 }));
      vi.advanceTimersToNextFrame();
    }
    expect(frame.style.height).toBe('250px');
    vi.advanceTimersByTime(1_000);
    expect(onRejected).toHaveBeenLastCalledWith({ reason: 'resize_throttled', count: 5 });
    fromPort(message('resize', { height: 360 }));
    vi.advanceTimersToNextFrame();
    expect(frame.style.height).toBe('360px');
  });

  it('removes the Surface at once on a navigation violation', () => {
    const { connect, fromPort, onRejected, port, onEvent } = mount();
    connect();
    fromPort(message('violation', { kind: 'navigation' }));
    expect(handle!.closed).toBe(true);
    expect(document.querySelector('iframe')).toBeNull();
    expect(port.close).toHaveBeenCalled();
    expect(onRejected).toHaveBeenCalledWith({ reason: 'navigated' });
    fromPort(message('event', { event: 'late', data: {} }));
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('validates a patch, sends it on the port once ready, and changes nothing on bad state', () => {
    const { port, connect } = mount();
    handle!.patch({ city: '上海' });
    expect(port.postMessage).not.toHaveBeenCalled();
    connect();
    expect(port.postMessage).toHaveBeenLastCalledWith(message('state', { state: { city: '上海' } }));
    expect(() => handle!.patch([1])).toThrow(LineUpProtocolError);
    expect(() => handle!.patch({ f: () => 1 })).toThrow(LineUpProtocolError);
    handle!.patch({ city: '广州' });
    expect(port.postMessage).toHaveBeenLastCalledWith(message('state', { state: { city: '广州' } }));
    expect(port.postMessage).toHaveBeenCalledTimes(2);
  });

  it('closes once: removes the frame, closes the port and stops listening', () => {
    const { onEvent, connect, fromPort, port } = mount();
    connect();
    handle!.close();
    handle!.close();
    expect(handle!.closed).toBe(true);
    expect(port.close).toHaveBeenCalledTimes(1);
    expect(document.querySelector('iframe')).toBeNull();
    fromPort(message('event', { event: 'x', data: {} }));
    expect(onEvent).not.toHaveBeenCalled();
    expect(() => handle!.patch({})).toThrow(/closed/);
  });
});

describe('mountSurface: keyboard focus', () => {
  it('gives focus back to the host element it was taken from, and reports it', () => {
    const input = document.createElement('input');
    document.body.appendChild(input);
    input.focus();
    const { connect, fromPort, onRejected, frame } = mount();
    connect();
    frame.focus(); // what the browser does when the Surface takes focus
    expect(document.activeElement).toBe(frame);
    fromPort(message('violation', { kind: 'focus' }));
    vi.advanceTimersByTime(0);
    expect(document.activeElement).toBe(input);
    expect(onRejected).toHaveBeenCalledWith({ reason: 'focus_taken' });
  });

  it('does not take an untrusted Tab for the user tabbing in', () => {
    const { connect, fromPort, onRejected, frame, port } = mount();
    connect();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab' }));
    frame.focus();
    fromPort(message('violation', { kind: 'focus' }));
    vi.advanceTimersByTime(0);
    // A synthetic Tab is not the user's: jsdom's events are untrusted, so focus goes back.
    expect(onRejected).toHaveBeenCalledWith({ reason: 'focus_taken' });
    expect(port.postMessage).not.toHaveBeenCalledWith(message('focus'));
  });
});
