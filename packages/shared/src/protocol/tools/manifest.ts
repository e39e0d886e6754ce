/**
 * The MiniApp manifest (seed 003 §4.1): what the SDK's Vite plugin writes next to a bundle at build time and
 * the runtime validates before it registers anything — app identity, version and integrity, its app scope,
 * entry and declared Surfaces, the host capabilities it may request, and its Agent Tool descriptors.
 *
 * A manifest is data, never code. `parseMiniAppManifest` proves it: safe JSON (no function can pass), closed
 * objects at every level (a `handler`, `js`, `script`, `eval` or `code` field is an unknown property), carried
 * JSON Schemas with a closed keyword list, bundle-relative HTML paths for entries, and no string anywhere
 * that is a script URL (tools/executable-content.ts).
 */
import { z } from 'zod';
import { LineUpProtocolError } from '../../errors/errors.js';
import type { UIIssueCode } from '../../errors/issues.js';
import { messageBudget, parseShape } from '../../json/parse.js';
import { AGENT_TOOL_LIMITS } from '../../limits/tool-limits.js';
import { AppScopeSchema } from '../../names/names.js';
import { mcpViewConnectSourceProblem } from '../mcp/view-domains.js';
import {
  AppIdSchema,
  CapabilityNameSchema,
  checkUnique,
  DisplayNameSchema,
  IntegritySchema,
  SemVerSchema,
} from '../messages/common.js';
import { LINEUP_WIRE_LIMITS } from '../messages/limits.js';
import { SurfaceIdSchema, UIEventNameSchema } from '../messages/surface.js';
import { BUNDLE_LIMITS, BundleFileSchema, bundleIntegrity } from './bundle.js';
import { AgentToolDescriptorSchema } from './descriptor.js';
import { checkNoScriptURLs } from './executable-content.js';

/** The manifest format this parser reads. */
export const MINIAPP_MANIFEST_VERSION = 1;

/** Bounds of a manifest. Seed 003 names none; each figure is a judgment stated once here. */
export const MINIAPP_MANIFEST_LIMITS = Object.freeze({
  /** UTF-8 bytes of a whole manifest. */
  maxManifestBytes: 524_288,
  /** Agent Tools one MiniApp declares. */
  maxTools: 64,
  /** UTF-16 code units of a bundle-relative path. */
  maxPathLength: 256,
  /** Origins the app's page declares it connects to (`connect_domains`). */
  maxConnectDomains: 32,
} as const);

/**
 * An origin the app's page may be granted to connect to: one origin as `mcpViewConnectSourceProblem` allows
 * (`https://api.example.com`, `wss://*.example.com`; `http:`/`ws:` only on the loopback host; no path, no keyword).
 */
const MiniAppConnectDomainSchema = z
  .string()
  .max(256)
  .superRefine((domain, context) => {
    const problem = mcpViewConnectSourceProblem(domain);
    if (problem !== undefined)
      context.addIssue({
        code: 'custom',
        message: problem,
        params: { code: 'invalid_value' satisfies UIIssueCode },
      });
  })
  .meta({ id: 'MiniAppConnectDomain', description: 'One origin: scheme://host[:port], https or wss.' });

/**
 * A path inside the bundle to an HTML file (`index.html`, `surfaces/canvas.html`): segments of letters,
 * digits, `.`, `_` and `-` that do not start with a dot — so no `..`, no scheme, no host, no query — ending
 * in `.html`.
 */
