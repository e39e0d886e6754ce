/**
 * The `LineUpSurface` bridge (seed 000 §4.2): the one global a Surface gets. It runs inside the sandboxed
 * frame, before any agent content, and offers exactly three calls:
 *
 * ```js
 * LineUpSurface.event('refresh', { unit: 'c' }) // a user intent → the host's ui.event
 * LineUpSurface.onState((state) => render(state)) // the state of ui.open after ready, and of every ui.patch
 * LineUpSurface.resize(document.documentElement.scrollHeight)
 * ```
 *
 * `installSurfaceBridge` is written as one self-contained function — no imports, no outer variables — because
 * the host injects its source text into the frame (srcdoc.ts): what the tests run here is what the frame runs.
 * It checks what a Surface author passes and throws a TypeError/RangeError at the call, so mistakes show up
 * in the author's console; the host validates every message again, since a Surface can also post directly.
 */

/** What the bridge needs to know, passed as JSON into the frame. */
export interface SurfaceBridgeConfig {
  readonly namespace: string;
  readonly instanceId: string;
  /** Source of the event name pattern (seed 000 §4.2). */
  readonly eventNamePattern: string;
  readonly reservedEventNames: readonly string[];
  /** Largest event `data` as UTF-8 JSON (seed 000 §4.2: under 16 KiB). */
  readonly maxEventDataBytes: number;
  /** Deepest nesting of event `data`. */
  readonly maxEventDataDepth: number;
  readonly maxFrameHeight: number;
}

/** The object a Surface sees as `window.LineUpSurface`. */
export interface LineUpSurfaceAPI {
  event(name: string, data?: Record<string, unknown>): void;
  onState(listener: (state: Record<string, unknown>) => void): () => void;
  resize(height: number): void;
}

/** The part of `window` the bridge uses. */
export interface SurfaceBridgeGlobal {
  readonly parent: { postMessage(message: unknown, targetOrigin: string): void };
  addEventListener(type: 'message', listener: (event: { source: unknown; data: unknown }) => void): void;
  setTimeout(callback: () => void, delay?: number): unknown;
  TextEncoder: new () => { encode(text: string): { length: number } };
}

export function installSurfaceBridge(global: SurfaceBridgeGlobal, config: SurfaceBridgeConfig): void {
  const parent = global.parent;
  // Captured now, before agent code runs, so a Surface cannot reroute the bridge's own messages.
  const post = parent.postMessage.bind(parent);
  const encoder = new global.TextEncoder();
  const namePattern = new RegExp(config.eventNamePattern);
  const send = (message: Record<string, unknown>) => post(message, '*');
  const listeners: ((state: Record<string, unknown>) => void)[] = [];
  let latest: Record<string, unknown> | undefined;

  const isPlainObject = (value: unknown): value is Record<string, unknown> => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const prototype = Object.getPrototypeOf(value);
    return prototype === Object.prototype || prototype === null;
  };

  /** Only JSON: no undefined, function, symbol, NaN or Infinity, class instance, cycle or excess depth. */
  const checkJSON = (value: unknown, depth: number, seen: unknown[]): string | null => {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
    if (typeof value === 'number') return Number.isFinite(value) ? null : 'numbers must be finite';
    if (depth > config.maxEventDataDepth) return `data may nest at most ${config.maxEventDataDepth} levels`;
    if (typeof value !== 'object') return `${typeof value} is not JSON`;
    if (seen.indexOf(value) !== -1) return 'data must not contain cycles';
    seen.push(value);
    const items = Array.isArray(value) ? value : isPlainObject(value) ? Object.values(value) : null;
    if (items === null) return 'only plain objects and arrays are JSON';
    for (const item of items) {
      const problem = checkJSON(item, depth + 1, seen);
      if (problem !== null) return problem;
    }
    seen.pop();
    return null;
  };

  const api = {
    event(name: string, data: Record<string, unknown> = {}): void {
      if (typeof name !== 'string' || !namePattern.test(name))
        throw new TypeError(
          `LineUpSurface.event: the name must match ${config.eventNamePattern} (a letter, then up to 63 letters, digits or . _ : -).`,
        );
      if (config.reservedEventNames.indexOf(name) !== -1)
        throw new TypeError(`LineUpSurface.event: "${name}" is reserved for the host.`);
      if (!isPlainObject(data)) throw new TypeError('LineUpSurface.event: data must be a plain JSON object.');
      const problem = checkJSON(data, 1, []);
      if (problem !== null) throw new TypeError(`LineUpSurface.event: ${problem}.`);
      const bytes = encoder.encode(JSON.stringify(data)).length;
      if (bytes > config.maxEventDataBytes)
        throw new RangeError(
          `LineUpSurface.event: data is ${bytes} bytes as JSON; at most ${config.maxEventDataBytes} are allowed.`,
        );
      send({ namespace: config.namespace, type: 'event', instance_id: config.instanceId, event: name, data });
    },
    onState(listener: (state: Record<string, unknown>) => void): () => void {
      if (typeof listener !== 'function') throw new TypeError('LineUpSurface.onState: pass a function.');
      listeners.push(listener);
      // A listener added after the state arrived gets it at once, on the next task, like later updates.
      const current = latest;
      if (current !== undefined)
        global.setTimeout(() => {
          if (listeners.indexOf(listener) !== -1) listener(current);
        }, 0);
      return () => {
        const index = listeners.indexOf(listener);
        if (index !== -1) listeners.splice(index, 1);
      };
    },
    resize(height: number): void {
      if (
        typeof height !== 'number' ||
        !Number.isFinite(height) ||
        height <= 0 ||
        height > config.maxFrameHeight
      )
        throw new RangeError(
          `LineUpSurface.resize: height must be a number from 1 to ${config.maxFrameHeight}.`,
        );
      send({ namespace: config.namespace, type: 'resize', instance_id: config.instanceId, height });
    },
  };
  Object.freeze(api);
  Object.defineProperty(global, 'LineUpSurface', { value: api, enumerable: true });

  global.addEventListener('message', (event) => {
    // Only the host page speaks to the bridge, and only with this instance's state.
    if (event.source !== parent) return;
    const message = event.data as Record<string, unknown> | null;
    if (!isPlainObject(message)) return;
    if (message.namespace !== config.namespace || message.type !== 'state') return;
    if (message.instance_id !== config.instanceId || !isPlainObject(message.state)) return;
    const state = message.state;
    latest = state;
    for (const listener of listeners.slice()) {
      try {
        listener(state);
      } catch (error) {
        // One failing listener must not stop the others; the error still reaches the Surface's console.
        global.setTimeout(() => {
          throw error;
        }, 0);
      }
    }
  });

  send({ namespace: config.namespace, type: 'ready', instance_id: config.instanceId });
}
