/**
 * An MCP App view's `localStorage`, kept by its host (part of the containment prelude, containment.ts).
 *
 * A view runs in a sandboxed frame of an opaque origin, where the browser's `localStorage` throws: MCP Apps' own
 * examples write their state there (a map's camera, a PDF's page), and lose it. Here `localStorage` is a stand-in
 * with the `Storage` interface — `getItem`, `setItem`, `removeItem`, `clear`, `key`, `length`, and named properties
 * (`localStorage.theme = 'dark'`, `Object.keys(localStorage)`) — that starts with what the host kept for this view
 * (`start`'s `storage`) and sends the whole of it up the port after each change, at most once per `flushDelay` ms.
 * Keys and values are strings (anything else is turned into one, as the browser does); past `maxLength` UTF-16 code
 * units together or `maxItems` items, `setItem` throws a `QuotaExceededError` and changes nothing.
 *
 * `installViewStorage` is one self-contained function, like every part of the prelude: the host injects its source
 * text (documents.ts). It runs before any of the view's code, and keeps the built-ins it uses from then on.
 */

/** What the stand-in needs: its bounds, where its snapshots go, and the frame's timer. */
export interface ViewStorageOptions {
  /** What the host kept, as `[key, value]` pairs (checked again here: anything else is left out). */
  readonly initial: unknown;
  readonly maxLength: number;
  readonly maxItems: number;
  /** The longest a change waits before its snapshot goes up (ms). */
  readonly flushDelay: number;
  /** Sends a snapshot: every `[key, value]` pair, in insertion order. */
  readonly send: (entries: [string, string][]) => void;
}

/** The part of `window` the stand-in uses. */
export interface ViewStorageGlobal {
  setTimeout(callback: () => void, delay?: number): unknown;
  DOMException: new (message?: string, name?: string) => Error;
}

/** Installs `localStorage` on `global`; false when the browser would not let it be replaced. */
export function installViewStorage(global: ViewStorageGlobal, options: ViewStorageOptions): boolean {
  const call = Function.prototype.call;
  const bindCall = (method: unknown) =>
    (
      Function.prototype.bind as (
        this: unknown,
        self: unknown,
      ) => (self: unknown, ...args: never[]) => unknown
    ).call(call, method);
  const mapGet = bindCall(Map.prototype.get) as (map: Map<string, string>, key: string) => string | undefined;
  const mapSet = bindCall(Map.prototype.set) as (
    map: Map<string, string>,
    key: string,
    value: string,
  ) => void;
  const mapHas = bindCall(Map.prototype.has) as (map: Map<string, string>, key: string) => boolean;
  const mapDelete = bindCall(Map.prototype.delete) as (map: Map<string, string>, key: string) => boolean;
  const mapClear = bindCall(Map.prototype.clear) as (map: Map<string, string>) => void;
  const mapSize = bindCall(
    (Object.getOwnPropertyDescriptor(Map.prototype, 'size') as PropertyDescriptor).get,
  ) as (map: Map<string, string>) => number;
  const mapForEach = bindCall(Map.prototype.forEach) as (
    map: Map<string, string>,
    each: (value: string, key: string) => void,
  ) => void;
  const toText = String;
  const isArray = Array.isArray;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const ProxyClass = Proxy;
  const QuotaError = global.DOMException;
  const setTimer = global.setTimeout.bind(global);
  const { maxLength, maxItems, flushDelay, send } = options;

  const items = new Map<string, string>();
  let length = 0;
  if (isArray(options.initial))
    for (const pair of options.initial as unknown[]) {
      if (!isArray(pair) || pair.length !== 2) continue;
      const [key, value] = pair as unknown[];
      if (typeof key !== 'string' || typeof value !== 'string' || mapHas(items, key)) continue;
      if (length + key.length + value.length > maxLength || mapSize(items) >= maxItems) break;
      mapSet(items, key, value);
      length += key.length + value.length;
    }

  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const entries: [string, string][] = [];
    mapForEach(items, (value, key) => {
      entries[entries.length] = [key, value];
    });
    send(entries);
  };
  const changed = () => {
    if (scheduled) return;
    scheduled = true;
    setTimer(flush, flushDelay);
  };

  const keyAt = (index: number): string | null => {
    let found: string | null = null;
    let at = 0;
    mapForEach(items, (_value, key) => {
      if (at++ === index) found = key;
    });
    return found;
  };
  const methods = {
    getItem(key: unknown): string | null {
      const value = mapGet(items, toText(key));
      return value === undefined ? null : value;
    },
    setItem(key: unknown, value: unknown): void {
      const name = toText(key);
      const text = toText(value);
      const old = mapGet(items, name);
      if (old === text) return;
      const next = length - (old === undefined ? 0 : name.length + old.length) + name.length + text.length;
      if (next > maxLength || (old === undefined && mapSize(items) >= maxItems))
        throw new QuotaError(
          `This view's storage holds at most ${maxLength} characters of keys and values and ${maxItems} items.`,
          'QuotaExceededError',
        );
      mapSet(items, name, text);
      length = next;
      changed();
    },
    removeItem(key: unknown): void {
      const name = toText(key);
      const old = mapGet(items, name);
      if (old === undefined) return;
      mapDelete(items, name);
      length -= name.length + old.length;
      changed();
    },
    clear(): void {
      if (mapSize(items) === 0) return;
      mapClear(items);
      length = 0;
      changed();
    },
    key(index: unknown): string | null {
      const at = Number(index);
      return Number.isInteger(at) && at >= 0 ? keyAt(at) : null;
    },
    get length(): number {
      return mapSize(items);
    },
  };
  const prototype = Object.defineProperties({}, Object.getOwnPropertyDescriptors(methods));
  defineProperty(prototype, Symbol.toStringTag, { value: 'Storage' });
  freeze(prototype);
  const target = Object.create(prototype) as object;
  const own = (name: string | symbol) => typeof name === 'string' && mapHas(items, name);
  const storage = new ProxyClass(target, {
    get(object, name, receiver) {
      if (own(name) && !(name in object)) return mapGet(items, name as string);
      return Reflect.get(object, name, receiver);
    },
    set(_object, name, value) {
      if (typeof name !== 'string') return false;
      methods.setItem(name, value);
      return true;
    },
    deleteProperty(_object, name) {
      if (typeof name === 'string') methods.removeItem(name);
      return true;
    },
    has(object, name) {
      return own(name) || name in object;
    },
    ownKeys() {
      const keys: string[] = [];
      mapForEach(items, (_value, key) => {
        keys[keys.length] = key;
      });
      return keys;
    },
    getOwnPropertyDescriptor(_object, name) {
      if (!own(name)) return undefined;
      return { value: mapGet(items, name as string), writable: true, enumerable: true, configurable: true };
    },
    defineProperty(_object, name, descriptor) {
      if (typeof name !== 'string' || !('value' in descriptor)) return false;
      methods.setItem(name, descriptor.value);
      return true;
    },
    setPrototypeOf: () => false,
    preventExtensions: () => false,
  });
  try {
    defineProperty(global, 'localStorage', {
      get: () => storage,
      enumerable: true,
      configurable: false,
    });
    return true;
  } catch {
    return false;
  }
}
