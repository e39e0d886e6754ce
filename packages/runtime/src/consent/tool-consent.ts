/**
 * The consent step of the Agent Tool pipeline (seed 003 §2.3: no Tool Call bypasses permission confirmation or the
 * risk policy; §4.1: what an agent may call is what policy allows). It sits after the intake — the call is recorded,
 * deduplicated and accepted — and before routing: no MiniApp page, MCP server or view hears of a call before its
 * decision. For each call, in the step's own transaction:
 *
 * 1. the tool's effective policy (`toolConsentPolicy`: the host's rules, the user's choice, the risk's default);
 * 2. allow → the call goes on, as it always did; deny → its one final result is `permission_denied`;
 * 3. ask → when fewer than `TOOL_CONSENT_LIMITS.maxPendingPerConversation` calls of the conversation already wait,
 *    the call waits (`awaiting_consent`, the question kept in its record); after the commit a step of its own
 *    (`grantIn`) lets it go on if the user remembered an allowance for this conversation and this exact definition,
 *    and otherwise the host is asked; a host that cannot ask, or one more call past the bound, is
 *    `permission_denied`.
 *
 * The answer is a step of its own (`decideIn`): it counts only while the call still waits (a replayed `call_id`
 * never asks again; an answer after the call's timeout, or after it was withdrawn, changes nothing) and only for the
 * definition the user saw — a tool that changed meanwhile ends `revoked`. Allow → the call is routed in the same
 * transaction (and remembered when the user asked so and the policy allows remembering); deny → `permission_denied`;
 * dismiss (Escape, closed) → `consent_dismissed`. A reload asks again (the question is in the record), and the
 * call's own timeout still ends it (`timeout`).
 */
import { hashCanonicalJSON } from '@lineup/shared';
import {
  type AgentToolDescriptor,
  type LineUpRiskLevel,
  TOOL_CONSENT_LIMITS,
  type ToolErrorCode,
} from '@lineup/shared/protocol';
import type {
  AppRecord,
  ConsentTransaction,
  ExecutionTransaction,
  ToolCallConsent,
  ToolCallRecord,
  ToolGrantRecord,
} from '../storage/database.js';
import type { Clock } from '../time/clock.js';
import {
  type ToolConsentFacts,
  type ToolConsentPolicy,
  type ToolPolicyDecision,
  type ToolPolicyRule,
  toolConsentPolicy,
} from './policy.js';

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

/** What the step decided for a call. */
export type ConsentVerdict =
  | { readonly kind: 'allow'; readonly audit?: string }
  | { readonly kind: 'deny'; readonly code: ToolErrorCode; readonly message: string; readonly audit: string }
  | { readonly kind: 'ask'; readonly consent: ToolCallConsent };

/** What an answer made of a waiting call. */
export type ConsentOutcome =
  | { readonly kind: 'go'; readonly record: ToolCallRecord }
  | { readonly kind: 'end'; readonly code: ToolErrorCode; readonly message: string; readonly audit: string };

/** One tool of an app as the consent step sees it: the agent's tools, and the tools an MCP server shows views only. */
export interface ConsentTool {
  readonly name: string;
  readonly description: string;
  readonly risk: LineUpRiskLevel;
  /** The definition the hash covers (the descriptor, or an app tool's name and input schema). */
  readonly definition: unknown;
  /** The server's own name of the tool, for an MCP server. */
  readonly serverTool?: string;
}

const grantKey = (conversationId: string, tool: string) => `${conversationId}\n${tool}`;

/** The tool of an agent-visible descriptor. */
export function consentToolOf(descriptor: AgentToolDescriptor): ConsentTool {
  return {
    name: `${descriptor.app_scope}.${descriptor.method}`,
    description: descriptor.description,
    risk: descriptor.risk,
    definition: descriptor,
    ...(descriptor.executor.tool === undefined ? {} : { serverTool: descriptor.executor.tool }),
  };
}

