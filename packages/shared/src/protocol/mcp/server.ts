/**
 * MCP servers as LineUp apps (DESIGN.md "MCP servers and MCP Apps"; docs/mcp.md). An MCP server installed by its
 * Streamable HTTP URL is an app of the app center like a MiniApp: the runtime lists its tools and reads the `ui://`
 * views they name (the MCP Apps extension, `io.modelcontextprotocol/ui`) once, at install, and keeps what it read as
 * an `McpServerManifest` — data only, checked by `parseMcpServerManifest` — beside the views' files, hash-pinned
 * like a verified bundle's.
 *
 * - Its agent-visible tools are Agent Tool descriptors of the one inventory, with an `mcp` executor naming the
 *   server's own tool name (and the view its calls open). The method, the call model and the risk are derived
 *   here, in one place: `mcpToolMethods`, `mcpToolCallModel`, `mcpToolRisk`.
 * - Tools the server shows only to its views (`_meta.ui.visibility: ["app"]`) are `app_tools`: a view may call
 *   them, an agent never sees them. Tools it shows to the model only (`["model"]`) are listed in `agent_only`: no
 *   view may call them. A view may call every other tool of its own server.
 * - Each view is a kept file (`views/<id>.html`) with the CSP domains and permissions it declared. LineUp grants
 *   neither: a view runs contained like every Surface, with no network (docs/mcp.md says what a host shows).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { z } from 'zod';
import { MCP_VIEW_CHANNEL_LIMITS } from '../../bridge/surface.js';
import { LineUpProtocolError } from '../../errors/errors.js';
import type { UIIssueCode } from '../../errors/issues.js';
import { canonicalJSONString } from '../../json/canonical.js';
import { messageBudget, parseShape } from '../../json/parse.js';
import { AGENT_TOOL_LIMITS } from '../../limits/tool-limits.js';
import { AppScopeSchema, TOKEN_PATTERN, TOOL_METHOD_PATTERN } from '../../names/names.js';
import {
  AppIdSchema,
  checkUnique,
  DisplayNameSchema,
  humanText,
  IntegritySchema,
  type LineUpRiskLevel,
  SemVerSchema,
} from '../messages/common.js';
import { jsonSchemaObject } from '../messages/json-schema-shape.js';
import { SurfaceIdSchema } from '../messages/surface.js';
import { BundleFileSchema, bundleIntegrity } from '../tools/bundle.js';
import {
  type AgentToolCallModel,
  AgentToolDescriptorSchema,
  McpToolNameSchema,
} from '../tools/descriptor.js';
import { checkNoScriptURLs } from '../tools/executable-content.js';
import { BundleHTMLPathSchema } from '../tools/manifest.js';

/** The MIME type of an MCP App view (`text/html;profile=mcp-app`); a resource of any other type is no view. */
export const MCP_APP_VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

/** The MCP Apps extension's id, which a client names in its capabilities to get views. */
export const MCP_APPS_EXTENSION_ID = 'io.modelcontextprotocol/ui';

/** The format `parseMcpServerManifest` reads. */
export const MCP_SERVER_MANIFEST_VERSION = 1;

/**
 * Bounds of an installed MCP server. A kept view may be larger than an agent's inline bundle (160 KiB): real views
 * are single HTML files that inline their framework and their data — 220–430 KiB for most of the ext-apps examples,
 * 614 KiB (`server-scenario-modeler`), 706 KiB (`server-sheet-music`, which inlines its notation engine), 1.12 MiB
 * (`server-threejs`, which inlines Three.js) and 4.1 MiB (`server-pdf`, which inlines pdf.js and its worker). The
 * default, 8 MiB, keeps all of them, the largest with room to nearly double; it is also the maximum, what one Surface
 * `start` message carries to a frame (`MCP_VIEW_CHANNEL_LIMITS.maxViewBytes`) and the most one file of a MiniApp
 * bundle may be, bounded because the host copies a view into the frame's document every time it opens and keeps one
 * copy per version. A host sets its own bound between 1 byte and `maxViewBytes`; `defaultMaxViewBytes` applies when
 * it sets none. Every other figure is a judgment stated here.
 */
