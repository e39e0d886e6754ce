/**
 * Reading an MCP server for install or refresh (`@lineup/shared` docs/mcp.md): connect, list every tool (a bounded
 * number of pages), read each `ui://` view a tool names, check everything, and build the `McpServerManifest` the
 * registry keeps, with the views' bytes. Nothing is written here: `AppRegistry.installMcpServer` keeps the result in
 * one transaction. A server that cannot be reached, that answers off-spec, or whose view cannot be kept is refused
 * with an `McpServerError` that says why (and, for a tool or a view, which one).
 */
import { hashCanonicalJSON, LineUpError, LineUpProtocolError } from '@lineup/shared';
import {
  AGENT_TOOL_LIMITS,
  type AgentToolDescriptor,
  bundleIntegrity,
  fileIntegrity,
  MCP_APP_VIEW_MIME_TYPE,
  MCP_CONTENT_OUTPUT_SCHEMA,
  MCP_SERVER_LIMITS,
  MCP_SERVER_MANIFEST_VERSION,
  MCP_TOOL_NAME_PATTERN,
  MCP_VIEW_URI_PATTERN,
  type McpServerManifest,
  type McpToolAnnotations,
  type McpViewDeclarations,
  mcpAppId,
  mcpAppScope,
  mcpServerUrlProblem,
  mcpServerVersion,
  mcpToolCallModel,
  mcpToolMethods,
  mcpToolRisk,
  parseMcpServerManifest,
} from '@lineup/shared/protocol';
import { SchemaUnusableError } from '../tools/schema-check.js';
import { assertUsableSchema } from '../tools/schema-validator.js';
import type { McpConnector, McpSession } from './session.js';

/**
 * Why a server was refused: `invalid_url` (not a URL an MCP server may have), `unreachable` (no answer, or it refused
 * `initialize`), `off_spec` (an answer that is not what the MCP specification says), `too_many` (more tools, views
 * or pages than LineUp keeps), `view_refused` (a view that cannot be kept: another MIME type, too large, not HTML
 * a contained view can run), `schema_unusable` (a tool schema the runtime cannot validate with), `scope_taken`
 * (another app uses its app scope: install it under another), `unauthorized` (it answered 401: it asks who you are —
 * an access token, or signing in — and was given none, or one it refused).
 */
export type McpServerErrorCode =
  | 'invalid_url'
  | 'unreachable'
  | 'unauthorized'
  | 'off_spec'
  | 'too_many'
  | 'view_refused'
  | 'schema_unusable'
  | 'scope_taken';

export class McpServerError extends LineUpError<McpServerErrorCode> {
  override readonly name = 'McpServerError';
  /** The tool or the view at fault, when it is one (bounded). */
  readonly subject: string | undefined;

  constructor(
    code: McpServerErrorCode,
    message: string,
    options: ErrorOptions & { readonly subject?: string } = {},
  ) {
    super(code, message, options);
    this.subject = options.subject === undefined ? undefined : bounded(options.subject, 160);
  }
}

export interface ReadMcpServerOptions {
  readonly connect: McpConnector;
  /** The app scope to install under (default: from the server's name, `mcpAppScope`). */
  readonly appScope?: string;
  /** The bound of one view in bytes, up to `MCP_SERVER_LIMITS.maxViewBytes` (default `defaultMaxViewBytes`). */
  readonly maxViewBytes?: number;
  /**
   * Checks that a contained view can run a view's HTML (the host's Surface host does: no network, no module it would
   * have to fetch); throws with a sentence that says why not.
   */
  readonly checkView?: (html: string, uri: string) => void;
  readonly signal?: AbortSignal;
}

export interface ReadMcpServer {
  readonly manifest: McpServerManifest;
  /** The views' bytes, by the manifest's paths. */
  readonly files: ReadonlyMap<string, Uint8Array>;
}

/** A tool as the server listed it, checked. */
interface ListedTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema: Record<string, unknown> | undefined;
  readonly annotations: McpToolAnnotations | undefined;
  readonly viewUri: string | undefined;
  /** `_meta.ui.visibility`: who may call it (both when absent). */
  readonly forAgent: boolean;
  readonly forView: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** Server text shown to people or agents: no control characters, trimmed, at most `max` characters. */