/** What an MCP server's annotations claimed about one of its tools (by its own name). */
export function claimsOf(
  app: AppRecord,
  serverTool: string | undefined,
): { readonly readOnly: boolean; readonly destructive: boolean } | undefined {
  if (app.kind !== 'mcp_server' || serverTool === undefined) return undefined;
  const { manifest } = app;
  const destructive = manifest.destructive?.includes(serverTool) === true;
  // Manifests kept before the claims were: an agent tool's read-only claim is in its risk.
  const readOnly =
    manifest.read_only !== undefined
      ? manifest.read_only.includes(serverTool)
      : manifest.tools.some((tool) => tool.executor.tool === serverTool && tool.risk === 'display_only');
  return { readOnly, destructive };
}

/** The facts the policy reads about `tool` of `app`. */
export function consentFacts(app: AppRecord, tool: ConsentTool): ToolConsentFacts {
  const claims = claimsOf(app, tool.serverTool);
  return {
    name: tool.name,
    risk: tool.risk,
    kind: app.kind === 'mcp_server' ? 'mcp_server' : 'miniapp',
    ...(app.kind === 'mcp_server' ? { trusted: app.consent?.trusted === true } : {}),
    ...(claims === undefined ? {} : claims),
  };
}

/**
 * The digest a grant and a user's "allow" are bound to: the app, the server's URL, the tool's whole definition
 * (description, schemas, risk, executor) and what the server claims of it. Any change asks again.
 */
export function toolDefinitionHash(app: AppRecord, tool: ConsentTool): string {
  return hashCanonicalJSON({
    app: app.id,
    server: app.kind === 'mcp_server' ? app.manifest.server.url : null,
    definition: tool.definition,
    claims: claimsOf(app, tool.serverTool) ?? null,
  });
}

/** The user's choice for `tool`, when it still counts: "allow" only for the definition it was given to. */
export function userChoiceOf(app: AppRecord, tool: ConsentTool): ToolPolicyDecision | undefined {
  const method = tool.name.slice(app.manifest.app_scope.length + 1);
  const choice = Object.hasOwn(app.consent?.tools ?? {}, method) ? app.consent?.tools?.[method] : undefined;
  if (choice === undefined) return undefined;
  if (choice.decision !== 'allow') return choice.decision;
  return choice.definitionHash === toolDefinitionHash(app, tool) ? 'allow' : undefined;
}

/** The effective policy of `tool` of `app` under the host's `rules`. */
export function effectivePolicy(
  app: AppRecord,
  tool: ConsentTool,
  rules: readonly ToolPolicyRule[],
): ToolConsentPolicy {
  return toolConsentPolicy(consentFacts(app, tool), rules, userChoiceOf(app, tool));
}

const MESSAGES = {
  denied: 'The user denied this call; it did not run.',
  deniedByPolicy: "The host's or the user's policy does not allow this tool; the call did not run.",
  noConsentUi: "This call needs the user's consent and this host cannot ask; it did not run.",
  flood: `Too many calls of this conversation wait for the user's answer (at most ${TOOL_CONSENT_LIMITS.maxPendingPerConversation}); this one did not run. Call again once the user has answered.`,
  dismissed: 'The user closed the question without answering; the call did not run.',
  changed:
    'The tool changed while the user was asked; the call did not run. Use the latest client.inventory.',
} as const;

export class ToolConsentStep {
  readonly #rules: readonly ToolPolicyRule[];
  readonly #confirm: ToolConsentConfirm | undefined;
  readonly #clock: Clock;
  /** Questions this page has open, by call key: aborted when the call no longer waits. */
  readonly #open = new Map<string, AbortController>();

  constructor(options: {
    readonly rules: readonly ToolPolicyRule[];
    readonly confirm?: ToolConsentConfirm;
    readonly clock: Clock;
  }) {
    this.#rules = options.rules;
    this.#confirm = options.confirm;
    this.#clock = options.clock;
  }

  /** The host's rules (the registry's, so the inventory and the step agree). */
  get rules(): readonly ToolPolicyRule[] {
    return this.#rules;
  }