export const MCP_SERVER_LIMITS = Object.freeze({
  /** UTF-16 code units of the server's URL. */
  maxUrlLength: 2_048,
  /** UTF-8 bytes of one view, unless the host sets another bound. */
  defaultMaxViewBytes: 8_388_608,
  /** The largest bound a host may set for one view (what the Surface channel carries). */
  maxViewBytes: MCP_VIEW_CHANNEL_LIMITS.maxViewBytes,
  /** Views one server may name. */
  maxViews: 16,
  /** Agent-visible tools of one server (as many as a MiniApp's). */
  maxTools: 64,
  /** Tools a server shows only to its views. */
  maxAppTools: 64,
  /** Pages of `tools/list` the installer reads before it refuses a server as endless. */
  maxListPages: 16,
  /** Domains in one of a view's declared CSP lists. */
  maxDomains: 32,
  /** Characters of one declared domain. */
  maxDomainLength: 256,
  /** UTF-16 code units of a `ui://` URI. */
  maxViewUriLength: 2_048,
  /** Characters of the server's version and protocol version as it names them. */
  maxVersionLength: 64,
  /** How long a call may take before it ends `timeout` (the MCP SDK's default request timeout). */
  defaultTimeoutMs: 60_000,
  /** UTF-8 bytes of a whole manifest. */
  maxManifestBytes: 1_048_576,
} as const);

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The parts of a WHATWG URL read here (browsers and Node have `URL`; this package names no platform types). */
interface ParsedURL {
  readonly protocol: string;
  readonly hostname: string;
  readonly username: string;
  readonly password: string;
  readonly hash: string;
}
const URLParser = (globalThis as unknown as { URL: new (text: string) => ParsedURL }).URL;

/** True for `http:` URLs a browser treats as potentially trustworthy: the loopback host. */
function isLoopback(url: ParsedURL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname) || /^127(?:\.\d{1,3}){3}$/.test(url.hostname);
}

/**
 * Why `text` cannot be an MCP server's URL, or undefined when it can: an absolute `https:` URL, or `http:` on the
 * loopback host only (a server on this machine); no user name or password (they would travel in every request and
 * show in the app center), no fragment.
 */