function bounded(text: string, max: number): string {
  const clean = text.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
}

function offSpec(message: string, subject?: string): McpServerError {
  return new McpServerError('off_spec', message, subject === undefined ? {} : { subject });
}

/**
 * Whether `error` is a server's 401 as the MCP SDK reports it: its `UnauthorizedError`, or an `SdkHttpError` with
 * status 401 (its name and fields, so the SDK need not be loaded to tell).
 */
export function isUnauthorized(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'UnauthorizedError') return true;
  const status =
    (error as { status?: unknown; data?: { status?: unknown } }).status ??
    (error as { data?: { status?: unknown } }).data?.status;
  return status === 401 || /\b401\b|unauthori[sz]ed/i.test(error.message);
}

/** The reason of an error for people: its message, bounded (a server's text never decides more than that). */
function reasonOf(error: unknown): string {
  return bounded(error instanceof Error ? error.message : String(error), 200) || 'no reason given';
}

/**
 * Reads the server at `url` and returns what to keep, or throws `McpServerError`. The connection is closed either
 * way.
 */
export async function readMcpServer(url: string, options: ReadMcpServerOptions): Promise<ReadMcpServer> {
  const problem = mcpServerUrlProblem(url);
  if (problem !== undefined) throw new McpServerError('invalid_url', problem);
  const maxViewBytes = options.maxViewBytes ?? MCP_SERVER_LIMITS.defaultMaxViewBytes;
  if (!Number.isInteger(maxViewBytes) || maxViewBytes < 1 || maxViewBytes > MCP_SERVER_LIMITS.maxViewBytes)
    throw new RangeError(`maxViewBytes is a whole number from 1 to ${MCP_SERVER_LIMITS.maxViewBytes}.`);
  let session: McpSession;
  try {
    session = await options.connect(url, { signal: options.signal });
  } catch (error) {
    if (isUnauthorized(error))
      throw new McpServerError(
        'unauthorized',
        `The MCP server at ${url} asks who you are (401): it needs an access token or a sign-in, and was given none it accepts.`,
        { cause: error },
      );
    throw new McpServerError(
      'unreachable',
      `The MCP server at ${url} could not be reached: ${reasonOf(error)}`,
      {
        cause: error,
      },
    );
  }
  try {
    return await readSession(session, url, { ...options, maxViewBytes });
  } finally {
    await session.close().catch(() => {});
  }
}

