/**
 * The question an install asks (GrantQuestionDialog.tsx): what the installed app's page or views declare they need
 * that the user may grant — origins to connect to, origins to load images, styles, fonts and media from, device
 * features — asked right after the user installed, added or updated it. Nothing is granted until the user says so;
 * "Not now" leaves it as it is, and every grant stays in the app center to give or take back later.
 *
 * An install asks only about what is new: a part (a MiniApp's page, or one view of an MCP server) that declares
 * something it did not declare before and is not all granted. A dev bundle rebuilt with the same declarations, or a
 * refresh that changed only a view's markup, asks nothing again.
 */
import type { AppRecord } from '@lineup/runtime';
import {
  type McpViewDeclarations,
  type McpViewDevice,
  mcpViewConnectSourceProblem,
  mcpViewGrantableDevices,
  mcpViewGrantableResources,
  mcpViewGrantableSources,
  mcpViewGrantedDevices,
  mcpViewGrantedResources,
  mcpViewGrantedSources,
  mcpViewResourceSourceProblem,
} from '@lineup/shared/protocol';

/** The grant key of a MiniApp's page in its consent settings (`consent.network.page`). */
export const PAGE_PART = 'page';

/** What one part of an app asks for: all of it is granted together, or none. */
export interface GrantAsk {
  /** `page` for a MiniApp's page; a view's id for an MCP server's view. */
  readonly part: string;
  /** A view's `ui://` URI, as the app center shows it; absent for a MiniApp's page. */
  readonly uri?: string;
  readonly connect: readonly string[];
  readonly resources: readonly string[];
  readonly devices: readonly McpViewDevice[];
  /** What a view also declared that no view is ever given (`mcpViewWithheld`), to say so beside the question. */
  readonly withheld?: McpViewWithheld | undefined;
}

/** What a view declared that LineUp never gives a view. */
export interface McpViewWithheld {
  /** Origins that cannot be granted (`'self'`, plain `http:` elsewhere), frame and base URI origins. */
  readonly domains: readonly string[];
  /** Whether it declared the camera or the microphone (Chromium refuses media capture to an opaque origin). */
  readonly media: boolean;
}

/** What `declared` asks for that no view gets, or undefined when it asks for nothing of the kind. */
export function mcpViewWithheld(declared: McpViewDeclarations): McpViewWithheld | undefined {
  const domains = [
    ...new Set([
      ...declared.connect_domains.filter((domain) => mcpViewConnectSourceProblem(domain) !== undefined),
      ...declared.resource_domains.filter((domain) => mcpViewResourceSourceProblem(domain) !== undefined),
      ...declared.frame_domains,
      ...declared.base_uri_domains,
    ]),
  ];
  const media = declared.camera || declared.microphone;
  return domains.length === 0 && !media ? undefined : { domains, media };
}

export interface GrantQuestion {
  readonly appId: string;
  readonly name: string;
  readonly kind: AppRecord['kind'];
  /** One per part that asks, in the app's order. */
  readonly asks: readonly GrantAsk[];
}

/** Everything each part of `record` may be granted, and what it has been granted, by part. */
function grantable(record: AppRecord): Map<string, { ask: GrantAsk; complete: boolean }> {
  const parts = new Map<string, { ask: GrantAsk; complete: boolean }>();
  const network = record.consent?.network;
  if (record.kind === 'mcp_server') {
    for (const view of record.manifest.views) {
      const { declared } = view;
      const grant = network?.[view.id];
      const ask: GrantAsk = {
        part: view.id,
        uri: view.uri,
        connect: mcpViewGrantableSources(declared),
        resources: mcpViewGrantableResources(declared),
        devices: mcpViewGrantableDevices(declared),
        withheld: mcpViewWithheld(declared),
      };
      const complete =
        mcpViewGrantedSources(declared, grant).length === ask.connect.length &&
        mcpViewGrantedResources(declared, grant).length === ask.resources.length &&
        mcpViewGrantedDevices(declared, grant).length === ask.devices.length;
      parts.set(view.id, { ask, complete });
    }
    return parts;
  }
  const declared = { connect_domains: record.manifest.connect_domains ?? [] };
  const connect = mcpViewGrantableSources(declared);
  const complete = mcpViewGrantedSources(declared, network?.[PAGE_PART]).length === connect.length;
  parts.set(PAGE_PART, { ask: { part: PAGE_PART, connect, resources: [], devices: [] }, complete });
  return parts;
}

const items = (ask: GrantAsk): string[] => [
  ...ask.connect.map((origin) => `connect ${origin}`),
  ...ask.resources.map((origin) => `resource ${origin}`),
  ...ask.devices.map((device) => `device ${device}`),
];

/**
 * What to ask the user after `after` was installed over `before` (undefined: a new app), or undefined when there is
 * nothing new to ask: each part that declares something grantable it did not declare before and is not already
 * granted all of it.
 */
export function grantQuestion(before: AppRecord | undefined, after: AppRecord): GrantQuestion | undefined {
  const earlier = before === undefined || before.kind !== after.kind ? new Map() : grantable(before);
  const asks: GrantAsk[] = [];
  for (const [part, { ask, complete }] of grantable(after)) {
    if (complete) continue;
    const known = new Set(items(earlier.get(part)?.ask ?? { part, connect: [], resources: [], devices: [] }));
    if (items(ask).some((item) => !known.has(item))) asks.push(ask);
  }
  if (asks.length === 0) return undefined;
  return { appId: after.id, name: after.manifest.name, kind: after.kind, asks };
}

/**
 * Whether `question` still asks exactly what `record` declares now, part by part: an answer grants what each part
 * declares when it is given, so a question about an app changed since it was asked is asked again, never answered.
 */
export function stillAsked(question: GrantQuestion, record: AppRecord | undefined): boolean {
  if (record === undefined || record.kind !== question.kind) return false;
  const now = grantable(record);
  return question.asks.every((ask) => {
    const current = now.get(ask.part)?.ask;
    return current !== undefined && items(current).join('\n') === items(ask).join('\n');
  });
}
