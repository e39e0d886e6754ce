/**
 * The page the hostile-Surface suite drives: it mounts Surfaces through the built `@lineup/surface-host`
 * exactly as a host does, records what reaches the host, and mounts the same attacks in an uncontained frame
 * (the controls that prove the suite can see a leak).
 */

import {
  type McpViewHandle,
  type MiniAppPageHandle,
  mcpViewBundle,
  miniAppPageFromFiles,
  mountMcpView,
  mountMiniAppPage,
  mountSurface,
  prepareMcpView,
  prepareSurfaceFrame,
  SURFACE_CSP,
  SURFACE_SANDBOX,
  type SurfaceEvent,
  type SurfaceHandle,
  type SurfaceRejection,
  surfaceBundleFromFiles,
} from '@lineup/surface-host';
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';

interface Mounted {
  readonly events: SurfaceEvent[];
  readonly rejections: SurfaceRejection[];
  handle?: SurfaceHandle;
  control?: HTMLIFrameElement;
  readonly startedAt: number;
  firstEventAt?: number;
  /** Whether the frame had loaded before the mount (a spare that said `ready`): the bundle went out at once. */
  warm?: boolean;
  /** Resolves at the first event. */
  readonly firstEvent: Promise<number>;
  readonly reachedFirstEvent: () => void;
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

/** A new record of what reaches the host from Surface `id`. */
function track(id: string): Mounted {
  let reachedFirstEvent = () => {};
  const startedAt = performance.now();
  const firstEvent = new Promise<number>((resolve) => {
    reachedFirstEvent = () => {
      if (record.firstEventAt !== undefined) return;
      record.firstEventAt = performance.now();
      resolve(record.firstEventAt - startedAt);
    };
  });
  const record: Mounted = {
    events: [],
    rejections: [],
    startedAt,
    firstEvent,
    reachedFirstEvent: () => reachedFirstEvent(),
  };
  mounted.set(id, record);
  return record;
}

/**
 * The spare frames whose Surface document said `ready` (seen as the host sees it: a window message from the
 * frame inside the spare). Only the source and origin are read, never the data.
 */
const readySpares = new WeakSet<HTMLIFrameElement>();
function watchSpares(event: MessageEvent) {
  if (event.origin !== 'null' || event.source === null) return;
  for (const frame of document.querySelectorAll<HTMLIFrameElement>('[data-lineup-spare-surface] iframe')) {
    try {
      if (frame.contentWindow?.[0] === event.source) readySpares.add(frame);
    } catch {
      // A spare whose wrapper holds no frame yet: Chromium throws for a missing index of a cross-origin window.
    }
  }
}
window.addEventListener('message', watchSpares);

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

/**
 * `?reference`: each Surface is mounted as a Surface by reference is — its texts packed as an installed app's
 * files (an entry HTML naming a stylesheet and a classic script), read back by `surfaceBundleFromFiles`, and
 * mounted with the events it declares (`done`, the one the suite waits for).
 */
const byReference = new URLSearchParams(location.search).has('reference');
/** `?view`: each Surface of the attack suite is mounted as an MCP App view (`mountView`). */
const asView = new URLSearchParams(location.search).has('view');
/** `?view&ahead`: each such view is mounted ahead, out of sight (`prepareMcpView`), and shown 100 ms later. */
const ahead = new URLSearchParams(location.search).has('ahead');
const REFERENCE_EVENTS = ['done'];
/** `?page`: each Surface of the attack suite is mounted as an installed MiniApp's page (`mountAttackPage`). */
const asPage = new URLSearchParams(location.search).has('page');

/** What reached the host from a MiniApp page: every message it posted (the runtime would judge them). */
interface PageRecord {
  handle: MiniAppPageHandle;
  readonly messages: Record<string, unknown>[];
}
const pages = new Map<string, PageRecord>();

/** A page's files as a built app has them: the entry HTML, and the files it names. */
function pageFiles(entries: Record<string, string>): Map<string, Uint8Array> {
  const encoder = new TextEncoder();
  return new Map(Object.entries(entries).map(([path, text]) => [path, encoder.encode(text)] as const));
}

/** Mounts a MiniApp page from `files` (entry `index.html`) with `mountMiniAppPage`, recording what it posts. */
function mountPage(
  id: string,
  files: Map<string, Uint8Array>,
  context: { readonly connectDomains?: readonly string[]; readonly fragment?: string } = {},
  onMessage?: (message: Record<string, unknown>) => void,
): PageRecord {
  const record: PageRecord = {
    messages: [],
    handle: undefined as unknown as MiniAppPageHandle,
  };
  pages.set(id, record);
  record.handle = mountMiniAppPage(slot(id), {
    instanceId: id,
    name: `Page ${id}`,
    page: miniAppPageFromFiles('index.html', files),
    fragment: context.fragment ?? `lang=en-US&lineup-instance=${encodeURIComponent(id)}`,
    onMessage: (message) => {
      const copy = JSON.parse(JSON.stringify(message)) as Record<string, unknown>;
      record.messages.push(copy);
      onMessage?.(copy);
    },
    onRejected: (rejection) => mounted.get(id)?.rejections.push(rejection),
    ...(context.connectDomains === undefined ? {} : { connectDomains: context.connectDomains }),
  });
  return record;
}

/**
 * The page of the containment suite's attacks, as Vite builds one: an entry HTML that names a stylesheet and a
 * module script, with a `LineUpSurface.event` (an inline classic script) that reports through the page's
 * `window.parent`, so that every attack runs unchanged as a MiniApp page.
 */
function attackPageFiles(bundle: { html: string; css: string; js: string }): Map<string, Uint8Array> {
  const report = `window.LineUpSurface = { event: function (name, data) { window.parent.postMessage({ namespace: 'lineup.miniapp.v1', type: 'attack_event', event: name, data: data || {} }, '*'); }, onState: function () { return function () {}; }, resize: function () {} };`;
  return pageFiles({
    'index.html': `<!doctype html><html><head><script>${report}</script><script type="module" src="./assets/probe.js"></script><link rel="stylesheet" href="./assets/probe.css"></head><body>${bundle.html}</body></html>`,
    'assets/probe.js': bundle.js,
    'assets/probe.css': bundle.css,
  });
}

function asReferenced(bundle: { html: string; css: string; js: string }) {
  const encoder = new TextEncoder();
  const files = new Map([
    [
      'surfaces/probe.html',
      encoder.encode(
        `<!doctype html><html><head><link rel="stylesheet" href="probe.css"><script src="probe.js"></script></head><body>${bundle.html}</body></html>`,
      ),
    ],
    ['surfaces/probe.css', encoder.encode(bundle.css)],
    ['surfaces/probe.js', encoder.encode(bundle.js)],
  ]);
  return surfaceBundleFromFiles('surfaces/probe.html', files);
}

/** What reached the host from an MCP App view: its JSON-RPC, as the MCP Apps SDK's AppBridge heard it. */
interface ViewRecord {
  handle: McpViewHandle;
  bridge: AppBridge;
  initialized: boolean;
  readonly toolCalls: { name: string; arguments: unknown }[];
  readonly links: string[];
  readonly messages: unknown[];
  readonly logs: unknown[];
  readonly sizes: { width?: number; height?: number }[];
  /** Each snapshot of the view's localStorage the host got (`onStorage`), in order. */
  readonly storage: (readonly (readonly [string, string])[])[];
  /** How many times the user pressed Escape in the view (`onEscape`). */
  escapes: number;
  /** Requests the bridge refused (its own method-not-found answers are not seen here: see `probe`). */
}
const views = new Map<string, ViewRecord>();

/**
 * The view of the containment suite's attacks: the attack's HTML and CSS, and its script as a module, in one HTML
 * document, with a `LineUpSurface.event` that reports over the view's own protocol (a log notification), so that
 * every attack runs unchanged as an MCP App view.
 */
function attackView(bundle: { html: string; css: string; js: string }): string {
  const report = `window.LineUpSurface = { event: function (name, data) { window.parent.postMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'attack', data: { event: name, data: data || {} } } }, '*'); }, onState: function () { return function () {}; }, resize: function () {} };`;
  return `<!doctype html><html><head><style>${bundle.css}</style><script>${report}</script></head><body>${bundle.html}<script type="module">${bundle.js}</script></body></html>`;
}

/** How a view is mounted: its host context, and the origins it was granted (`connectDomains`). */
interface ViewContext {
  readonly theme?: 'light' | 'dark';
  readonly locale?: string;
  readonly connectDomains?: readonly string[];
  readonly resourceDomains?: readonly string[];
  readonly devices?: readonly ('geolocation' | 'clipboard-write')[];
  /** What the view's localStorage holds at its start. */
  readonly storage?: [string, string][];
}

/** Mounts `html` as an MCP App view, with the MCP Apps SDK's AppBridge as the host end (connected at once). */
function mountView(
  id: string,
  html: string,
  context: ViewContext = {},
  onLog?: (data: unknown) => void,
  /** Mounted ahead, out of sight (`prepareMcpView`), instead of in its slot. */
  ahead = false,
): ViewRecord {
  const options = {
    instanceId: id,
    name: `View ${id}`,
    view: mcpViewBundle(
      html,
      context.resourceDomains === undefined ? {} : { resourceDomains: context.resourceDomains },
    ),
    onRejected: (rejection: SurfaceRejection) => mounted.get(id)?.rejections.push(rejection),
    ...(context.connectDomains === undefined ? {} : { connectDomains: context.connectDomains }),
    ...(context.resourceDomains === undefined ? {} : { resourceDomains: context.resourceDomains }),
    ...(context.devices === undefined ? {} : { devices: context.devices }),
    ...(context.storage === undefined ? {} : { storage: context.storage }),
    onStorage: (entries: readonly (readonly [string, string])[]) => views.get(id)?.storage.push(entries),
    onEscape: () => {
      const view = views.get(id);
      if (view !== undefined) view.escapes += 1;
    },
  };
  const prepared = ahead ? prepareMcpView(document, { ...options, width: 600 }) : null;
  if (ahead && prepared === null) throw new Error('This browser cannot prepare a view.');
  const handle = prepared ?? mountMcpView(slot(id), options);
  const bridge = new AppBridge(
    null,
    { name: 'LineUp harness', version: '0.0.0' },
    { openLinks: {}, serverTools: {}, logging: {}, message: { text: {} } },
    {
      hostContext: {
        theme: context.theme ?? 'light',
        locale: context.locale ?? 'en-US',
        displayMode: 'inline',
        availableDisplayModes: ['inline'],
        platform: 'web',
        containerDimensions: { maxHeight: 1_200, width: handle.frame.clientWidth || 600 },
        styles: {
          variables: {
            '--color-background-primary': context.theme === 'dark' ? '#1d1e24' : '#ffffff',
          } as never,
        },
      },
    },
  );
  const record: ViewRecord = {
    handle,
    bridge,
    initialized: false,
    toolCalls: [],
    links: [],
    messages: [],
    logs: [],
    sizes: [],
    storage: [],
    escapes: 0,
  };
  views.set(id, record);
  bridge.oninitialized = () => {
    record.initialized = true;
  };
  bridge.oncalltool = async (params) => {
    record.toolCalls.push({ name: params.name, arguments: params.arguments ?? {} });
    return {
      content: [{ type: 'text', text: '2026-12-04T12:00:00.000Z' }],
      structuredContent: { time: '2026-12-04T12:00:00.000Z' },
    };
  };
  bridge.onopenlink = async (params) => {
    record.links.push(params.url);
    return {};
  };
  bridge.onmessage = async (params) => {
    record.messages.push(params);
    return {};
  };
  bridge.onloggingmessage = (params) => {
    record.logs.push(params.data);
    onLog?.(params.data);
  };
  bridge.onsizechange = (params) => {
    record.sizes.push(params);
    if (typeof params.height === 'number') handle.resize(params.height);
  };
  bridge.connect(handle.transport as never).catch((error: unknown) => pageErrors.push(String(error)));
  return record;
}

const harness = {
  /** Mounts an MCP App view (the HTML of a server's `ui://` resource) with the SDK's AppBridge as its host. */
  mountView(id: string, html: string, context: ViewContext = {}) {
    const record = track(id);
    const view = mountView(id, html, context);
    record.handle = view.handle as unknown as SurfaceHandle;
    record.warm = view.handle.ready;
  },
  /** Mounts a view ahead, out of sight (`prepareMcpView`), its bridge connected: `showView` moves it into a slot. */
  prepareView(id: string, html: string, context: ViewContext = {}) {
    const record = track(id);
    const view = mountView(id, html, context, undefined, true);
    record.handle = view.handle as unknown as SurfaceHandle;
  },
  /** Moves a prepared view into its slot (`handle.moveTo`). */
  showView(id: string) {
    const view = views.get(id);
    if (view === undefined) throw new Error(`no view ${id}`);
    view.handle.moveTo(slot(id));
  },
  /** How many holders of views prepared ahead are in the page. */
  preparedHolders: () => document.querySelectorAll('[data-lineup-prepared-view]').length,
  /** Where a view's frame is: in a prepared view's hidden holder (with what makes it hidden), or in its slot. */
  viewPlace(id: string) {
    const holder = views.get(id)?.handle.frame.parentElement;
    if (holder === null || holder === undefined) return null;
    return {
      slot: holder.classList.contains('slot'),
      prepared: holder.hasAttribute('data-lineup-prepared-view'),
      inert: holder.inert,
      ariaHidden: holder.getAttribute('aria-hidden'),
      opacity: getComputedStyle(holder).opacity,
      holders: document.querySelectorAll('[data-lineup-prepared-view]').length,
    };
  },
  viewState: (id: string) => {
    const view = views.get(id);
    if (view === undefined) return null;
    return {
      initialized: view.initialized,
      toolCalls: view.toolCalls.slice(),
      links: view.links.slice(),
      messages: JSON.parse(JSON.stringify(view.messages)) as unknown[],
      logs: JSON.parse(JSON.stringify(view.logs)) as unknown[],
      sizes: view.sizes.slice(),
      storage: JSON.parse(JSON.stringify(view.storage)) as [string, string][][],
      escapes: view.escapes,
      appVersion: view.bridge.getAppVersion() ?? null,
    };
  },
  /** Sends the view its call's input, then its result (what a host does when the tool it belongs to ran). */
  async viewToolResult(id: string, input: Record<string, unknown>, result: Record<string, unknown>) {
    const view = views.get(id);
    if (view === undefined) throw new Error(`no view ${id}`);
    await view.bridge.sendToolInput({ arguments: input });
    await view.bridge.sendToolResult(result as never);
  },
  /** Asks the view to tear down, then closes it. */
  async closeView(id: string) {
    const view = views.get(id);
    if (view === undefined) return;
    await view.bridge.teardownResource({}).catch(() => {});
    view.handle.close();
  },
  /** Mounts a MiniApp page whose entry is `html` (with `files` beside it) with `mountMiniAppPage`. */
  mountPage(
    id: string,
    html: string,
    context: { readonly connectDomains?: readonly string[]; readonly fragment?: string } = {},
    files: Record<string, string> = {},
  ) {
    const record = track(id);
    const page = mountPage(id, pageFiles({ 'index.html': html, ...files }), context);
    record.handle = page.handle as unknown as SurfaceHandle;
  },
  /** What a MiniApp page posted, and the log data of those shaped as a view's log notifications. */
  pageState(id: string) {
    const page = pages.get(id);
    if (page === undefined) return null;
    return {
      messages: page.messages.slice(),
      logs: page.messages
        .map((message) => (message.params as { data?: unknown } | undefined)?.data)
        .filter((data) => data !== undefined),
    };
  },
  /** Sends a MiniApp page one message (as the runtime's connection would). */
  sendPage(id: string, message: Record<string, unknown>) {
    pages.get(id)?.handle.send(message);
  },
  mount(id: string, bundle: { html: string; css: string; js: string }, state: Record<string, unknown> = {}) {
    const record = track(id);
    if (asPage) {
      const page = mountPage(id, attackPageFiles(bundle), {}, (message) => {
        if (message.type !== 'attack_event' || typeof message.event !== 'string') return;
        record.events.push({
          instance_id: id,
          event: message.event,
          data: (message.data ?? {}) as SurfaceEvent['data'],
        });
        record.reachedFirstEvent();
      });
      record.handle = page.handle as unknown as SurfaceHandle;
      record.warm = page.handle.ready;
      return;
    }
    if (asView) {
      // Every attack as an MCP App view: its 'done' arrives as the view's log notification.
      const view = mountView(
        id,
        attackView(bundle),
        {},
        (data) => {
          const logged = data as { event?: string; data?: Record<string, unknown> } | null;
          if (typeof logged?.event !== 'string') return;
          record.events.push({
            instance_id: id,
            event: logged.event,
            data: (logged.data ?? {}) as SurfaceEvent['data'],
          });
          record.reachedFirstEvent();
        },
        ahead,
      );
      record.handle = view.handle as unknown as SurfaceHandle;
      record.warm = view.handle.ready;
      if (ahead)
        setTimeout(() => {
          if (!view.handle.closed) view.handle.moveTo(slot(id));
        }, 100);
      return;
    }
    record.handle = mountSurface(slot(id), {
      instanceId: id,
      bundle: { name: `Surface ${id}`, ...(byReference ? asReferenced(bundle) : bundle) },
      ...(byReference ? { events: REFERENCE_EVENTS } : {}),
      state,
      onEvent: (event) => {
        record.events.push(event);
        record.reachedFirstEvent();
      },
      onRejected: (rejection) => record.rejections.push(rejection),
    });
    record.warm = record.handle.ready;
  },
  /**
   * The same bundle without the containment: `plain` is a frame with no sandbox and no CSP; `seed` is what the
   * seed asks for and nothing more — `sandbox="allow-scripts"` and `SURFACE_CSP` in one `srcdoc` frame.
   */
  mountControl(id: string, bundle: { html: string; js: string }, level: 'plain' | 'seed' = 'plain') {
    const record = track(id);
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
      record.events.push({
        instance_id: id,
        event: String(data.event),
        data: (data.data ?? {}) as SurfaceEvent['data'],
      });
      record.reachedFirstEvent();
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
  /** Closes the Surface and removes its slot, so that the next one opens in the same place, in view. */
  discard: (id: string) => {
    harness.close(id);
    document.querySelector(`.slot[data-id="${CSS.escape(id)}"]`)?.remove();
  },
  firstEventDelay: (id: string) => {
    const record = mounted.get(id);
    return record?.firstEventAt === undefined ? null : record.firstEventAt - record.startedAt;
  },
  /** The delay from the mount to the first event, once it came (ms). */
  whenFirstEvent: (id: string) =>
    mounted.get(id)?.firstEvent ?? Promise.reject(new Error(`no Surface ${id}`)),
  /** Whether the Surface got a frame that had loaded ahead (see `Mounted.warm`). */
  wasWarm: (id: string) => mounted.get(id)?.warm ?? false,
  /** How many spare frames are waiting in the page, loaded (see `watchSpares`). */
  sparesReady: () =>
    [...document.querySelectorAll<HTMLIFrameElement>('[data-lineup-spare-surface] iframe')].filter((frame) =>
      readySpares.has(frame),
    ).length,
  /** Stops watching for spares' `ready` (a flood of window messages should meet only the host's listener). */
  stopWatchingSpares: () => window.removeEventListener('message', watchSpares),
  hostKeys: () => hostKeys.slice(),
  pageErrors: () => pageErrors.slice(),
  activeElementId: () => document.activeElement?.id || document.activeElement?.tagName || null,
  frameHeight: (id: string) => mounted.get(id)?.handle?.frame.getBoundingClientRect().height ?? null,
};

Object.assign(window, { harness });
// `?cold` mounts every Surface in a frame of its own, as in a browser without `Element.moveBefore`; otherwise
// spare frames are loaded ahead, as a host does: one, or `?frames=n` of them.
const query = new URLSearchParams(location.search);
if (query.has('cold')) delete (Element.prototype as { moveBefore?: unknown }).moveBefore;
else prepareSurfaceFrame(document, { frames: Number(query.get('frames') ?? 1) });
export type Harness = typeof harness;