async function readSession(
  session: McpSession,
  url: string,
  options: ReadMcpServerOptions & { readonly maxViewBytes: number },
): Promise<ReadMcpServer> {
  const serverName = bounded(session.server.title ?? session.server.name, 128);
  if (serverName === '') throw offSpec('The server gave no name in initialize.');
  const tools = await listAllTools(session, options.signal);
  const forAgent = tools.filter((tool) => tool.forAgent);
  const forView = tools.filter((tool) => !tool.forAgent && tool.forView);
  if (forAgent.length > MCP_SERVER_LIMITS.maxTools)
    throw new McpServerError(
      'too_many',
      `The server lists ${forAgent.length} tools for agents; LineUp keeps at most ${MCP_SERVER_LIMITS.maxTools}.`,
    );
  if (forView.length > MCP_SERVER_LIMITS.maxAppTools)
    throw new McpServerError(
      'too_many',
      `The server lists ${forView.length} tools for its views only; LineUp keeps at most ${MCP_SERVER_LIMITS.maxAppTools}.`,
    );

  // The views the agent's tools open, each read once.
  const uris = [...new Set(forAgent.flatMap((tool) => (tool.viewUri === undefined ? [] : [tool.viewUri])))];
  if (uris.length > MCP_SERVER_LIMITS.maxViews)
    throw new McpServerError(
      'too_many',
      `The server's tools name ${uris.length} views; LineUp keeps at most ${MCP_SERVER_LIMITS.maxViews}.`,
    );
  const viewIds = new Map<string, string>();
  const views: McpServerManifest['views'][number][] = [];
  const files = new Map<string, Uint8Array>();
  for (const uri of uris) {
    // Named by its URI, so a view keeps its id across refreshes whatever else the server lists.
    const id = `view_${hashCanonicalJSON(uri).slice(0, 12)}`;
    const read = await readView(session, uri, options);
    const path = `views/${id}.html`;
    viewIds.set(uri, id);
    files.set(path, read.bytes);
    views.push({
      id,
      uri,
      path,
      declared: read.declared,
      ...(read.prefersBorder === undefined ? {} : { prefers_border: read.prefersBorder }),
    });
  }

  const appScope = options.appScope ?? mcpAppScope(serverName);
  const methods = mcpToolMethods(forAgent.map((tool) => tool.name));
  const descriptors: AgentToolDescriptor[] = forAgent.map((tool) => {
    const view = tool.viewUri === undefined ? undefined : viewIds.get(tool.viewUri);
    return {
      app_scope: appScope,
      method: methods.get(tool.name) as string,
      contract_version: '1',
      description: tool.description,
      input_schema: tool.inputSchema,
      output_schema: tool.outputSchema ?? { ...MCP_CONTENT_OUTPUT_SCHEMA },
      call_model: mcpToolCallModel(tool.annotations),
      idempotency: 'call_id',
      timeout_ms: MCP_SERVER_LIMITS.defaultTimeoutMs,
      activation: 'activation_not_required',
      permissions: [],
      risk: mcpToolRisk(tool.annotations),
      executor: { kind: 'mcp', tool: tool.name, ...(view === undefined ? {} : { view }) },
    } as AgentToolDescriptor;
  });
  for (const descriptor of descriptors) {
    const name = `${descriptor.app_scope}.${descriptor.method}`;
    checkSchema(descriptor.input_schema, name, 'input', descriptor.executor.tool as string);
    checkSchema(descriptor.output_schema, name, 'output', descriptor.executor.tool as string);
  }
  const appTools = forView.map((tool) => ({ tool: tool.name, input_schema: tool.inputSchema }));
  for (const tool of appTools) checkSchema(tool.input_schema, tool.tool, 'input', tool.tool);

  const fileList = views.map((view) => {
    const bytes = files.get(view.path) as Uint8Array;
    return { path: view.path, size: bytes.length, integrity: fileIntegrity(bytes) };
  });
  const agentOnly = forAgent.filter((tool) => !tool.forView).map((tool) => tool.name);
  // The annotations' claims, for the consent step (it trusts them only for a server the user trusts).
  const hinted = [...forAgent, ...forView];
  const readOnly = hinted
    .filter((tool) => tool.annotations?.readOnlyHint === true && tool.annotations.destructiveHint !== true)
    .map((tool) => tool.name);
  const destructive = hinted
    .filter((tool) => tool.annotations?.destructiveHint === true)
    .map((tool) => tool.name);
  const kept = {
    tools: descriptors,
    app_tools: appTools,
    agent_only: agentOnly,
    ...(readOnly.length === 0 ? {} : { read_only: readOnly }),
    ...(destructive.length === 0 ? {} : { destructive }),
    views,
    files: fileList,
  };
  const candidate = {
    manifest_version: MCP_SERVER_MANIFEST_VERSION,
    kind: 'mcp_server',
    id: mcpAppId(appScope),
    name: serverName,
    version: mcpServerVersion(session.server.version, kept),
    app_scope: appScope,
    server: {
      url,
      name: serverName,
      version: bounded(session.server.version, MCP_SERVER_LIMITS.maxVersionLength).replace(/\s/g, '_') || '0',
      protocol_version:
        bounded(session.protocolVersion, MCP_SERVER_LIMITS.maxVersionLength).replace(/\s/g, '_') || '0',
    },
    ...kept,
    integrity: bundleIntegrity(fileList),
  };
  let manifest: McpServerManifest;
  try {
    manifest = parseMcpServerManifest(candidate);
  } catch (error) {
    if (!(error instanceof LineUpProtocolError)) throw error;
    const first = error.issues[0];
    throw new McpServerError(
      'off_spec',
      `What the server lists cannot be kept: ${first === undefined ? 'invalid' : `${first.path}: ${first.message}`}`,
      { cause: error },
    );
  }
  return { manifest, files };
}

