/**
 * What the containment prelude (containment.ts) is given: its configuration, passed as JSON into the frame, and the
 * loose types of the frame's realm it works through (only captured intrinsics, so typed loosely on purpose).
 */
import type { SurfaceBridgeConfig } from './bridge.js';

/** Everything the prelude needs, passed as JSON into the frame; the instance comes with `start`. */
export interface SurfaceContainmentConfig extends Omit<SurfaceBridgeConfig, 'instanceId'> {
  /** The frame's script nonce: the bundle script gets it too. */
  readonly nonce: string;
  /** Source of the case-insensitive pattern of markup an HTML sink refuses (frames, objects, links). */
  readonly forbiddenMarkup: string;
  /** Lower-case names of HTML elements a Surface cannot create. */
  readonly forbiddenElements: readonly string[];
  /** Globals removed before Surface code runs (besides every `RTC*` and `webkitRTC*` interface). */
  readonly removedGlobals: readonly string[];
  /** Removed element interfaces put back as inert stand-ins (for `instanceof` checks; they construct nothing). */
  readonly elementStandIns: readonly string[];
  /** The name of the prelude's private Trusted Types policy; `default` is the other allowed name. */
  readonly trustedTypesPolicy: string;
  /**
   * The name under which the Surface's own `trustedTypes.createPolicy` calls make their policies, whatever name
   * they ask for (the frame's CSP allows it, with duplicates); each goes through the default policy's checks.
   */
  readonly ownTrustedTypesPolicy: string;
  /** How long a navigation is held (ms): the first time, each later time, and in all. */
  readonly navigationHold: { readonly first: number; readonly next: number; readonly total: number };
  /**
   * The instance and bundle of a frame loaded for one Surface, as the host's `start` would carry them: the
   * prelude starts it right after `ready`, and takes no `start` from the host.
   */
  readonly start?: {
    readonly instance_id: string;
    readonly html: string;
    readonly css: string;
    readonly js: string;
    readonly protocol?: 'mcp_app' | 'miniapp';
    readonly modules?: readonly string[];
    readonly fragment?: string;
    readonly storage?: readonly (readonly [string, string])[];
  };
  /** An MCP App view's `localStorage` (containment-storage.ts): its bounds, and how long a change waits (ms). */
  readonly viewStorage: {
    readonly maxLength: number;
    readonly maxItems: number;
    readonly flushDelay: number;
  };
}

// biome-ignore lint/suspicious/noExplicitAny: the frame's window, used through captured intrinsics only.
export type FrameWindow = any;
/** A built-in method taking its receiver as the first argument. */
// biome-ignore lint/suspicious/noExplicitAny: built-ins of the frame's realm, typed loosely on purpose.
export type Uncurried = (self: unknown, ...args: any[]) => any;
