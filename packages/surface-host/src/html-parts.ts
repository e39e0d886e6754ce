import { LineUpProtocolError } from '@lineup/shared';

/**
 * What the two readers of a single HTML document share — an MCP App view's (`mcpViewBundle`) and a MiniApp page's
 * (`miniAppPageFromFiles`): which scripts run as classic JavaScript, which `<link>`s are hints left out, and how a
 * refusal shows a URL.
 */

/** Script types a browser runs as classic JavaScript (an empty type too). */
export const CLASSIC_SCRIPT_TYPES = new Set([
  '',
  'text/javascript',
  'application/javascript',
  'application/ecmascript',
  'text/ecmascript',
  'text/jscript',
  'text/livescript',
  'application/x-javascript',
  'application/x-ecmascript',
  'text/x-javascript',
  'text/x-ecmascript',
]);

/** `<link rel>` values that are hints or metadata: left out of a view or a page, which fetches nothing by them. */
export const IGNORED_LINKS = new Set([
  'icon',
  'shortcut',
  'apple-touch-icon',
  'apple-touch-icon-precomposed',
  'mask-icon',
  'manifest',
  'preconnect',
  'dns-prefetch',
  'prefetch',
  'preload',
  'modulepreload',
  'prerender',
  'author',
  'license',
  'canonical',
]);

/** `text` as a refusal shows it: at most 120 characters. */
export const shown = (text: string) => (text.length <= 120 ? text : `${text.slice(0, 117)}...`);

/** A refusal of what a document holds, at `path`, its message bounded to 300 characters. */
export function htmlRefusal(path: string, message: string): LineUpProtocolError {
  return new LineUpProtocolError([{ path, code: 'invalid_value', message: message.slice(0, 300) }]);
}
