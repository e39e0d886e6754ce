/** The README's examples: shown verbatim, and run here (jsdom) to prove they do what their comments say. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import instancesSource from '../examples/instances.ts?raw';
import mcpViewSource from '../examples/mcp-view.ts?raw';
import miniAppPageSource from '../examples/miniapp-page.ts?raw';
import mountSource from '../examples/mount-surface.ts?raw';
import prepareViewSource from '../examples/prepare-view.ts?raw';
import viewStateSource from '../examples/view-state.ts?raw';
import readme from '../README.md?raw';

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

/** The content frame the wrapper holds in a browser (jsdom renders no srcdoc), and its handshake. */
function connect(frame: HTMLIFrameElement) {
  const wrapper = frame.contentDocument as Document;
  const inner = wrapper.body.appendChild(wrapper.createElement('iframe'));
  const port = {
    onmessage: null as ((event: { data: unknown }) => void) | null,
    postMessage: vi.fn(),
    close: vi.fn(),
  };
  const ready = new Event('message');
  Object.assign(ready, {
    data: { namespace: 'lineup.surface.v1', type: 'ready' },
    source: inner.contentWindow,
    origin: 'null',
    ports: [port],
  });
  window.dispatchEvent(ready);
  return { port, fromFrame: (data: object) => port.onmessage?.({ data }) };
}

