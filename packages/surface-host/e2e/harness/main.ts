/**
 * The page the hostile-Surface suite drives: it mounts Surfaces through the built `@lineup/surface-host`
 * exactly as a host does, records what reaches the host, and mounts the same attacks in an uncontained frame
 * (the controls that prove the suite can see a leak).
 */
import {
  mountSurface,
  prepareSurfaceFrame,
  SURFACE_CSP,
  SURFACE_SANDBOX,
  type SurfaceEvent,
  type SurfaceHandle,
  type SurfaceRejection,
} from '@lineup/surface-host';

interface Mounted {
  readonly events: SurfaceEvent[];
  readonly rejections: SurfaceRejection[];
  handle?: SurfaceHandle;
  control?: HTMLIFrameElement;
  readonly startedAt: number;
  firstEventAt?: number;
}

const mounted = new Map<string, Mounted>();
/** Uncaught errors of the harness page itself (a Surface's own errors stay in its frame). */
const pageErrors: string[] = [];
window.addEventListener('error', (event) => pageErrors.push(event.message));
window.addEventListener('unhandledrejection', (event) => pageErrors.push(String(event.reason)));
const slots = document.getElementById('slots') as HTMLElement;
/** Host keystrokes as the host's own input saw them; a Surface must never see them. */
const hostKeys: string[] = [];
document.getElementById('secret')?.addEventListener('keydown', (event) => hostKeys.push(event.key));

function slot(id: string): HTMLElement {
  const element = document.createElement('div');
  element.className = 'slot';
  element.dataset.id = id;
  slots.appendChild(element);
  return element;
}

/** A minimal stand-in for the bridge in an uncontained frame: same calls, no checks. */
const CONTROL_SHIM = `<script>
window.LineUpSurface = {
  event: function (name, data) { parent.postMessage({ control: true, event: name, data: data || {} }, '*'); },
  onState: function () { return function () {}; },
  resize: function () {},
};
</script>`;

const harness = {
  mount(id: string, bundle: { html: string; css: string; js: string }, state: Record<string, unknown> = {}) {
    const record: Mounted = { events: [], rejections: [], startedAt: performance.now() };
    mounted.set(id, record);
    record.handle = mountSurface(slot(id), {
      instanceId: id,
      bundle: { name: `Surface ${id}`, ...bundle },
      state,
      onEvent: (event) => {
        record.firstEventAt ??= performance.now();
        record.events.push(event);
      },
      onRejected: (rejection) => record.rejections.push(rejection),
    });
  },
  /**
   * The same bundle without the containment: `plain` is a frame with no sandbox and no CSP; `seed` is what the
   * seed asks for and nothing more — `sandbox="allow-scripts"` and `SURFACE_CSP` in one `srcdoc` frame.
   */
  mountControl(id: string, bundle: { html: string; js: string }, level: 'plain' | 'seed' = 'plain') {
    const record: Mounted = { events: [], rejections: [], startedAt: performance.now() };
    mounted.set(id, record);
    const frame = document.createElement('iframe');
    frame.title = `Control ${id}`;
    const policy =
      level === 'seed' ? `<meta http-equiv="Content-Security-Policy" content="${SURFACE_CSP}">` : '';
    if (level === 'seed') frame.setAttribute('sandbox', SURFACE_SANDBOX);
    frame.srcdoc = `<!doctype html><html><head>${policy}${CONTROL_SHIM}</head><body>${bundle.html}<script>${bundle.js}</script></body></html>`;
    record.control = frame;
    window.addEventListener('message', (event) => {
      if (event.source !== frame.contentWindow) return;
      const data = event.data as { control?: boolean; event?: string; data?: Record<string, unknown> };
      if (data?.control !== true) return;
      record.firstEventAt ??= performance.now();
      record.events.push({
        instance_id: id,
        event: String(data.event),
        data: (data.data ?? {}) as SurfaceEvent['data'],
      });
    });
    slot(id).appendChild(frame);
  },
  events: (id: string) => mounted.get(id)?.events ?? [],
  rejections: (id: string) => mounted.get(id)?.rejections.map((rejection) => ({ ...rejection })) ?? [],
  isMounted: (id: string) => {
    const record = mounted.get(id);
    if (record?.control) return record.control.isConnected;
    return record?.handle !== undefined && !record.handle.closed && record.handle.frame.isConnected;
  },
  patch: (id: string, state: Record<string, unknown>) => mounted.get(id)?.handle?.patch(state),
  close: (id: string) => {
    const record = mounted.get(id);
    record?.handle?.close();
    record?.control?.remove();
  },
  firstEventDelay: (id: string) => {
    const record = mounted.get(id);
    return record?.firstEventAt === undefined ? null : record.firstEventAt - record.startedAt;
  },
  hostKeys: () => hostKeys.slice(),
  pageErrors: () => pageErrors.slice(),
  activeElementId: () => document.activeElement?.id || document.activeElement?.tagName || null,
  frameHeight: (id: string) => mounted.get(id)?.handle?.frame.getBoundingClientRect().height ?? null,
};

Object.assign(window, { harness });
// `?cold` mounts every Surface in a frame of its own, as in a browser without `Element.moveBefore`; otherwise a
// spare frame is loaded ahead, as a host does.
if (new URLSearchParams(location.search).has('cold'))
  delete (Element.prototype as { moveBefore?: unknown }).moveBefore;
else prepareSurfaceFrame(document);
export type Harness = typeof harness;
