/**
 * The question the consent step puts to the user before a tool call runs, the user's answer, and how a question
 * is built from a call (or a view's request) and closed at its deadline.
 */
import type { LineUpRiskLevel } from '@lineup/shared/protocol';
import type { AppRecord, ToolCallConsent } from '../storage/database.js';
import type { Clock } from '../time/clock.js';
import { type ConsentTool, claimsOf } from './consent-tool.js';

/** What the user is asked before a tool call runs (the host shows it; every text as text, never as markup). */
export interface ToolConsentQuestion {
  readonly conversationId: string;
  /** The call's `call_id`; for a view's call, an id of the view's request. */
  readonly callId: string;
  /** Who asks: the agent, or the view of an MCP server (attributed to it: "asked by the view of …"). */
  readonly origin: { readonly kind: 'agent' } | { readonly kind: 'view' };
  /** The tool as the policy names it: `<app_scope>.<method>` (for a tool only views see, `<app_scope>.<tool>`). */
  readonly tool: string;
  /** For an MCP server's tool: its own name on the server. */
  readonly serverTool?: string;
  readonly app: {
    readonly id: string;
    readonly name: string;
    readonly version: string;
    readonly kind: 'miniapp' | 'mcp_server';
    /** For an MCP server: its name as it introduced itself, and its URL. */
    readonly server?: { readonly name: string; readonly url: string };
    /** For an MCP server: whether the user trusts it. */
    readonly trusted?: boolean;
  };
  /** The tool's full description, as its app or server wrote it (hidden characters are the host's to reveal). */
  readonly description: string;
  /** The exact arguments the call would run with. */
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly risk: LineUpRiskLevel;
  /** For an MCP server's tool: what its annotations claim (hints of an untrusted party). */
  readonly claims?: { readonly readOnly: boolean; readonly destructive: boolean };
  /** Whether "remember for this conversation" may be offered. */
  readonly rememberable: boolean;
  /** `restricted`: a second, deliberate confirmation before allowing. */
  readonly extraStep: boolean;
  /** The definition the question is about: the answer counts for it only. */
  readonly definitionHash: string;
  /** Unix ms. */
  readonly askedAt: number;
  /** Unix ms: the call's deadline; past it the question closes and the call ends `timeout`. */
  readonly dueAt: number;
  /** Aborted when the question no longer counts (the deadline passed, the call ended otherwise): close it. */
  readonly signal: AbortSignal;
}

/**
 * The user's answer: allow (with "remember for this conversation" where offered), deny, dismiss (closed without an
 * answer), or abandon — the host is going away (a page that closes): nothing is decided, and the next start asks again.
 */
export type ToolConsentAnswer =
  | { readonly decision: 'allow'; readonly remember?: boolean }
  | { readonly decision: 'deny' }
  | { readonly decision: 'dismiss' }
  | { readonly decision: 'abandon' };

/** Asks the user; the host's dialog. */
export type ToolConsentConfirm = (question: ToolConsentQuestion) => Promise<ToolConsentAnswer>;

/** What a question is about: the call (or the view's request), its app and tool, and the consent it waits on. */
export function consentQuestion(subject: {
  readonly conversationId: string;
  readonly callId: string;
  readonly origin: ToolConsentQuestion['origin'];
  readonly app: AppRecord;
  readonly tool: ConsentTool;
  readonly args: Readonly<Record<string, unknown>>;
  readonly consent: ToolCallConsent;
  readonly dueAt: number;
  readonly signal: AbortSignal;
}): ToolConsentQuestion {
  const { app, tool, consent } = subject;
  const claims = claimsOf(app, tool.serverTool);
  return {
    conversationId: subject.conversationId,
    callId: subject.callId,
    origin: subject.origin,
    tool: tool.name,
    ...(tool.serverTool === undefined ? {} : { serverTool: tool.serverTool }),
    app: {
      id: app.id,
      name: app.manifest.name,
      version: app.manifest.version,
      kind: app.kind === 'mcp_server' ? 'mcp_server' : 'miniapp',
      ...(app.kind === 'mcp_server'
        ? {
            server: { name: app.manifest.server.name, url: app.manifest.server.url },
            trusted: app.consent?.trusted === true,
          }
        : {}),
    },
    description: tool.description,
    arguments: subject.args,
    risk: tool.risk,
    ...(claims === undefined ? {} : { claims }),
    rememberable: consent.rememberable,
    extraStep: consent.extraStep,
    definitionHash: consent.definitionHash,
    askedAt: consent.askedAt,
    dueAt: subject.dueAt,
    signal: subject.signal,
  };
}

/** Aborts `controller` at `dueAt` (in steps: a timer holds at most 2^31 - 1 ms). */
export function armDeadline(
  controller: AbortController,
  dueAt: number,
  clock: Clock,
): { current: ReturnType<typeof setTimeout> | undefined } {
  const timer: { current: ReturnType<typeof setTimeout> | undefined } = { current: undefined };
  const arm = () => {
    const remaining = dueAt - clock.now();
    if (remaining <= 0) controller.abort();
    else timer.current = setTimeout(arm, Math.min(remaining, 2_147_483_647));
  };
  arm();
  return timer;
}
