/**
 * Why an app center action did not happen: whatever the runtime threw, kept as data so each language words it
 * itself (i18n/app-center-problems.ts) and the file and both digests of a refused bundle are always shown.
 */
import { BundleIntegrityError, type BundleIntegrityErrorCode } from '@lineup/runtime';
import { McpServerError, type McpServerErrorCode } from '@lineup/runtime/mcp';
import { LineUpProtocolError } from '@lineup/shared';

/** Why an action did not happen, in a form each language words itself (the view does). */
export type AppCenterProblem =
  | {
      readonly kind: 'integrity';
      readonly code: BundleIntegrityErrorCode;
      /** The runtime's own English sentence (it names the file and both digests). */
      readonly message: string;
      readonly path?: string;
      readonly expected?: string;
      readonly actual?: string;
    }
  | {
      readonly kind: 'protocol';
      readonly issues: readonly { readonly path: string; readonly code: string; readonly message: string }[];
    }
  /** The URL is not an http(s) URL. */
  | { readonly kind: 'invalid_url' }
  /** The URL is on another site than this page (`origin` is this page's). */
  | { readonly kind: 'other_origin'; readonly origin: string }
  /** A dev bundle (`?dev=`) that is not on this machine (`localhost`, `127.0.0.1`, `[::1]`). */
  | { readonly kind: 'dev_not_local' }
  /** The dev server did not give its manifest (`status` 0: unreachable): its words, bounded. */
  | { readonly kind: 'dev_unavailable'; readonly status: number; readonly message: string }
  /**
   * The dev server's build failed (it answered 503): its message as it wrote it (lines kept), and the app the
   * last good build installed, which keeps running (`running` absent: none is installed).
   */
  | {
      readonly kind: 'dev_build_failed';
      readonly message: string;
      readonly running?: { readonly name: string; readonly version: string };
    }
  /** The picked folder has no manifest at its top (`folder` is its name). */
  | { readonly kind: 'no_manifest'; readonly folder: string }
  | { readonly kind: 'nothing_picked' }
  /** An update check of an app installed from a picked folder: there is no URL to fetch again. */
  | { readonly kind: 'no_bundle_url' }
  /** An MCP server was refused: the runtime's code, and its English sentence (it names the tool or view). */
  | {
      readonly kind: 'mcp';
      readonly code: McpServerErrorCode;
      readonly message: string;
      readonly subject?: string;
    }
  /** This host was started without a way to reach MCP servers. */
  | { readonly kind: 'mcp_unavailable' }
  /** An access token given for an MCP server that cannot be one (`reason`, in English, says why). */
  | { readonly kind: 'bad_token'; readonly reason: string }
  /** A sign-in to an MCP server did not end with tokens (`message`, in English, says why). */
  | {
      readonly kind: 'sign_in_failed';
      readonly reason: 'popup_blocked' | 'popup_closed' | 'timed_out' | 'refused' | 'failed';
      readonly message: string;
    }
  | { readonly kind: 'failed'; readonly message: string };

/** Turns whatever an action threw into a problem to show; nothing is swallowed. */
export function problemOf(error: unknown): AppCenterProblem {
  if (error instanceof BundleIntegrityError)
    return {
      kind: 'integrity',
      code: error.code,
      message: error.message,
      ...(error.path === undefined ? {} : { path: error.path }),
      ...(error.expected === undefined ? {} : { expected: error.expected }),
      ...(error.actual === undefined ? {} : { actual: error.actual }),
    };
  if (error instanceof McpServerError)
    return {
      kind: 'mcp',
      code: error.code,
      message: error.message,
      ...(error.subject === undefined ? {} : { subject: error.subject }),
    };
  if (error instanceof LineUpProtocolError)
    return {
      kind: 'protocol',
      issues: error.issues.map(({ path, code, message }) => ({ path, code, message })),
    };
  return {
    kind: 'failed',
    message: error instanceof Error ? `${error.name}: ${error.message}` : 'An unknown error.',
  };
}
