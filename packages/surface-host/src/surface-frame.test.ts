/** The host end of the channel in jsdom: the frame's attributes, which messages count, patch and close. */
import { LineUpProtocolError } from '@lineup/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FORBIDDEN_SANDBOX_TOKENS, SURFACE_CSP, SURFACE_PERMISSIONS_POLICY } from './sandbox.js';
import { mountSurface, type SurfaceHandle } from './surface-frame.js';

const BUNDLE = { name: '天气面板', html: '<main></main>', css: '', js: '' };
let handle: SurfaceHandle | undefined;

afterEach(() => {
  handle?.close();
  document.body.innerHTML = '';
});

function mount(overrides: Partial<Parameters<typeof mountSurface>[1]> = {}) {
  const onEvent = vi.fn();
  const onRejected = vi.fn();
  handle = mountSurface(document.body, {
    instanceId: 'weather.dashboard.01',
    bundle: BUNDLE,
    state: { city: '北京' },
    onEvent,
    onRejected,
    ...overrides,
  });
  const frameWindow = handle.frame.contentWindow!;
  const posted = vi.spyOn(frameWindow, 'postMessage').mockImplementation(() => {});
  const fromFrame = (data: unknown, source: unknown = frameWindow, origin = 'null') =>
    window.dispatchEvent(new MessageEvent('message', { data, source: source as Window, origin }));
  return { onEvent, onRejected, posted, fromFrame, frame: handle.frame };
}

const message = (type: string, extra: object = {}) => ({
  namespace: 'lineup.surface.v1',
  type,
  instance_id: 'weather.dashboard.01',
  ...extra,
});

describe('mountSurface', () => {
  it('mounts a sandboxed srcdoc frame with scripts only and every powerful feature off', () => {
    const { frame } = mount();
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    const tokens = frame.getAttribute('sandbox')!.split(/\s+/);
    for (const token of FORBIDDEN_SANDBOX_TOKENS) expect(tokens).not.toContain(token);
    expect(frame.getAttribute('allow')).toBe(SURFACE_PERMISSIONS_POLICY);
    expect(frame.getAttribute('csp')).toBe(SURFACE_CSP);
    expect(frame.getAttribute('title')).toBe('天气面板');
    expect(frame.getAttribute('src')).toBeNull();
    expect(frame.srcdoc).toContain('<main></main>');
  });

  it('answers ready with the state and turns events into ui.event payloads', () => {
    const { onEvent, posted, fromFrame } = mount();
    fromFrame(message('ready'));
    expect(posted).toHaveBeenCalledWith(message('state', { state: { city: '北京' } }), '*');
    fromFrame(message('event', { event: 'refresh', data: { unit: 'c' } }));
    expect(onEvent).toHaveBeenCalledWith({
      instance_id: 'weather.dashboard.01',
      event: 'refresh',
      data: { unit: 'c' },
    });
  });

  it('ignores messages from other windows or origins, and reports invalid ones from the frame', () => {
    const { onEvent, onRejected, fromFrame } = mount();
    fromFrame(message('event', { event: 'refresh', data: {} }), window);
    fromFrame(message('event', { event: 'refresh', data: {} }), undefined, 'https://example.com');
    expect(onEvent).not.toHaveBeenCalled();
    expect(onRejected).not.toHaveBeenCalled();
    for (const bad of [
      message('event', { event: 'close', data: {} }),
      message('event', { event: 'refresh', data: [] }),
      message('event', { event: 'refresh', data: { big: 'x'.repeat(16 * 1024) } }),
      message('event', { event: 'refresh', data: {}, instance_id: 'other' }),
      { ...message('event', { event: 'refresh', data: {} }), namespace: 'lineup.miniapp.v1' },
      message('call', { capability: 'clipboard.write' }),
      'not an object',
    ])
      fromFrame(bad);
    expect(onEvent).not.toHaveBeenCalled();
    expect(onRejected).toHaveBeenCalledTimes(7);
    expect(onRejected.mock.calls.every(([rejection]) => rejection.reason === 'invalid_message')).toBe(true);
  });

  it('sizes the frame on resize, up to the host maximum', () => {
    const { frame, fromFrame } = mount({ maxHeight: 500 });
    fromFrame(message('resize', { height: 321.2 }));
    expect(frame.style.height).toBe('322px');
    fromFrame(message('resize', { height: 5000 }));
    expect(frame.style.height).toBe('500px');
  });

  it('validates a patch, sends it once ready, and changes nothing on bad state', () => {
    const { posted, fromFrame } = mount();
    handle!.patch({ city: '上海' });
    expect(posted).not.toHaveBeenCalled();
    fromFrame(message('ready'));
    expect(posted).toHaveBeenLastCalledWith(message('state', { state: { city: '上海' } }), '*');
    expect(() => handle!.patch([1])).toThrow(LineUpProtocolError);
    expect(() => handle!.patch({ f: () => 1 })).toThrow(LineUpProtocolError);
    handle!.patch({ city: '广州' });
    expect(posted).toHaveBeenLastCalledWith(message('state', { state: { city: '广州' } }), '*');
  });

  it('refuses an initial state that is not a JSON object, mounting nothing', () => {
    expect(() =>
      mountSurface(document.body, { instanceId: 'a', bundle: BUNDLE, state: [] as never, onEvent: vi.fn() }),
    ).toThrow(LineUpProtocolError);
    expect(document.querySelector('iframe')).toBeNull();
  });

  it('closes once: removes the frame and stops listening', () => {
    const { onEvent, frame } = mount();
    const frameWindow = frame.contentWindow;
    handle!.close();
    handle!.close();
    expect(handle!.closed).toBe(true);
    expect(document.querySelector('iframe')).toBeNull();
    window.dispatchEvent(
      new MessageEvent('message', {
        data: message('event', { event: 'x', data: {} }),
        source: frameWindow,
        origin: 'null',
      }),
    );
    expect(onEvent).not.toHaveBeenCalled();
    expect(() => handle!.patch({})).toThrow(/closed/);
  });
});