export function mcpServerUrlProblem(text: string): string | undefined {
  if (text.length === 0 || text.length > MCP_SERVER_LIMITS.maxUrlLength)
    return `A server URL has 1 to ${MCP_SERVER_LIMITS.maxUrlLength} characters.`;
  let url: ParsedURL;
  try {
    url = new URLParser(text);
  } catch {
    return 'This is not an absolute URL (such as https://example.com/mcp).';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return 'An MCP server is reached over https: (or http:).';
  if (url.protocol === 'http:' && !isLoopback(url))
    return 'Plain http: is allowed only for a server on this machine (localhost or 127.0.0.1); use https:.';
  if (url.username !== '' || url.password !== '') return 'A server URL carries no user name or password.';
  if (url.hash !== '') return 'A server URL has no #fragment.';
  return undefined;
}

export const McpServerUrlSchema = z
  .string()
  .max(MCP_SERVER_LIMITS.maxUrlLength)
  .superRefine((text, context) => {
    const problem = mcpServerUrlProblem(text);
    if (problem !== undefined)
      context.addIssue({
        code: 'custom',
        message: problem,
        params: { code: 'invalid_value' satisfies UIIssueCode },
      });
  })
  .meta({
    id: 'McpServerUrl',
    description: 'https: (or http: on localhost) URL of a Streamable HTTP MCP endpoint.',
  });

/** A `ui://` resource URI: printable ASCII without spaces. */
export const MCP_VIEW_URI_PATTERN = /^ui:\/\/[\x21-\x7e]+$/;

export const McpViewUriSchema = z
  .string()
  .max(MCP_SERVER_LIMITS.maxViewUriLength)
  .regex(MCP_VIEW_URI_PATTERN)
  .meta({ id: 'McpViewUri', description: 'A ui:// resource URI, printable ASCII.' });

const DomainListSchema = z
  .array(
    z
      .string()
      .min(1)
      .max(MCP_SERVER_LIMITS.maxDomainLength)
      .regex(/^[\x21-\x7e]+$/),
  )
  .max(MCP_SERVER_LIMITS.maxDomains);

/**
 * What a view declared it needs (`_meta.ui.csp`, `_meta.ui.permissions` of its resource), kept so a host can say
 * so and the user may grant it: of the origins, those `mcpViewGrantableSources` and `mcpViewGrantableResources` offer;
 * of the devices, those `mcpViewGrantableDevices` offers. Frames, base URIs, the camera and the microphone are never
 * granted. Until the user grants something a view has no network and no powerful features.
 */
export const McpViewDeclarationsSchema = z
  .strictObject({
    connect_domains: DomainListSchema,
    resource_domains: DomainListSchema,
    frame_domains: DomainListSchema,
    base_uri_domains: DomainListSchema,
    camera: z.boolean(),
    microphone: z.boolean(),
    geolocation: z.boolean(),
    clipboard_write: z.boolean(),
  })
  .meta({ id: 'McpViewDeclarations' });
export type McpViewDeclarations = z.infer<typeof McpViewDeclarationsSchema>;

/** True when a view declared it needs something LineUp does not give a view: the network, or a device feature. */
export function mcpViewAsksForMore(declared: McpViewDeclarations): boolean {
  return (
    declared.connect_domains.length > 0 ||
    declared.resource_domains.length > 0 ||
    declared.frame_domains.length > 0 ||
    declared.base_uri_domains.length > 0 ||
    declared.camera ||
    declared.microphone ||
    declared.geolocation ||
    declared.clipboard_write
  );
}

/** One kept view: its id, its `ui://` URI, the kept file, and what it declared. */
export const McpViewSchema = z
  .strictObject({
    id: SurfaceIdSchema,
    uri: McpViewUriSchema,
    path: BundleHTMLPathSchema,
    declared: McpViewDeclarationsSchema,
    prefers_border: z.boolean().exactOptional(),
  })
  .meta({ id: 'McpView' });
export type McpView = z.infer<typeof McpViewSchema>;

/** A tool the server shows only to its views: a view may call it with these arguments; no agent sees it. */
export const McpAppToolSchema = z
  .strictObject({
    tool: McpToolNameSchema,
    input_schema: jsonSchemaObject({
      maxBytes: AGENT_TOOL_LIMITS.maxDescriptorBytes,
      what: 'An input schema',
      objectRoot: true,
    }),
  })
  .meta({ id: 'McpAppTool' });
export type McpAppTool = z.infer<typeof McpAppToolSchema>;

const VersionTextSchema = z
  .string()
  .min(1)
  .max(MCP_SERVER_LIMITS.maxVersionLength)
  .regex(/^[\x21-\x7e]+$/);

/** The server as it introduced itself, and where it is. */
export const McpServerInfoSchema = z
  .strictObject({
    url: McpServerUrlSchema,
    name: humanText(128),
    version: VersionTextSchema,
    protocol_version: VersionTextSchema,
  })
  .meta({ id: 'McpServerInfo' });
export type McpServerInfo = z.infer<typeof McpServerInfoSchema>;

export const McpServerManifestSchema = z
  .strictObject({
    manifest_version: z.number().pipe(z.literal(MCP_SERVER_MANIFEST_VERSION)),
    kind: z.literal('mcp_server'),
    id: AppIdSchema,
    name: DisplayNameSchema,
    version: SemVerSchema,
    app_scope: AppScopeSchema,
    server: McpServerInfoSchema,
    tools: z.array(AgentToolDescriptorSchema).max(MCP_SERVER_LIMITS.maxTools),
    app_tools: z.array(McpAppToolSchema).max(MCP_SERVER_LIMITS.maxAppTools),
    /** Agent tools the server shows to the model only (`_meta.ui.visibility: ["model"]`): no view may call them. */
    agent_only: z.array(McpToolNameSchema).max(MCP_SERVER_LIMITS.maxTools),
    /**
     * What the server's annotations claimed, kept for the consent step (hints of an untrusted party: they lower no
     * question unless the user trusts the server). `read_only`: tools that say `readOnlyHint: true` and not
     * `destructiveHint: true`; `destructive`: tools that say `destructiveHint: true` explicitly (asked every time).
     * Agent tools and app tools alike, by the server's tool name. Absent in manifests kept before consent existed.
     */
    read_only: z
      .array(McpToolNameSchema)
      .max(MCP_SERVER_LIMITS.maxTools + MCP_SERVER_LIMITS.maxAppTools)
      .exactOptional(),
    destructive: z
      .array(McpToolNameSchema)
      .max(MCP_SERVER_LIMITS.maxTools + MCP_SERVER_LIMITS.maxAppTools)
      .exactOptional(),
    views: z.array(McpViewSchema).max(MCP_SERVER_LIMITS.maxViews),
    files: z.array(BundleFileSchema).max(MCP_SERVER_LIMITS.maxViews),
    integrity: IntegritySchema,
  })
  .superRefine((manifest, context) => {
    const issue = (path: (string | number)[], message: string, code: UIIssueCode) =>
      context.addIssue({ code: 'custom', path, message, params: { code } });
    checkUnique(manifest.tools, (tool) => tool.method, context, ['tools'], ['method'], 'method');
    checkUnique(manifest.views, (view) => view.id, context, ['views'], ['id'], 'view id');
    checkUnique(manifest.views, (view) => view.uri, context, ['views'], ['uri'], 'view URI');
    checkUnique(manifest.views, (view) => view.path, context, ['views'], ['path'], 'view path');
    const views = new Set(manifest.views.map((view) => view.id));
    const names = new Set<string>();
    manifest.tools.forEach((tool, index) => {
      if (tool.app_scope !== manifest.app_scope)
        issue(
          ['tools', index, 'app_scope'],
          "A tool's app_scope must be the manifest's app_scope.",
          'invalid_value',
        );
      if (tool.executor.kind !== 'mcp')
        issue(
          ['tools', index, 'executor', 'kind'],
          "An MCP server's tools are served by it (mcp).",
          'invalid_value',
        );
      if (tool.permissions.length > 0)
        issue(['tools', index, 'permissions'], 'An MCP tool declares no host capabilities.', 'invalid_value');
      const view = tool.executor.view;
      if (view !== undefined && !views.has(view))
        issue(
          ['tools', index, 'executor', 'view'],
          'The view must be one the manifest keeps.',
          'unknown_reference',
        );
      const name = tool.executor.tool;
      if (name !== undefined) {
        if (names.has(name))
          issue(['tools', index, 'executor', 'tool'], 'Each MCP tool is listed once.', 'duplicate_id');
        names.add(name);
      }
    });
    const agentTools = new Set(names);
    manifest.agent_only.forEach((name, index) => {
      if (!agentTools.has(name))
        issue(['agent_only', index], 'An agent-only tool must be one of the tools.', 'unknown_reference');
    });
    checkUnique(manifest.agent_only, (name) => name, context, ['agent_only'], [], 'tool');
    manifest.app_tools.forEach((tool, index) => {
      if (names.has(tool.tool))
        issue(['app_tools', index, 'tool'], 'Each MCP tool is listed once.', 'duplicate_id');
      names.add(tool.tool);
    });
    for (const key of ['read_only', 'destructive'] as const) {
      const listed = manifest[key] ?? [];
      checkUnique(listed, (name) => name, context, [key], [], 'tool');
      listed.forEach((name, index) => {
        if (!names.has(name))
          issue([key, index], 'A hinted tool must be one of the tools.', 'unknown_reference');
      });
    }
    const destructive = new Set(manifest.destructive ?? []);
    (manifest.read_only ?? []).forEach((name, index) => {
      if (destructive.has(name))
        issue(['read_only', index], 'A destructive tool is not read-only.', 'invalid_value');
    });
    // The files are exactly the views' files, and the integrity names them.
    checkUnique(manifest.files, (file) => file.path, context, ['files'], ['path'], 'path');
    const files = new Map(manifest.files.map((file) => [file.path, file]));
    manifest.views.forEach((view, index) => {
      if (!files.has(view.path))
        issue(['views', index, 'path'], 'A view needs its kept file in files.', 'missing_property');
    });
    const paths = new Set(manifest.views.map((view) => view.path));
    manifest.files.forEach((file, index) => {
      if (!paths.has(file.path))
        issue(['files', index, 'path'], 'A file must be one of the views.', 'unknown_reference');
      if (file.size > MCP_SERVER_LIMITS.maxViewBytes)
        issue(
          ['files', index, 'size'],
          `A view is at most ${MCP_SERVER_LIMITS.maxViewBytes} bytes.`,
          'too_large',
        );
    });
    if (manifest.integrity !== bundleIntegrity(manifest.files))
      issue(['integrity'], 'The integrity must be bundleIntegrity of files.', 'invalid_value');
    // Each descriptor already scanned itself.
    checkNoScriptURLs({ ...manifest, tools: [] }, context);
  })
  .meta({ id: 'McpServerManifest' });
export type McpServerManifest = z.infer<typeof McpServerManifestSchema>;

const MANIFEST_BUDGET = messageBudget(MCP_SERVER_LIMITS.maxManifestBytes);

/**
 * Validates what a runtime keeps of an MCP server: safe JSON within 1 MiB, then the closed shape and its rules.
 * Returns a deep-frozen copy; throws `LineUpProtocolError` with located, coded issues.
 */
export function parseMcpServerManifest(input: unknown): McpServerManifest {
  return parseShape(McpServerManifestSchema, input, { budget: MANIFEST_BUDGET }, LineUpProtocolError);
}

// ── Deriving LineUp names and policy from what a server lists ───────────────────────────────────────────────

/** The annotations of an MCP tool that LineUp reads (all optional hints; the MCP defaults apply when absent). */
export interface McpToolAnnotations {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/**
 * The risk of an MCP tool, from its annotations: `display_only` only for a tool that says it changes nothing
 * (`readOnlyHint: true`) and does not say it is destructive; every other tool — one without annotations, one that
 * changes something, one marked `destructiveHint` — is `user_confirmation`. Hints are the server's word, never a
 * proof: LineUp does not lower a risk beyond what the server claims.
 */
export function mcpToolRisk(annotations: McpToolAnnotations | undefined): LineUpRiskLevel {
  return annotations?.readOnlyHint === true && annotations.destructiveHint !== true
    ? 'display_only'
    : 'user_confirmation';
}

/** `query` for a tool that says it changes nothing (`readOnlyHint: true`), else `command`. */
export function mcpToolCallModel(
  annotations: McpToolAnnotations | undefined,
): Extract<AgentToolCallModel, 'query' | 'command'> {
  return annotations?.readOnlyHint === true && annotations.destructiveHint !== true ? 'query' : 'command';
}

const shortHex = (text: string, length: number) => bytesToHex(sha256(utf8ToBytes(text))).slice(0, length);

/**
 * The app scope of a server from its name: lower case, runs of anything but letters and digits as `_`, starting
 * with a letter, at most 32 characters (`Basic MCP App Server (React)` → `basic_mcp_app_server_react`); `mcp` when
 * nothing of the name is left.
 */
export function mcpAppScope(serverName: string): string {
  const slug = serverName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+/, '')
    .slice(0, AGENT_TOOL_LIMITS.maxAppScopeLength)
    .replace(/_+$/, '');
  return TOKEN_PATTERN.test(slug) ? slug : 'mcp';
}

/** The app id of an MCP server installed under `appScope`: `mcp.<app_scope>`. */
export function mcpAppId(appScope: string): string {
  return `mcp.${appScope}`;
}

/**
 * The LineUp method of each MCP tool name: anything but letters, digits and `_` becomes `_`, a first character
 * that is not a lower-case letter gets a `t_` in front (`get-time` → `get_time`, `2fa` → `t_2fa`). Names that
 * would meet (`get-time` and `get_time`), or that are longer than 64 characters, get `_` and 6 hex digits of their
 * own name's SHA-256, so each keeps the same method whatever else the server lists.
 */
export function mcpToolMethods(names: readonly string[]): ReadonlyMap<string, string> {
  const base = new Map<string, string>();
  for (const name of names) {
    let method = name.replace(/[^A-Za-z0-9_]/g, '_');
    if (!/^[a-z]/.test(method)) method = `t_${method}`;
    base.set(name, method);
  }
  const counts = new Map<string, number>();
  for (const method of base.values()) counts.set(method, (counts.get(method) ?? 0) + 1);
  const methods = new Map<string, string>();
  for (const [name, method] of base) {
    const unique =
      (counts.get(method) ?? 0) === 1 && method.length <= AGENT_TOOL_LIMITS.maxMethodLength
        ? method
        : `${method.slice(0, AGENT_TOOL_LIMITS.maxMethodLength - 7)}_${shortHex(name, 6)}`;
    if (!TOOL_METHOD_PATTERN.test(unique)) throw new RangeError(`No method can be derived from ${name}.`);
    methods.set(name, unique);
  }
  return methods;
}

/**
 * The version of an installed server: the server's own version when it is Semantic Versioning (else `0.0.0`),
 * with build metadata of 12 hex digits of what was kept (`1.0.0+3f2a…`). A changed tool list or view is another
 * version, even when the server did not change its own.
 */
export function mcpServerVersion(serverVersion: string, kept: unknown): string {
  const core = /^(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)(?:\+.*)?$/.exec(serverVersion)?.[1];
  const candidate = `${core ?? '0.0.0'}+${shortHex(canonicalJSONString(kept), 12)}`;
  return SemVerSchema.safeParse(candidate).success
    ? candidate
    : `0.0.0+${shortHex(canonicalJSONString(kept), 12)}`;
}

/**
 * The output schema an MCP tool without one is published with: its result is the call's content blocks, as the
 * server returned them (`{ content: [{ type: 'text', text }, …] }`).
 */
export const MCP_CONTENT_OUTPUT_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze({
  type: 'object',
  required: ['content'],
  additionalProperties: false,
  properties: Object.freeze({
    content: Object.freeze({
      type: 'array',
      items: Object.freeze({
        type: 'object',
        required: ['type'],
        properties: Object.freeze({ type: Object.freeze({ type: 'string' }) }),
      }),
    }),
  }),
});
