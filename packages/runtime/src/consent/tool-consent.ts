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
import { TOOL_CONSENT_LIMITS, type ToolErrorCode } from '@lineup/shared/protocol';
import { putCall, unfinishedCallsIn } from '../execution/step-records.js';
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
  armDeadline,
  consentQuestion,
  type ToolConsentAnswer,
  type ToolConsentConfirm,
  type ToolConsentQuestion,
} from './consent-question.js';
import { type ConsentTool, effectivePolicy, toolDefinitionHash } from './consent-tool.js';
import type { ToolPolicyRule } from './policy.js';
import { grantHolds, grantKey, grantRecord } from './tool-grants.js';

export type { ToolConsentAnswer, ToolConsentConfirm, ToolConsentQuestion } from './consent-question.js';
export {
  type ConsentTool,
  claimsOf,
  consentFacts,
  consentToolOf,
  effectivePolicy,
  toolDefinitionHash,
  userChoiceOf,
} from './consent-tool.js';

/** What the step decided for a call. */
export type ConsentVerdict =
  | { readonly kind: 'allow'; readonly audit?: string }
  | { readonly kind: 'deny'; readonly code: ToolErrorCode; readonly message: string; readonly audit: string }
  | { readonly kind: 'ask'; readonly consent: ToolCallConsent };

/** What an answer made of a waiting call. */
export type ConsentOutcome =
  | { readonly kind: 'go'; readonly record: ToolCallRecord }
  | { readonly kind: 'end'; readonly code: ToolErrorCode; readonly message: string; readonly audit: string };

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
    const unfinished = await unfinishedCallsIn(transaction);
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
    await putCall(transaction, { ...record, stage: 'awaiting_consent', consent });
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
    return consentQuestion({
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
    const timer = armDeadline(controller, asked.dueAt, this.#clock);
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
      if (grant !== undefined && grantHolds(grant, app, definitionHash)) return { audit: 'allowed grant' };
    }
    const confirm = this.#confirm;
    if (confirm === undefined)
      return { code: 'permission_denied', message: MESSAGES.noConsentUi, audit: 'no_consent_ui' };
    const controller = new AbortController();
    const now = this.#clock.now();
    const dueAt = now + request.timeoutMs;
    const onAbort = () => controller.abort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = armDeadline(controller, dueAt, this.#clock);
    let answer: ToolConsentAnswer;
    try {
      answer = await Promise.race([
        confirm(
          consentQuestion({
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
        grantRecord(request.conversationId, app, tool, definitionHash, this.#clock),
      );
    return { audit: 'allowed user' };
  }

  async #granted(
    transaction: ConsentTransaction,
    conversationId: string,
    app: AppRecord,
    tool: ConsentTool,
    definitionHash: string,
  ): Promise<boolean> {
    const grant = await transaction.objectStore('tool_grants').get(grantKey(conversationId, tool.name));
    return grant !== undefined && grantHolds(grant, app, definitionHash);
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
      .put(grantRecord(conversationId, app, tool, definitionHash, this.#clock));
  }
}
