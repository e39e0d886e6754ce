/**
 * The origins an MCP App view may be granted (its resource's `_meta.ui.csp`, once the user grants them): each of its
 * `connectDomains` becomes a source of the view frame's `connect-src`, and each of its `resourceDomains` a source of
 * its `img-src`, `style-src`, `font-src` and `media-src` (never `script-src`: a view's scripts are its own, inline).
 * So each is checked here to be exactly one origin a Content Security Policy reads as intended — never a keyword, a
 * scheme alone, a path, or text that would end the directive and start another.
 */

/** Hosts a browser treats as this machine: the only ones a view may reach over plain `http:` or `ws:`. */
const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;
/** A DNS name (its labels, an optional leading `*.` for every subdomain), an IPv4 address, or a bracketed IPv6. */
const HOST =
  /^(?:(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])$/;
const ORIGIN = /^(https|wss|http|ws):\/\/([^/:]+|\[[^\]]+\])(?::(\d{1,5}|\*))?\/?$/;

/**
 * Why `domain` cannot be granted as a source of a view's `connect-src`, or undefined when it can: it must be one
 * origin, `scheme://host[:port]`, with the scheme `https:` or `wss:` (`http:` and `ws:` only on this machine's
 * loopback host, as a page served over `https:` could not use them anyway), a host that is a name (`*.` may stand
 * for every subdomain), an IPv4 address or a bracketed IPv6 address, and a port of 1–65535 or `*`. Keywords such as
 * `'self'` are refused: in a view's frame `'self'` would name the host page's own origin.
 */
export function mcpViewConnectSourceProblem(domain: string): string | undefined {
  if (typeof domain !== 'string' || domain.length === 0 || domain.length > 256)
    return 'An origin is 1 to 256 characters.';
  const match = ORIGIN.exec(domain.toLowerCase());
  if (match === null)
    return 'Not one origin: write scheme://host or scheme://host:port (https or wss), with no path, keyword or space.';
  const [, scheme, host, port] = match as unknown as [string, string, string, string | undefined];
  if (!HOST.test(host)) return 'The host is not a name, an IPv4 address or a bracketed IPv6 address.';
  if (port !== undefined && port !== '*' && (Number(port) < 1 || Number(port) > 65_535))
    return 'The port is 1 to 65535, or *.';
  if ((scheme === 'http' || scheme === 'ws') && !LOOPBACK_HOST.test(host))
    return `${scheme}: only on this machine (localhost, 127.0.0.1, [::1]); elsewhere use ${scheme}s:.`;
  return undefined;
}

/** `domain` as the source a policy lists: lower case, without a trailing `/`. Throws for one that cannot be granted. */
export function mcpViewConnectSource(domain: string): string {
  const problem = mcpViewConnectSourceProblem(domain);
  if (problem !== undefined) throw new TypeError(`${JSON.stringify(domain.slice(0, 256))}: ${problem}`);
  return domain.toLowerCase().replace(/\/$/, '');
}

/**
 * The origins of a view's declared `connectDomains` (its manifest's `declared.connect_domains`) that can be granted,
 * as policy sources, without repeats: what a host offers the user to grant, all or nothing for the view.
 */
export function mcpViewGrantableSources(declared: { readonly connect_domains: readonly string[] }): string[] {
  return [
    ...new Set(
      declared.connect_domains
        .filter((domain) => mcpViewConnectSourceProblem(domain) === undefined)
        .map(mcpViewConnectSource),
    ),
  ];
}

/**
 * What a view may connect to: of the sources the user granted it, those it still declares (a view refreshed to
 * declare more gets nothing more; one that declares fewer loses the rest).
 */
export function mcpViewGrantedSources(
  declared: { readonly connect_domains: readonly string[] },
  granted: readonly string[] | undefined,
): string[] {
  if (granted === undefined || granted.length === 0) return [];
  return mcpViewGrantableSources(declared).filter((source) => granted.includes(source));
}

/**
 * Why `domain` cannot be granted as a source of a view's images, styles, fonts and media, or undefined when it can:
 * one origin as for `connect-src` (`mcpViewConnectSourceProblem`), fetched over `https:` (`http:` on the loopback
 * host); `wss:` and `ws:` load no resource.
 */
export function mcpViewResourceSourceProblem(domain: string): string | undefined {
  const problem = mcpViewConnectSourceProblem(domain);
  if (problem !== undefined) return problem;
  return /^wss?:/i.test(domain)
    ? 'A resource is fetched over https: (http: on this machine), not a WebSocket.'
    : undefined;
}

/**
 * The origins of a view's declared `resourceDomains` that can be granted, as policy sources, without repeats: what a
 * host offers beside its connect origins (one grant, all or nothing for the view).
 */
export function mcpViewGrantableResources(declared: {
  readonly resource_domains: readonly string[];
}): string[] {
  return [
    ...new Set(
      declared.resource_domains
        .filter((domain) => mcpViewResourceSourceProblem(domain) === undefined)
        .map(mcpViewConnectSource),
    ),
  ];
}

/**
 * What a view may load images, styles, fonts and media from: of the sources the user granted it, those of its
 * declared `resourceDomains` (a grant holds the view's connect and resource origins together; each is read against
 * its own list, so an origin granted only to connect never becomes a resource origin).
 */
export function mcpViewGrantedResources(
  declared: { readonly resource_domains: readonly string[] },
  granted: readonly string[] | undefined,
): string[] {
  if (granted === undefined || granted.length === 0) return [];
  return mcpViewGrantableResources(declared).filter((source) => granted.includes(source));
}

/**
 * The device features a view may be granted, by their permissions-policy names: those a document of an opaque origin
 * can use in Chromium once both of its frames delegate them (`allow="geolocation *"`). A view's declared `camera` and
 * `microphone` are never granted: Chromium refuses media capture to an opaque origin whatever a frame delegates.
 */
export const MCP_VIEW_GRANTABLE_DEVICES = Object.freeze(['geolocation', 'clipboard-write'] as const);
export type McpViewDevice = (typeof MCP_VIEW_GRANTABLE_DEVICES)[number];

/** The grantable device features a view declares (`_meta.ui.permissions`), as policy names. */
export function mcpViewGrantableDevices(declared: {
  readonly geolocation: boolean;
  readonly clipboard_write: boolean;
}): McpViewDevice[] {
  return [
    ...(declared.geolocation ? (['geolocation'] as const) : []),
    ...(declared.clipboard_write ? (['clipboard-write'] as const) : []),
  ];
}

/**
 * The device features a view may use now: of what the user granted it (the same list as its origins), those it still
 * declares.
 */
export function mcpViewGrantedDevices(
  declared: { readonly geolocation: boolean; readonly clipboard_write: boolean },
  granted: readonly string[] | undefined,
): McpViewDevice[] {
  if (granted === undefined || granted.length === 0) return [];
  return mcpViewGrantableDevices(declared).filter((device) => granted.includes(device));
}