function checkSchema(schema: object, name: string, which: 'input' | 'output', tool: string): void {
  try {
    assertUsableSchema(schema, { kind: 'tool', name, schema: which });
  } catch (error) {
    if (!(error instanceof SchemaUnusableError)) throw error;
    throw new McpServerError('schema_unusable', `Tool ${tool}: ${error.message}`, {
      subject: tool,
      cause: error,
    });
  }
}

async function listAllTools(session: McpSession, signal?: AbortSignal): Promise<ListedTool[]> {
  const tools: ListedTool[] = [];
  const names = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page === MCP_SERVER_LIMITS.maxListPages)
      throw new McpServerError(
        'too_many',
        `The server's tool list goes on past ${MCP_SERVER_LIMITS.maxListPages} pages; LineUp reads no more.`,
      );
    let result: unknown;
    try {
      result = await session.listTools(cursor, signal);
    } catch (error) {
      throw offSpec(`The server did not answer tools/list: ${reasonOf(error)}`);
    }
    if (!isObject(result) || !Array.isArray(result.tools))
      throw offSpec('The answer to tools/list has no tools array.');
    for (const item of result.tools) {
      const tool = checkTool(item);
      if (names.has(tool.name)) throw offSpec(`The server lists the tool ${tool.name} twice.`, tool.name);
      names.add(tool.name);
      tools.push(tool);
      if (tools.length > MCP_SERVER_LIMITS.maxTools + MCP_SERVER_LIMITS.maxAppTools)
        throw new McpServerError(
          'too_many',
          `The server lists more than ${MCP_SERVER_LIMITS.maxTools + MCP_SERVER_LIMITS.maxAppTools} tools.`,
        );
    }
    const next = result.nextCursor;
    if (next === undefined || next === null || next === '') return tools;
    if (typeof next !== 'string' || next.length > 1_024)
      throw offSpec('The tools/list cursor is not a string.');
    cursor = next;
  }
}

/** One tool of `tools/list`, checked: its name, schemas, annotations, and the `_meta.ui` of the MCP Apps extension. */
function checkTool(item: unknown): ListedTool {
  if (!isObject(item) || typeof item.name !== 'string') throw offSpec('A tool in tools/list has no name.');
  const name = item.name;
  const shown = bounded(name, 80);
  if (!MCP_TOOL_NAME_PATTERN.test(name))
    throw offSpec(
      `The tool name "${shown}" is not 1–128 of the characters A–Z a–z 0–9 _ - . / (the MCP specification's set).`,
      name,
    );
  const inputSchema = item.inputSchema;
  if (!isObject(inputSchema) || inputSchema.type !== 'object')
    throw offSpec(`The tool ${name} has no inputSchema of type object.`, name);
  const outputSchema = item.outputSchema;
  if (outputSchema !== undefined && (!isObject(outputSchema) || outputSchema.type !== 'object'))
    throw offSpec(`The outputSchema of the tool ${name} is not of type object.`, name);
  const annotations = item.annotations;
  if (annotations !== undefined && !isObject(annotations))
    throw offSpec(`The annotations of the tool ${name} are not an object.`, name);
  const hint = (key: keyof McpToolAnnotations) => {
    const value = annotations?.[key];
    if (value !== undefined && typeof value !== 'boolean')
      throw offSpec(`The ${key} of the tool ${name} is not a boolean.`, name);
    return value as boolean | undefined;
  };
  const hints: McpToolAnnotations = {
    ...(hint('readOnlyHint') === undefined ? {} : { readOnlyHint: hint('readOnlyHint') as boolean }),
    ...(hint('destructiveHint') === undefined ? {} : { destructiveHint: hint('destructiveHint') as boolean }),
  };
  hint('idempotentHint');
  hint('openWorldHint');
  const { viewUri, forAgent, forView } = uiMeta(item._meta, name);
  const text =
    typeof item.description === 'string'
      ? item.description
      : typeof item.title === 'string'
        ? item.title
        : '';
  const description =
    bounded(text, AGENT_TOOL_LIMITS.maxDescriptionLength) || `The ${shown} tool of this server.`;
  return {
    name,
    description,
    inputSchema,
    outputSchema,
    annotations: annotations === undefined ? undefined : hints,
    viewUri,
    forAgent,
    forView,
  };
}