describe('README examples', () => {
  it.each([
    ['mount-surface', mountSource],
    ['instances', instancesSource],
    ['mcp-view', mcpViewSource],
    ['prepare-view', prepareViewSource],
    ['view-state', viewStateSource],
    ['miniapp-page', miniAppPageSource],
  ])('the README shows examples/%s.ts verbatim', (_name, source) => {
    expect(readme).toContain(source.trimEnd());
  });

  it('mount-surface mounts a sandboxed frame, forwards events and reports rejections', async () => {
    const { showWeather } = await import('../examples/mount-surface.js');
    const sent = vi.fn();
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const surface = showWeather(document.body, sent);
    expect(surface.frame.getAttribute('sandbox')).toBe('allow-scripts');
    const { port, fromFrame } = connect(surface.frame);
    const base = { namespace: 'lineup.surface.v1', instance_id: 'weather.dashboard.01' };
    expect(port.postMessage).toHaveBeenCalledWith({ ...base, type: 'state', state: { city: 'Shanghai' } });
    fromFrame({ ...base, type: 'event', event: 'refresh', data: { unit: 'c' } });
    expect(sent).toHaveBeenCalledWith({
      instance_id: 'weather.dashboard.01',
      event: 'refresh',
      data: { unit: 'c' },
    });
    fromFrame({ ...base, type: 'event', event: 'close', data: {} });
    expect(log).toHaveBeenCalledWith('invalid_message');
    surface.close();
  });

  it('prepare-view mounts a view ahead, out of sight, and shows that same frame; without moveBefore, mounts then', async () => {
    const { prepareClock } = await import('../examples/prepare-view.js');
    const html = '<main>clock</main>';
    // jsdom cannot move a frame: nothing is prepared, the view is mounted where it is shown.
    const plain = prepareClock(html);
    expect(plain.ahead).toBeNull();
    const first = document.body.appendChild(document.createElement('div'));
    expect(plain.show(first).frame.parentElement).toBe(first);
    // A browser with Element.moveBefore (an insertion stands in for it here).
    const prototype = Element.prototype as { moveBefore?: (node: Node, child: Node | null) => void };
    prototype.moveBefore = function (this: Element, node: Node, child: Node | null) {
      this.insertBefore(node, child);
    };
    try {
      const prepared = prepareClock(html);
      const frame = prepared.ahead?.frame;
      expect(frame?.parentElement?.getAttribute('aria-hidden')).toBe('true');
      const second = document.body.appendChild(document.createElement('div'));
      expect(prepared.show(second).frame).toBe(frame);
      expect(frame?.parentElement).toBe(second);
    } finally {
      delete prototype.moveBefore;
    }
  });

  it('view-state starts a view with what was kept for its call, and keeps what the view writes', async () => {
    const { showWithState } = await import('../examples/view-state.js');
    const kept = new Map([['call_1', [['camera', '{"zoom":11}']] as [string, string][]]]);
    const view = showWithState(document.body, '<main id="map"></main>', kept, 'call_1');
    const { port, fromFrame } = connect(view.frame);
    // jsdom cannot move a spare frame: this frame was loaded for the view, and its prelude carries the kept storage.
    expect(port.postMessage).not.toHaveBeenCalled();
    const content = new DOMParser()
      .parseFromString(view.frame.srcdoc, 'text/html')
      .querySelector('iframe')
      ?.getAttribute('srcdoc');
    expect(content).toContain('"storage":[["camera","{\\"zoom\\":11}"]]');
    fromFrame({
      namespace: 'lineup.surface.v1',
      type: 'storage',
      instance_id: 'view.call_1',
      entries: [['camera', '{"zoom":12}']],
    });
    expect(kept.get('call_1')).toEqual([['camera', '{"zoom":12}']]);
    // What is not a storage snapshot changes nothing.
    fromFrame({
      namespace: 'lineup.surface.v1',
      type: 'storage',
      instance_id: 'view.call_1',
      entries: { a: '1' },
    });
    expect(kept.get('call_1')).toEqual([['camera', '{"zoom":12}']]);
    view.close();
  });

  it("mcp-view mounts a view and answers its tools/call through the host's handler", async () => {
    const { showView } = await import('../examples/mcp-view.js');
    const calls: string[] = [];
    const { view } = await showView(
      document.body,
      '<!doctype html><html><body><main id="root"></main><script type="module">void 0;</script></body></html>',
      async (name) => {
        calls.push(name);
        return { content: [{ type: 'text', text: '12:00' }] };
      },
    );
    expect(view.frame.getAttribute('sandbox')).toBe('allow-scripts');
    const { port, fromFrame } = connect(view.frame);
    // A view gets no state: only JSON-RPC.
    expect(port.postMessage).not.toHaveBeenCalled();
    fromFrame({
      namespace: 'lineup.surface.v1',
      type: 'mcp',
      instance_id: 'clock.view.01',
      message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get-time', arguments: {} } },
    });
    await vi.waitFor(() =>
      expect(port.postMessage).toHaveBeenCalledWith(
        expect.objectContaining({
          type: 'mcp',
          message: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '12:00' }] } },
        }),
      ),
    );
    expect(calls).toEqual(['get-time']);
    view.close();
  });

  it('instances routes open, patch and close, and answers unknown types as unsupported', async () => {
    const { createSurfaceClient } = await import('../examples/instances.js');
    const client = createSurfaceClient(document.body, vi.fn());
    const envelope = (type: string, payload: object) => ({
      v: 1,
      id: 'msg_1',
      type,
      conversation_id: 'conv_1',
      sender: { kind: 'agent', id: 'agent_1' },
      payload,
    });
    const app = {
      id: 'com.example.hello',
      name: 'Hello',
      version: '1.0.0',
      html: '<p>hi</p>',
      css: '',
      js: '',
    };
    expect(client.receive(envelope('lineup.v1.ui.open', { instance_id: 'h.1', app, state: {} }))).toBe(
      'opened',
    );
    expect(document.querySelectorAll('iframe')).toHaveLength(1);
    expect(client.receive(envelope('lineup.v1.ui.patch', { instance_id: 'h.1', state: { n: 1 } }))).toBe(
      'applied',
    );
    expect(client.receive(envelope('lineup.v1.ui.patch', { instance_id: 'h.2', state: {} }))).toBe(
      'unknown_instance',
    );
    expect(client.receive(envelope('lineup.v1.ui.close', { instance_id: 'h.1', reason: 'completed' }))).toBe(
      'applied',
    );
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
    expect(client.receive(envelope('lineup.v1.ui.teleport', {}))).toBe('unsupported');
  });

  it('miniapp-page builds the page from its files, mounts it contained, and hands its messages on', async () => {
    const { openPomodoro } = await import('../examples/miniapp-page.js');
    const encoder = new TextEncoder();
    const files = new Map([
      ['index.html', encoder.encode('<script type="module" src="./app.js"></script><main id="app"></main>')],
      ['app.js', encoder.encode('window.parent.postMessage({ hello: 1 }, "*")')],
    ]);
    const received = vi.fn();
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const handle = openPomodoro(document.body, files, received);
    expect(handle.frame.getAttribute('sandbox')).toBe('allow-scripts');
    const { port, fromFrame } = connect(handle.frame);
    const base = { namespace: 'lineup.surface.v1', instance_id: 'pomodoro.page.01' };
    fromFrame({ ...base, type: 'page', message: { type: 'app_ready' } });
    expect(received).toHaveBeenCalledWith({ type: 'app_ready' });
    handle.send({ type: 'lifecycle', phase: 'foreground' });
    expect(port.postMessage).toHaveBeenCalledWith({
      ...base,
      type: 'page',
      message: { type: 'lifecycle', phase: 'foreground' },
    });
    fromFrame({ ...base, type: 'violation', kind: 'navigation' });
    expect(log).toHaveBeenCalledWith('the page tried to leave and was removed');
    expect(handle.closed).toBe(true);
    expect(() => openPomodoro(document.body, new Map(), received)).toThrow('The bundle has no entry page');
  });
});