export const BUNDLE_HTML_PATH_PATTERN =
  /^[A-Za-z0-9_-][A-Za-z0-9._-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*\.html$/;

export const BundleHTMLPathSchema = z
  .string()
  .min(1)
  .max(MINIAPP_MANIFEST_LIMITS.maxPathLength)
  .regex(BUNDLE_HTML_PATH_PATTERN)
  .meta({ id: 'BundleHTMLPath', description: 'A relative path inside the bundle to an .html file.' });

/** A Surface the app declares: agents may open it by app id and surface id (seed 000 §5.1). */
export const MiniAppSurfaceSchema = z
  .strictObject({
    id: SurfaceIdSchema,
    entry: BundleHTMLPathSchema,
    events: z.array(UIEventNameSchema).max(LINEUP_WIRE_LIMITS.maxEventsPerSurface),
  })
  .superRefine((surface, context) =>
    checkUnique(surface.events, (event) => event, context, ['events'], [], 'event'),
  )
  .meta({ id: 'MiniAppSurface' });
export type MiniAppSurface = z.infer<typeof MiniAppSurfaceSchema>;

export const MiniAppManifestSchema = z
  .strictObject({
    manifest_version: z.number().pipe(z.literal(MINIAPP_MANIFEST_VERSION)),
    id: AppIdSchema,
    name: DisplayNameSchema,
    version: SemVerSchema,
    /** The digest of `files` (`bundleIntegrity`): one value naming the whole bundle. Given with `files` only. */
    integrity: IntegritySchema.exactOptional(),
    /** Every file of the bundle but the manifest, with its size and digest (written by the SDK's build). */
    files: z.array(BundleFileSchema).max(BUNDLE_LIMITS.maxFiles).exactOptional(),
    /** The scope of the app's session data and of every tool it declares (seed 003 §1, §4.1). */
    app_scope: AppScopeSchema,
    entry: BundleHTMLPathSchema,
    surfaces: z.array(MiniAppSurfaceSchema).max(LINEUP_WIRE_LIMITS.maxSurfacesPerApplication),
    /** Host capabilities the app may request; declaring one never grants it (seed 000 §5.2). */
    permissions: z.array(CapabilityNameSchema).max(AGENT_TOOL_LIMITS.maxPermissions),
    tools: z.array(AgentToolDescriptorSchema).max(MINIAPP_MANIFEST_LIMITS.maxTools),
    /**
     * Origins the app's page connects to (fetch, WebSocket, …). Declaring one never grants it: the user grants
     * them, all or nothing, and the page reaches no other (its frame's `connect-src`).
     */
    connect_domains: z
      .array(MiniAppConnectDomainSchema)
      .min(1)
      .max(MINIAPP_MANIFEST_LIMITS.maxConnectDomains)
      .exactOptional(),
  })
  .superRefine((manifest, context) => {
    if (manifest.connect_domains !== undefined)
      checkUnique(
        manifest.connect_domains.map((domain) => domain.toLowerCase().replace(/\/$/, '')),
        (domain) => domain,
        context,
        ['connect_domains'],
        [],
        'origin',
      );
    checkUnique(manifest.surfaces, (surface) => surface.id, context, ['surfaces'], ['id'], 'surface id');
    checkUnique(manifest.permissions, (name) => name, context, ['permissions'], [], 'permission');
    checkUnique(manifest.tools, (tool) => tool.method, context, ['tools'], ['method'], 'method');
    const declared = new Set(manifest.permissions);
    manifest.tools.forEach((tool, index) => {
      if (tool.executor.kind === 'mcp') {
        context.addIssue({
          code: 'custom',
          path: ['tools', index, 'executor', 'kind'],
          message:
            'A MiniApp serves its tools itself or with a runtime built-in; only an MCP server has mcp tools.',
          params: { code: 'invalid_value' satisfies UIIssueCode },
        });
      }
      if (tool.app_scope !== manifest.app_scope) {
        context.addIssue({
          code: 'custom',
          path: ['tools', index, 'app_scope'],
          message: "A tool's app_scope must be the manifest's app_scope.",
          params: { code: 'invalid_value' satisfies UIIssueCode },
        });
      }
      tool.permissions.forEach((permission, position) => {
        if (!declared.has(permission)) {
          context.addIssue({
            code: 'custom',
            path: ['tools', index, 'permissions', position],
            message: "A tool's permission must be one the manifest declares.",
            params: { code: 'unknown_reference' satisfies UIIssueCode },
          });
        }
      });
    });
    checkBundleFiles(manifest, context);
    // Each descriptor already scanned itself; scanning them again would report every issue twice.
    checkNoScriptURLs({ ...manifest, tools: [] }, context);
  })
  .meta({ id: 'MiniAppManifest' });
export type MiniAppManifest = z.infer<typeof MiniAppManifestSchema>;

/** The manifest's own file name, which its file list never holds. */
export const MINIAPP_MANIFEST_FILE_NAME = 'lineup.manifest.json';

/**
 * `files` and `integrity` come together: unique paths, not the manifest itself, within the bundle budget, the HTML
 * entry and every Surface entry among them, and `integrity` equal to `bundleIntegrity(files)`.
 */
function checkBundleFiles(
  manifest: {
    integrity?: string;
    files?: readonly z.infer<typeof BundleFileSchema>[];
    entry: string;
    surfaces: readonly { entry: string }[];
  },
  context: z.RefinementCtx,
): void {
  const issue = (path: (string | number)[], message: string, code: UIIssueCode) =>
    context.addIssue({ code: 'custom', path, message, params: { code } });
  const { files, integrity } = manifest;
  if (files === undefined) {
    if (integrity !== undefined)
      issue(['files'], 'An integrity needs the file list it is the digest of.', 'missing_property');
    return;
  }
  if (integrity === undefined) {
    issue(
      ['integrity'],
      'A file list needs its integrity (bundleIntegrity of the list).',
      'missing_property',
    );
    return;
  }
  checkUnique(files, (file) => file.path, context, ['files'], ['path'], 'path');
  const paths = new Set(files.map((file) => file.path));
  files.forEach((file, index) => {
    if (file.path === MINIAPP_MANIFEST_FILE_NAME)
      issue(['files', index, 'path'], 'The manifest does not list itself.', 'invalid_value');
  });
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total > BUNDLE_LIMITS.maxBundleBytes)
    issue(['files'], `The bundle is larger than ${BUNDLE_LIMITS.maxBundleBytes} bytes.`, 'too_large');
  if (!paths.has(manifest.entry))
    issue(['entry'], 'The entry must be one of the listed files.', 'unknown_reference');
  manifest.surfaces.forEach((surface, index) => {
    if (!paths.has(surface.entry))
      issue(
        ['surfaces', index, 'entry'],
        "A Surface's entry must be one of the listed files.",
        'unknown_reference',
      );
  });
  if (paths.size === files.length && bundleIntegrity(files) !== integrity)
    issue(['integrity'], 'The integrity is not the digest of the file list.', 'invalid_value');
}

const MANIFEST_BUDGET = messageBudget(MINIAPP_MANIFEST_LIMITS.maxManifestBytes);

/**
 * Validates a MiniApp manifest: safe JSON within 512 KiB, then the closed shape, every descriptor, and the
 * rules between them. Returns a deep-frozen copy; throws `LineUpProtocolError` with located, coded issues.
 */
export function parseMiniAppManifest(input: unknown): MiniAppManifest {
  return parseShape(MiniAppManifestSchema, input, { budget: MANIFEST_BUDGET }, LineUpProtocolError);
}