/** `_meta.ui.resourceUri` (or the older `_meta["ui/resourceUri"]`) and `_meta.ui.visibility`, checked. */
function uiMeta(meta: unknown, name: string): { viewUri?: string; forAgent: boolean; forView: boolean } {
  if (meta === undefined) return { forAgent: true, forView: true };
  if (!isObject(meta)) throw offSpec(`The _meta of the tool ${name} is not an object.`, name);
  const ui = meta.ui;
  if (ui !== undefined && !isObject(ui))
    throw offSpec(`The _meta.ui of the tool ${name} is not an object.`, name);
  const uri = ui?.resourceUri ?? meta['ui/resourceUri'];
  if (uri !== undefined) {
    if (
      typeof uri !== 'string' ||
      uri.length > MCP_SERVER_LIMITS.maxViewUriLength ||
      !MCP_VIEW_URI_PATTERN.test(uri)
    )
      throw offSpec(`The view of the tool ${name} is not a ui:// URI.`, name);
  }
  const visibility = ui?.visibility;
  let forAgent = true;
  let forView = true;
  if (visibility !== undefined) {
    if (
      !Array.isArray(visibility) ||
      visibility.length === 0 ||
      visibility.some((entry) => entry !== 'model' && entry !== 'app')
    )
      throw offSpec(`The _meta.ui.visibility of the tool ${name} is not a list of "model" and "app".`, name);
    forAgent = visibility.includes('model');
    forView = visibility.includes('app');
  }
  return { ...(uri === undefined ? {} : { viewUri: uri as string }), forAgent, forView };
}

const NONE_DECLARED: McpViewDeclarations = Object.freeze({
  connect_domains: [],
  resource_domains: [],
  frame_domains: [],
  base_uri_domains: [],
  camera: false,
  microphone: false,
  geolocation: false,
  clipboard_write: false,
});

/** Reads one view and checks it: the MCP App MIME type, one HTML text within the bound, what it declares. */
async function readView(
  session: McpSession,
  uri: string,
  options: ReadMcpServerOptions & { readonly maxViewBytes: number },
): Promise<{ bytes: Uint8Array; declared: McpViewDeclarations; prefersBorder?: boolean }> {
  let result: unknown;
  try {
    result = await session.readResource(uri, options.signal);
  } catch (error) {
    throw new McpServerError('view_refused', `The view ${uri} could not be read: ${reasonOf(error)}`, {
      subject: uri,
    });
  }
  if (!isObject(result) || !Array.isArray(result.contents))
    throw offSpec(`The answer to resources/read of ${uri} has no contents.`, uri);
  const listed: unknown[] = result.contents;
  const contents = listed.filter((item) => isObject(item) && (item.uri === uri || listed.length === 1));
  const content = contents[0];
  if (contents.length !== 1 || !isObject(content))
    throw new McpServerError(
      'view_refused',
      `The view ${uri} must be exactly one resource; the server sent ${contents.length}.`,
      {
        subject: uri,
      },
    );
  const mimeType = content.mimeType;
  if (mimeType !== MCP_APP_VIEW_MIME_TYPE)
    throw new McpServerError(
      'view_refused',
      `The view ${uri} is ${typeof mimeType === 'string' ? bounded(mimeType, 80) : 'of no MIME type'}, not ${MCP_APP_VIEW_MIME_TYPE}.`,
      { subject: uri },
    );
  let bytes: Uint8Array;
  if (typeof content.text === 'string') {
    // Bounded before it is encoded: every UTF-16 code unit is at least one UTF-8 byte, so a longer text is too large
    // (counted, not encoded, for the refusal).
    if (content.text.length > options.maxViewBytes)
      throw tooLarge(uri, utf8Length(content.text), options.maxViewBytes);
    bytes = new TextEncoder().encode(content.text);
  } else if (typeof content.blob === 'string') {
    if (content.blob.length > Math.ceil(options.maxViewBytes / 3) * 4 + 4)
      throw tooLarge(uri, Math.floor((content.blob.length * 3) / 4), options.maxViewBytes);
    try {
      bytes = Uint8Array.from(atob(content.blob), (character) => character.charCodeAt(0));
    } catch {
      throw offSpec(`The view ${uri} is a blob that is not base64.`, uri);
    }
  } else throw offSpec(`The view ${uri} has neither text nor blob.`, uri);
  if (bytes.length > options.maxViewBytes) throw tooLarge(uri, bytes.length, options.maxViewBytes);
  let html: string;
  try {
    html = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new McpServerError('view_refused', `The view ${uri} is not UTF-8 text.`, { subject: uri });
  }
  try {
    options.checkView?.(html, uri);
  } catch (error) {
    throw new McpServerError('view_refused', `The view ${uri} cannot run contained: ${reasonOf(error)}`, {
      subject: uri,
      cause: error,
    });
  }
  const ui = isObject(content._meta) && isObject(content._meta.ui) ? content._meta.ui : undefined;
  return {
    bytes,
    declared: declarations(ui, uri),
    ...(typeof ui?.prefersBorder === 'boolean' ? { prefersBorder: ui.prefersBorder } : {}),
  };
}

