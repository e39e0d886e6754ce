/**
 * The `LineUpSurface` bridge (seed 000 §4.2): the one global a Surface gets. It runs inside the sandboxed
 * frame, installed by the frame's containment (containment.ts) before any agent content exists, and offers
 * exactly three calls:
 *
 * ```js
 * LineUpSurface.event('refresh', { unit: 'c' }) // a user intent → the host's ui.event
 * LineUpSurface.onState((state) => render(state)) // the state of ui.open after ready, and of every ui.patch
 * LineUpSurface.resize(document.documentElement.scrollHeight)
 * ```
 *
 * `installSurfaceBridge` is written as one self-contained function — no imports, no outer variables — because
 * the host injects its source text into the frame (documents.ts): what the tests run here is what the frame
 * runs. It checks what a Surface author passes and throws a TypeError/RangeError at the call, so mistakes show
 * up in the author's console; the host validates every message again. Messages leave through `send`, the
 * channel's private port, which Surface code never holds.
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
  /** Events at once, then `eventsPerSecond` sustained (a token bucket). */
  readonly eventBurst: number;
  readonly eventsPerSecond: number;
}

/** The object a Surface sees as `window.LineUpSurface`. */
export interface LineUpSurfaceAPI {
  event(name: string, data?: Record<string, unknown>): void;
  onState(listener: (state: Record<string, unknown>) => void): () => void;
  resize(height: number): void;
}

/** The part of `window` the bridge uses. */
export interface SurfaceBridgeGlobal {
  setTimeout(callback: () => void, delay?: number): unknown;
  requestAnimationFrame(callback: () => void): unknown;
  performance: { now(): number };
  TextEncoder: new () => { encode(text: string): { length: number } };
}

/** What the containment keeps of the bridge: the door for state coming down the port. */
export interface SurfaceBridge {
  deliverState(state: Record<string, unknown>): void;
}

export function installSurfaceBridge(
  global: SurfaceBridgeGlobal,
  config: SurfaceBridgeConfig,
  send: (message: Record<string, unknown>) => void,
): SurfaceBridge {
  const encoder = new global.TextEncoder();
  const namePattern = new RegExp(config.eventNamePattern);
  const now = global.performance.now.bind(global.performance);
  const setTimer = global.setTimeout.bind(global);
  const nextFrame = global.requestAnimationFrame.bind(global);
  const listeners: ((state: Record<string, unknown>) => void)[] = [];
  let latest: Record<string, unknown> | undefined;
  // A token bucket: `eventBurst` events at once, refilled at `eventsPerSecond` (seed 000 §2.5: events are user
  // intents, not a data stream).
  let tokens = config.eventBurst;
  let refilledAt = now();
  let pendingHeight: number | undefined;

  const isPlainObject = (value: unknown): value is Record<string, unknown> => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const prototype = Object.getPrototypeOf(value);
    return prototype === Object.prototype || prototype === null;
  };

  /** Why `value` is not JSON within the depth limit, or null. */
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

  const takeToken = (): boolean => {
    const at = now();
    tokens = Math.min(config.eventBurst, tokens + ((at - refilledAt) / 1000) * config.eventsPerSecond);
    refilledAt = at;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
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
      if (!takeToken())
        throw new RangeError(
          `LineUpSurface.event: too many events; at most ${config.eventBurst} at once and ${config.eventsPerSecond} per second.`,
        );
      send({ namespace: config.namespace, type: 'event', instance_id: config.instanceId, event: name, data });
    },
    onState(listener: (state: Record<string, unknown>) => void): () => void {
      if (typeof listener !== 'function') throw new TypeError('LineUpSurface.onState: pass a function.');
      listeners.push(listener);
      // A listener added after the state arrived gets it at once, on the next task, like later updates.
      const current = latest;
      if (current !== undefined)
        setTimer(() => {
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
      // One resize per animation frame, the latest height: a layout loop cannot flood the host.
      const scheduled = pendingHeight !== undefined;
      pendingHeight = height;
      if (scheduled) return;
      nextFrame(() => {
        const value = pendingHeight;
        pendingHeight = undefined;
        send({ namespace: config.namespace, type: 'resize', instance_id: config.instanceId, height: value });
      });
    },
  };
  Object.freeze(api);
  Object.defineProperty(global, 'LineUpSurface', { value: api, enumerable: true });

  return {
    deliverState(state: Record<string, unknown>): void {
      latest = state;
      for (const listener of listeners.slice()) {
        try {
          listener(state);
        } catch (error) {
          // One failing listener must not stop the others; the error still reaches the Surface's console.
          setTimer(() => {
            throw error;
          }, 0);
        }
      }
    },
  };
}
