/**
 * The built-ins of a Surface frame's realm that the containment prelude (containment.ts) and its parts work
 * through, captured first: Surface code runs after the prelude in the same realm and may rewrite any prototype, so
 * everything the containment relies on later is taken here before any part of it changes the realm, and methods
 * are called uncurried (`method(receiver, ...args)`).
 *
 * Like every part of the prelude, `captureFrameIntrinsics` is one self-contained function — no imports, no outer
 * variables — whose source text the host injects (documents.ts).
 */
import type { FrameWindow, Uncurried } from './containment-config.js';

/** What `captureFrameIntrinsics` returns: each part of the prelude takes the ones it needs. */
export type FrameIntrinsics = ReturnType<typeof captureFrameIntrinsics>;

export function captureFrameIntrinsics(global: FrameWindow) {
  const doc = global.document;
  const hostWindow = global.parent.parent; // the frame sits in the host's containment wrapper
  const functionCall: unknown = Function.prototype.call;
  const uncurry = (Function.prototype.bind as (this: unknown, self: unknown) => unknown).call(
    Function.prototype.bind,
    functionCall,
  ) as (method: unknown) => Uncurried;
  const getter = (prototype: object, name: string) =>
    uncurry((Object.getOwnPropertyDescriptor(prototype, name) as PropertyDescriptor).get);
  const defineProperty = Object.defineProperty;
  const getPrototypeOf = Object.getPrototypeOf;
  const ObjectPrototype = Object.prototype;
  const isArray = Array.isArray;
  const now = global.performance.now.bind(global.performance);
  const min = Math.min;
  const abs = Math.abs;
  const freeze = Object.freeze;
  const addListener = uncurry(global.EventTarget.prototype.addEventListener);
  const dispatchEvent = uncurry(global.EventTarget.prototype.dispatchEvent);
  const MessageEventClass = global.MessageEvent;
  const createObject = Object.create;
  const preventDefault = uncurry(global.Event.prototype.preventDefault);
  const stopImmediatePropagation = uncurry(global.Event.prototype.stopImmediatePropagation);
  const composedPath = uncurry(global.Event.prototype.composedPath);
  const targetOf = getter(global.Event.prototype, 'target');
  const dataOf = getter(global.MessageEvent.prototype, 'data');
  const localNameOf = getter(global.Element.prototype, 'localName');
  const getAttribute = uncurry(global.Element.prototype.getAttribute);
  const getAttributeNS = uncurry(global.Element.prototype.getAttributeNS);
  const isConnectedOf = getter(global.Node.prototype, 'isConnected');
  const appendChild = uncurry(global.Node.prototype.appendChild);
  const getBoundingClientRect = uncurry(global.Element.prototype.getBoundingClientRect);
  const blurHTML = uncurry(global.HTMLElement.prototype.blur);
  const focusHTML = uncurry(global.HTMLElement.prototype.focus);
  const blurSVG = uncurry(global.SVGElement.prototype.blur);
  const DocumentPrototype = global.Document.prototype;
  const createElement = uncurry(DocumentPrototype.createElement);
  const createElementNS = uncurry(DocumentPrototype.createElementNS);
  const toLowerCase = uncurry(String.prototype.toLowerCase);
  const lastIndexOf = uncurry(String.prototype.lastIndexOf);
  const slice = uncurry(String.prototype.slice);
  const regExpExec = RegExp.prototype.exec;
  /** A pattern whose test cannot be redirected: `test` looks up `exec` on the instance, so pin it there. */
  const pinned = (source: string, flags: string) => {
    const pattern = new RegExp(source, flags);
    defineProperty(pattern, 'exec', { value: regExpExec });
    return uncurry(RegExp.prototype.test).bind(null, pattern) as (text: string) => boolean;
  };
  const isPlainObject = (value: unknown): value is Record<string, unknown> => {
    if (typeof value !== 'object' || value === null || isArray(value)) return false;
    const prototype = getPrototypeOf(value);
    return prototype === ObjectPrototype || prototype === null;
  };
  return freeze({
    doc,
    hostWindow,
    uncurry,
    getter,
    defineProperty,
    isArray,
    now,
    min,
    abs,
    freeze,
    addListener,
    dispatchEvent,
    MessageEventClass,
    createObject,
    preventDefault,
    stopImmediatePropagation,
    composedPath,
    targetOf,
    dataOf,
    localNameOf,
    getAttribute,
    getAttributeNS,
    isConnectedOf,
    appendChild,
    getBoundingClientRect,
    blurHTML,
    focusHTML,
    blurSVG,
    DocumentPrototype,
    createElement,
    createElementNS,
    toLowerCase,
    lastIndexOf,
    slice,
    pinned,
    isPlainObject,
  });
}