function tooLarge(uri: string, size: number, max: number): McpServerError {
  const raise =
    max < MCP_SERVER_LIMITS.maxViewBytes
      ? ` (the limit can be raised up to ${MCP_SERVER_LIMITS.maxViewBytes})`
      : '';
  return new McpServerError(
    'view_refused',
    `The view ${uri} is ${size} bytes; this host keeps views of at most ${max} bytes${raise}.`,
    { subject: uri },
  );
}

/** The UTF-8 length of `text` (a lone surrogate counts as the three bytes of U+FFFD, as `TextEncoder` writes it). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit < 0xdc00 && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next < 0xe000) {
        bytes += 4;
        index++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** What a view declared in `_meta.ui.csp` and `_meta.ui.permissions`: kept to be shown, never granted. */
function declarations(ui: Record<string, unknown> | undefined, uri: string): McpViewDeclarations {
  if (ui === undefined) return NONE_DECLARED;
  const csp = ui.csp;
  if (csp !== undefined && !isObject(csp))
    throw offSpec(`The _meta.ui.csp of the view ${uri} is not an object.`, uri);
  const list = (key: string): string[] => {
    const value = csp?.[key];
    if (value === undefined) return [];
    if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string'))
      throw offSpec(`The _meta.ui.csp.${key} of the view ${uri} is not a list of origins.`, uri);
    if (value.length > MCP_SERVER_LIMITS.maxDomains)
      throw new McpServerError(
        'too_many',
        `The view ${uri} declares ${value.length} ${key}; LineUp keeps at most ${MCP_SERVER_LIMITS.maxDomains}.`,
        { subject: uri },
      );
    return (value as string[]).map((entry) =>
      bounded(entry, MCP_SERVER_LIMITS.maxDomainLength).replace(/\s/g, ''),
    );
  };
  const permissions = ui.permissions;
  if (permissions !== undefined && !isObject(permissions))
    throw offSpec(`The _meta.ui.permissions of the view ${uri} is not an object.`, uri);
  const asked = (key: string) => permissions?.[key] !== undefined && permissions[key] !== false;
  return {
    connect_domains: list('connectDomains'),
    resource_domains: list('resourceDomains'),
    frame_domains: list('frameDomains'),
    base_uri_domains: list('baseUriDomains'),
    camera: asked('camera'),
    microphone: asked('microphone'),
    geolocation: asked('geolocation'),
    clipboard_write: asked('clipboardWrite'),
  };
}