  /**
   * Whether a call of `tool` runs without reading anything more — its policy allows it outright — and then the audit
   * detail of that decision (`undefined` for a tool its risk's default runs: its acceptance is its audit); `false`
   * when the call needs the step that reads (a grant, a question, a refusal).
   */
  allowsOutright(app: AppRecord | undefined, tool: ConsentTool): { readonly audit?: string } | false {
    if (app === undefined) return false;
    const policy = effectivePolicy(app, tool, this.#rules);
    if (policy.decision !== 'allow') return false;
    return policy.source === 'default' ? {} : { audit: `allowed ${policy.source}` };
  }

  /**
   * The verdict for an accepted call, in its step's transaction. For `ask`, the record is written waiting
   * (`awaiting_consent`) with its question, and the call's audit entry says so; the caller asks after the commit.
   */
  async gateIn(
    transaction: ExecutionTransaction,
    record: ToolCallRecord,
    app: AppRecord,
    tool: ConsentTool,
  ): Promise<ConsentVerdict> {
    const policy = effectivePolicy(app, tool, this.#rules);
    if (policy.decision === 'allow')
      return policy.source === 'default'
        ? { kind: 'allow' }
        : { kind: 'allow', audit: `allowed ${policy.source}` };
    if (policy.decision === 'deny')
      return {
        kind: 'deny',
        code: 'permission_denied',
        message: MESSAGES.deniedByPolicy,
        audit: `denied ${policy.source}`,
      };
    // A host that cannot ask refuses at once (an allowance is only ever an answer to a question).
    if (this.#confirm === undefined)
      return {
        kind: 'deny',
        code: 'permission_denied',
        message: MESSAGES.noConsentUi,
        audit: 'no_consent_ui',
      };
    const unfinished = await transaction.objectStore('tool_calls').index('by_due').getAll();
    const waiting = unfinished.filter(
      (call) => call.conversationId === record.conversationId && call.stage === 'awaiting_consent',
    ).length;
    if (waiting >= TOOL_CONSENT_LIMITS.maxPendingPerConversation)
      return { kind: 'deny', code: 'permission_denied', message: MESSAGES.flood, audit: 'flood' };
    // A remembered allowance is checked by a step of its own (`grantIn`) after this one commits, before anyone is
    // asked: the receiving step keeps its transaction's stores for the calls that run.
    const consent: ToolCallConsent = {
      definitionHash: toolDefinitionHash(app, tool),
      rememberable: policy.rememberable,
      extraStep: policy.extraStep,
      askedAt: this.#clock.now(),
    };
    await transaction.objectStore('tool_calls').put({ ...record, stage: 'awaiting_consent', consent });
    return { kind: 'ask', consent };
  }

  /**
   * Before a waiting call's question: whether an allowance the user remembered for this conversation and this exact
   * definition lets it go on (`go`, routed by the caller in the same transaction), else `undefined` — or, for a host
   * that cannot ask, the call's refusal.
   */
  async grantIn(
    transaction: ConsentTransaction,
    record: ToolCallRecord,
    app: AppRecord | undefined,
    tool: ConsentTool | undefined,
  ): Promise<ConsentOutcome | undefined> {
    const consent = record.consent;
    if (record.stage !== 'awaiting_consent' || consent === undefined) return undefined;
    if (app === undefined || tool === undefined || toolDefinitionHash(app, tool) !== consent.definitionHash)
      return { kind: 'end', code: 'revoked', message: MESSAGES.changed, audit: 'changed' };
    if (
      consent.rememberable &&
      (await this.#granted(transaction, record.conversationId, app, tool, consent.definitionHash))
    )
      return {
        kind: 'go',
        record: { ...record, stage: 'received', consent: { ...consent, allowed: 'grant' } },
      };
    if (this.#confirm === undefined)
      return {
        kind: 'end',
        code: 'permission_denied',
        message: MESSAGES.noConsentUi,
        audit: 'no_consent_ui',
      };
    return undefined;
  }

  /**
   * The user's answer to a waiting call, in the answer's step: `undefined` when it no longer counts (the call does
   * not wait any more), else what to do — go on with the call (routed by the caller in the same transaction), or end
   * it with a code. Writes the grant when the user asked to remember and the question offered it.
   */
  async decideIn(
    transaction: ConsentTransaction,
    record: ToolCallRecord,
    app: AppRecord | undefined,
    tool: ConsentTool | undefined,
    answer: Exclude<ToolConsentAnswer, { decision: 'abandon' }>,
  ): Promise<ConsentOutcome | undefined> {
    const consent = record.consent;
    if (record.stage !== 'awaiting_consent' || consent === undefined) return undefined;
    if (app === undefined || tool === undefined || toolDefinitionHash(app, tool) !== consent.definitionHash)
      return { kind: 'end', code: 'revoked', message: MESSAGES.changed, audit: 'changed' };
    if (answer.decision === 'deny')
      return { kind: 'end', code: 'permission_denied', message: MESSAGES.denied, audit: 'denied user' };
    if (answer.decision !== 'allow')
      return { kind: 'end', code: 'consent_dismissed', message: MESSAGES.dismissed, audit: 'dismissed' };
    if (answer.remember === true && consent.rememberable)
      await this.#grant(transaction, record.conversationId, app, tool, consent.definitionHash);
    return {
      kind: 'go',
      record: { ...record, stage: 'received', consent: { ...consent, allowed: 'user' } },
    };
  }

  /** The question of a waiting call, for the host. */
  questionOf(
    record: ToolCallRecord,
    app: AppRecord,
    tool: ConsentTool,
    signal: AbortSignal,
  ): ToolConsentQuestion | undefined {
    const consent = record.consent;
    if (consent === undefined || record.dueAt === undefined) return undefined;
    return this.#question({
      conversationId: record.conversationId,
      callId: record.callId,
      origin: { kind: 'agent' },
      app,
      tool,
      args: record.call.arguments,
      consent,
      dueAt: record.dueAt,
      signal,
    });
  }

  /**
   * Asks the user about a waiting call (once per page: a second ask of the same call while its question is open
   * is ignored), and hands the answer to `decide`. The question closes by itself at `dueAt`.
   */
  ask(
    key: string,
    question: (signal: AbortSignal) => ToolConsentQuestion | undefined,
    decide: (answer: ToolConsentAnswer) => void,
  ): void {
    const confirm = this.#confirm;
    if (confirm === undefined || this.#open.has(key)) return;
    const controller = new AbortController();
    const asked = question(controller.signal);
    if (asked === undefined) return;
    this.#open.set(key, controller);
    const timer = this.#armDeadline(controller, asked.dueAt);
    let answered: Promise<ToolConsentAnswer>;
    try {
      answered = confirm(asked);
    } catch {
      answered = Promise.resolve({ decision: 'abandon' });
    }
    void answered
      .catch((): ToolConsentAnswer => ({ decision: 'abandon' }))
      .then((answer) => {
        clearTimeout(timer.current);
        if (this.#open.get(key) === controller) this.#open.delete(key);
        // A question closed by its deadline or by the call's end decides nothing: the call's own end stands.
        if (!controller.signal.aborted) decide(answer);
      });
  }

  /** Closes the question of a call that no longer waits (ended by its timeout, withdrawn, answered elsewhere). */
  close(key: string): void {
    const controller = this.#open.get(key);
    this.#open.delete(key);
    controller?.abort();
  }

  /**
   * Asks about a view's call (not recorded: a view's request lives with the view). The answer's grant, when
   * remembered, is the same as the agent's for the same tool and conversation. Resolves with `undefined` when the
   * call may go on, else with the refusal's code and message.
   */
  async viewCall(request: {
    readonly conversationId: string;
    readonly requestId: string;
    readonly app: AppRecord;
    readonly tool: ConsentTool;
    readonly arguments: Readonly<Record<string, unknown>>;
    readonly timeoutMs: number;
    readonly signal?: AbortSignal;
    readonly db: {
      get(store: 'tool_grants', key: string): Promise<ToolGrantRecord | undefined>;
      put(store: 'tool_grants', value: ToolGrantRecord): Promise<unknown>;
    };
  }): Promise<
    | { readonly code: ToolErrorCode; readonly message: string; readonly audit: string }
    | { readonly audit?: string }
  > {
    const { app, tool } = request;
    const policy = effectivePolicy(app, tool, this.#rules);
    if (policy.decision === 'allow')
      return policy.source === 'default' ? {} : { audit: `allowed ${policy.source}` };
    if (policy.decision === 'deny')
      return {
        code: 'permission_denied',
        message: MESSAGES.deniedByPolicy,
        audit: `denied ${policy.source}`,
      };
    const definitionHash = toolDefinitionHash(app, tool);
    if (policy.rememberable) {
      const grant = await request.db.get('tool_grants', grantKey(request.conversationId, tool.name));
      if (grant !== undefined && this.#grantHolds(grant, app, definitionHash))
        return { audit: 'allowed grant' };
    }
    const confirm = this.#confirm;
    if (confirm === undefined)
      return { code: 'permission_denied', message: MESSAGES.noConsentUi, audit: 'no_consent_ui' };
    const controller = new AbortController();
    const now = this.#clock.now();
    const dueAt = now + request.timeoutMs;
    const onAbort = () => controller.abort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = this.#armDeadline(controller, dueAt);
    let answer: ToolConsentAnswer;
    try {
      answer = await Promise.race([
        confirm(
          this.#question({
            conversationId: request.conversationId,
            callId: request.requestId,
            origin: { kind: 'view' },
            app,
            tool,
            args: request.arguments,
            consent: {
              definitionHash,
              rememberable: policy.rememberable,
              extraStep: policy.extraStep,
              askedAt: now,
            },
            dueAt,
            signal: controller.signal,
          }),
        ),
        new Promise<ToolConsentAnswer>((resolve) =>
          controller.signal.addEventListener('abort', () => resolve({ decision: 'dismiss' }), { once: true }),
        ),
      ]);
    } catch {
      answer = { decision: 'dismiss' };
    } finally {
      clearTimeout(timer.current);
      request.signal?.removeEventListener('abort', onAbort);
    }
    if (controller.signal.aborted && !(this.#clock.now() < dueAt))
      return {
        code: 'timeout',
        message: "The user did not answer before the call's deadline; it did not run.",
        audit: 'timeout',
      };
    if (answer.decision === 'deny')
      return { code: 'permission_denied', message: MESSAGES.denied, audit: 'denied user' };
    if (answer.decision !== 'allow')
      return { code: 'consent_dismissed', message: MESSAGES.dismissed, audit: 'dismissed' };
    if (answer.remember === true && policy.rememberable)
      await request.db.put(
        'tool_grants',
        this.#grantRecord(request.conversationId, app, tool, definitionHash),
      );
    return { audit: 'allowed user' };
  }

  #question(subject: {
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
  #armDeadline(
    controller: AbortController,
    dueAt: number,
  ): { current: ReturnType<typeof setTimeout> | undefined } {
    const timer: { current: ReturnType<typeof setTimeout> | undefined } = { current: undefined };
    const arm = () => {
      const remaining = dueAt - this.#clock.now();
      if (remaining <= 0) controller.abort();
      else timer.current = setTimeout(arm, Math.min(remaining, 2_147_483_647));
    };
    arm();
    return timer;
  }

  async #granted(
    transaction: ConsentTransaction,
    conversationId: string,
    app: AppRecord,
    tool: ConsentTool,
    definitionHash: string,
  ): Promise<boolean> {
    const grant = await transaction.objectStore('tool_grants').get(grantKey(conversationId, tool.name));
    return grant !== undefined && this.#grantHolds(grant, app, definitionHash);
  }

  #grantHolds(grant: ToolGrantRecord, app: AppRecord, definitionHash: string): boolean {
    return (
      grant.appId === app.id &&
      grant.definitionHash === definitionHash &&
      grant.serverUrl === (app.kind === 'mcp_server' ? app.manifest.server.url : undefined)
    );
  }

  #grantRecord(
    conversationId: string,
    app: AppRecord,
    tool: ConsentTool,
    definitionHash: string,
  ): ToolGrantRecord {
    return {
      key: grantKey(conversationId, tool.name),
      conversationId,
      tool: tool.name,
      appId: app.id,
      ...(app.kind === 'mcp_server' ? { serverUrl: app.manifest.server.url } : {}),
      definitionHash,
      grantedAt: this.#clock.now(),
    };
  }

  async #grant(
    transaction: ConsentTransaction,
    conversationId: string,
    app: AppRecord,
    tool: ConsentTool,
    definitionHash: string,
  ): Promise<void> {
    await transaction
      .objectStore('tool_grants')
      .put(this.#grantRecord(conversationId, app, tool, definitionHash));
  }
}
