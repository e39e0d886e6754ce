/**
 * The runtime's seam to its host, and the shapes its entry points take and give: what a host (a browser page, or
 * anything else) implements and calls. The pipeline's steps only ever reach the host through `RuntimeHost`, after the
 * commit of the facts a call follows from.
 */
import type { MiniAppErrorIssue } from '@lineup/shared/bridge';
import type { ToolResultPayload } from '@lineup/shared/protocol';
import type { ToolConsentConfirm } from '../consent/tool-consent.js';
import type { McpCallToolResult, McpToolCaller } from '../mcp/calls.js';
import type { ToolCallRecord } from '../storage/database.js';
import type { Clock } from '../time/clock.js';

/** The conversation's instance of an app, as the host needs it to show or close the app. */
export interface AppTarget {
  readonly conversationId: string;
  readonly appScope: string;
  readonly appId: string;
  readonly instanceId: string;
  readonly appSessionId: string;
}

/**
 * What the runtime asks of its host (a narrow seam: a host that is not a browser page can provide it). Each
 * is called after the commit of the facts it follows from; a host failure never undoes them.
 */
export interface RuntimeHost {
  /**
   * An activation needs the app in the foreground: bring it forward, and call `confirmForeground` once the
   * user really sees it (or `hostIntent(…, 'leave')` if that cannot happen).
   */
  requestForeground(target: AppTarget): void;
  /** The runtime ended the instance: a generic lifecycle close, with no reason. */
  closeApp(target: AppTarget): void;
  /** The app's session data changed: its new snapshot, for the app's page. */
  sessionDataChanged(target: AppTarget, snapshot: SessionDataSnapshot): void;
  /**
   * An `app_ready` activation: start the app's page (it need not be shown). The page's `app_ready` reaches
   * `appReady`, its `app_failed` reaches `appFailed`.
   */
  startApp?(target: AppTarget): void;
  /**
   * Runs an SDK handler in the app's page (a `tool_invocation`); its return reaches `completeInvocation`. A
   * host without it cannot run `miniapp_sdk` tools: they end `execution_failed`.
   */
  invoke?(target: AppTarget, invocation: MiniAppInvocation): void;
  /** The runtime stopped waiting for an invocation (its call timed out): abort the handler. */
  cancelInvocation?(target: AppTarget, invocationId: string): void;
  /**
   * The runtime wrote outbox rows on its own, not in a step the host asked for (an MCP server answered a call; an
   * app's page returned a handler's result, said it is ready, or failed): deliver them.
   */
  outboxChanged?(): void;
  /**
   * A call started or stopped waiting for the user's consent (asked; answered, so allowed and routed, or ended):
   * a view beside the call gets its `tool-input` only once the call was allowed.
   */
  consentChanged?(conversationId: string, callId: string): void;
}

/** One SDK handler run the runtime asks the app's page for. */
export interface MiniAppInvocation {
  readonly invocationId: string;
  readonly method: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** A handler's outcome as the page returned it: a result still to check, or a stable code. */
export type InvocationOutcome =
  | { readonly status: 'ok'; readonly result: unknown }
  | {
      readonly status: 'error';
      readonly code: string;
      readonly message?: string;
      /** Where the arguments or the result failed the handler's schemas (a `tool_return` error's `issues`). */
      readonly issues?: readonly MiniAppErrorIssue[];
    };

/** The runtime's answer to a session data write or a UI action from an app's page. */
export type PageRequestAnswer =
  | { readonly status: 'ok'; readonly revision?: number }
  | { readonly status: 'error'; readonly code: PageRequestErrorCode; readonly message: string };

/**
 * Why the runtime refused a page's request: `not_current` (the page's instance ended), `revision_conflict`
 * (the write's base revision is not the current one), `reserved_key` (a key the runtime writes), `too_large`
 * (the snapshot would exceed its bounds), `unknown_action` (no such UI action for the app), `action_failed`.
 */
export type PageRequestErrorCode =
  | 'not_current'
  | 'revision_conflict'
  | 'reserved_key'
  | 'too_large'
  | 'unknown_action'
  | 'action_failed';

/**
 * A local UI action (seed 003 §3, §8.2–§8.4): its own entry point, declared by the host for an app scope and
 * an action name. It runs with the instance the page belongs to, never with an agent's identity or an
 * inventory revision; it is audited as `ui_action`, never as a tool call.
 */
export type UIActionHandler = (context: {
  readonly target: AppTarget;
  readonly arguments: Readonly<Record<string, string | number | boolean | null>>;
}) => void | Promise<void>;

export interface SessionDataSnapshot {
  readonly revision: number;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * Host lifecycle intents (seed 003 §3, §8.2), an entry point of their own: `leave` (back to the conversation,
 * to another app) and `close` end what needs the foreground; `background`, `lock`, `resume` and
 * `surface_reload` do not (a dimmed screen or a reloaded page is not leaving).
 */
export const HOST_INTENTS = ['leave', 'close', 'background', 'lock', 'resume', 'surface_reload'] as const;
export type HostIntent = (typeof HOST_INTENTS)[number];

export interface ToolRuntimeOptions {
  readonly clock?: Clock;
  /** New ids for instances, sessions, activations and operations (default `crypto.randomUUID`). */
  readonly ids?: () => string;
  readonly host?: RuntimeHost;
  /** How long an activation may wait for the foreground before the start fails (default 60 s). */
  readonly foregroundTimeoutMs?: number;
  /** Local UI actions by `<app_scope>.<action>` (`pomodoro.focus.start`); none by default. */
  readonly uiActions?: Readonly<Record<string, UIActionHandler>>;
  /**
   * Calls the tools of installed MCP servers (`createMcpToolCaller` of `@lineup/runtime/mcp`). Without it, a call
   * of an `mcp` tool ends `execution_failed`.
   */
  readonly mcp?: McpToolCaller;
  /**
   * Asks the user about an Agent Tool call or a view's call that its consent policy says to ask about (the consent
   * step, `consent/tool-consent.ts`; the host's rules come from the registry's `toolPolicy`). Without it every
   * such call is `permission_denied` at once: a host that cannot ask runs nothing that needs asking.
   */
  readonly confirmTool?: ToolConsentConfirm;
}

/**
 * Why a view's `tools/call` was refused (`mcpViewCall`); nothing reached the server for any but `timeout` and
 * `failed` (the consent step's `timeout` is the user not answering in time: nothing reached the server either).
 */
export type McpViewCallRefusal =
  | 'unknown_server'
  | 'disabled'
  | 'unknown_tool'
  | 'invalid_arguments'
  | 'permission_denied'
  | 'consent_dismissed'
  | 'timeout'
  | 'failed';

/** The answer to a view's `tools/call`: the server's result (also an error result), or why not. */
export type McpViewCallAnswer =
  | { readonly status: 'ok'; readonly result: McpCallToolResult }
  | { readonly status: 'error'; readonly code: McpViewCallRefusal; readonly message: string };

/** What a host shows beside an MCP tool call: its arguments, and the server's whole result once it came. */
export interface McpCallRecord {
  readonly conversationId: string;
  readonly callId: string;
  /** The agent's tool name (`<app_scope>.<method>`). */
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly stage: ToolCallRecord['stage'] & string;
  /** The server's `CallToolResult`, when it answered (also an error result). */
  readonly result?: McpCallToolResult;
  /** The final result the agent got, once finished. */
  readonly final?: ToolResultPayload;
}

/** The key under which the `deadline_operation` built-in projects its operation into the session data. */
export const OPERATION_SESSION_KEY = 'operation';
