/**
 * The consent step's place in the pipeline (seed 003 §2.3, §4.2): what `ToolRuntime` runs between the intake and
 * routing, and the steps of its own that settle a waiting call. The rules — the policy, the question, the answer —
 * are `ToolConsentStep` (tool-consent.ts); this module binds them to the runtime's steps (one strict transaction
 * each, host effects after the commit) through the small `ConsentPipeline` the runtime gives it.
 *
 * - `gateIn`, in the receiving step (and in any step that routes a call not yet decided): a call its policy allows
 *   outright goes on; a refused one ends with its code; one that asks waits (`awaiting_consent`), and after the
 *   commit `ask` runs.
 * - `ask`: first a step that lets the call go on under an allowance the user remembered; else the host is asked
 *   (once per page), and its answer is `decide`'s step.
 * - `viewCall`: a view's `tools/call`, not recorded — asked (or allowed, or refused) before anything reaches its server.
 */
import type { AgentToolDescriptor, McpAppTool, ToolErrorCode } from '@lineup/shared/protocol';
import type { Descriptors } from '../execution/descriptors.js';
import { callIn, putCall } from '../execution/step-records.js';
import {
  type AppRecord,
  CONSENT_STORES,
  type ConsentTransaction,
  type EXECUTION_STORES,
  type ExecutionTransaction,
  issue,
  type McpServerRecord,
  type RuntimeDatabase,
  type ToolCallRecord,
} from '../storage/database.js';
import {
  type ConsentOutcome,
  type ConsentTool,
  consentToolOf,
  type ToolConsentAnswer,
  type ToolConsentStep,
} from './tool-consent.js';

/** What the consent step tells the host after a commit. */
export interface ConsentEvents {
  outboxChanged?(): void;
  consentChanged?(conversationId: string, callId: string): void;
}

/** Where a step puts what runs after its commit (the runtime's effects). */
export interface ConsentEffects {
  push(effect: (host: ConsentEvents) => void): unknown;
}

/** What the consent step uses of a step of the runtime (`Step`): its transaction, its effects, the registry's tools. */
export interface ConsentStepContext {
  readonly transaction: ExecutionTransaction;
  readonly effects: ConsentEffects;
  readonly descriptors: Descriptors;
}

type StepBody = (step: ConsentStepContext) => Promise<boolean>;

/** What the runtime lends the consent step: its steps, routing, its way of ending a call, and withdrawal. */
export interface ConsentPipeline {
  readonly db: RuntimeDatabase;
  readonly now: () => number;
  readonly ids: () => string;
  /** One strict step over `stores`, host effects after the commit. */
  step(body: StepBody, stores: typeof EXECUTION_STORES | typeof CONSENT_STORES): Promise<boolean>;
  /** Routes an allowed call (steps 4–8), in the caller's step. */
  route(step: ConsentStepContext, record: ToolCallRecord): Promise<boolean>;
  /** Ends a call with its one final result, an error. */
  end(
    step: ConsentStepContext,
    record: ToolCallRecord,
    error: { readonly code: ToolErrorCode; readonly message: string },
  ): Promise<void>;
  /** The registry as it is now (a read of its own). */
  descriptors(): Promise<Descriptors>;
  /** Ends the calls of tools no longer enabled (`revoked`). */
  withdraw(): Promise<unknown>;
}

/** Why a view's call was refused by the consent step: nothing reached the server. */
export interface ViewCallRefusal {
  readonly code: 'permission_denied' | 'consent_dismissed' | 'timeout';
  readonly message: string;
}

export class ConsentSteps {
  readonly #consent: ToolConsentStep;
  readonly #pipeline: ConsentPipeline;

  constructor(consent: ToolConsentStep, pipeline: ConsentPipeline) {
    this.#consent = consent;
    this.#pipeline = pipeline;
  }

  /**
   * In a step that routes `record` (not yet decided): whether routing goes on. A call its policy allows outright
   * does (a decision by a rule or the user's choice is audited); a refused one ends here; one that asks waits, and
   * is asked about after the commit.
   */
  async gateIn(
    step: ConsentStepContext,
    record: ToolCallRecord,
    descriptor: AgentToolDescriptor,
  ): Promise<boolean> {
    if (record.consent?.allowed !== undefined) return true;
    const { transaction, effects } = step;
    const app = step.descriptors.apps.get(descriptor.app_scope) as AppRecord;
    const tool = consentToolOf(descriptor);
    const outright = this.#consent.allowsOutright(app, tool);
    if (outright !== false) {
      if (outright.audit !== undefined) issue(this.auditIn(transaction, record, descriptor, outright.audit));
      return true;
    }
    const verdict = await this.#consent.gateIn(transaction, record, app, tool);
    issue(this.auditIn(transaction, record, descriptor, verdict.kind === 'ask' ? 'waiting' : verdict.audit));
    if (verdict.kind === 'deny') {
      await this.#pipeline.end(step, record, verdict);
      return false;
    }
    if (verdict.kind === 'ask') {
      effects.push(() => this.ask(record.key));
      effects.push((host) => host.consentChanged?.(record.conversationId, record.callId));
      return false;
    }
    return true;
  }

  /**
   * Asks the user about a waiting call (after the commit that made it wait, or again after a reload): an allowance
   * the user remembered lets it go on without a question (a step of its own); else the question, with the call and
   * the tool as they are now. A call that no longer waits is not asked about.
   */
  ask(key: string): void {
    void (async () => {
      if (
        await this.#settle(key, (transaction, record, app, tool) =>
          this.#consent.grantIn(transaction, record, app, tool),
        )
      )
        return;
      const [record, descriptors] = await Promise.all([
        this.#pipeline.db.get('tool_calls', key),
        this.#pipeline.descriptors(),
      ]);
      if (record?.stage !== 'awaiting_consent') return;
      const descriptor = descriptors.get(record.call.tool);
      const app = descriptor === undefined ? undefined : descriptors.apps.get(descriptor.app_scope);
      if (descriptor === undefined || app === undefined) {
        // The tool went while the call waited: withdrawal ends it `revoked`.
        await this.#pipeline.withdraw();
        return;
      }
      const tool = consentToolOf(descriptor);
      this.#consent.ask(
        key,
        (signal) => this.#consent.questionOf(record, app, tool, signal),
        (answer) => void this.decide(key, answer).catch(() => {}),
      );
    })().catch(() => {
      // The database closed (the page is going): the next start asks again.
    });
  }

  /**
   * The user's answer to a waiting call, as a step of its own: it counts only while the call still waits, and only
   * for the definition asked about; allowed, the call is routed in the same transaction.
   */
  async decide(key: string, answer: ToolConsentAnswer): Promise<void> {
    // The host is going away: nothing is decided; the next start asks again.
    if (answer.decision === 'abandon') return;
    await this.#settle(key, (transaction, record, app, tool) =>
      this.#consent.decideIn(transaction, record, app, tool, answer),
    );
  }

  /**
   * A view's `tools/call` of `serverTool` (an agent tool of its server, or one only views see): `undefined` when it
   * may reach the server, else the refusal. Audited `tool_consent` (`view …`) when a rule, an allowance or the user
   * decided.
   */
  async viewCall(request: {
    readonly conversationId: string;
    readonly app: McpServerRecord;
    readonly agentTool: AgentToolDescriptor | undefined;
    readonly appTool: McpAppTool | undefined;
    readonly serverTool: string;
    readonly arguments: Readonly<Record<string, unknown>>;
    readonly timeoutMs: number;
    readonly signal?: AbortSignal;
  }): Promise<ViewCallRefusal | undefined> {
    const { app, agentTool } = request;
    const { manifest } = app;
    // A tool its server changed since the user accepted it runs for no one until the user accepts the change.
    if (agentTool !== undefined && app.consent?.held?.[agentTool.method] !== undefined)
      return {
        code: 'permission_denied',
        message:
          'The server changed this tool since the user accepted it; the change must be accepted first.',
      };
    const tool: ConsentTool =
      agentTool !== undefined
        ? consentToolOf(agentTool)
        : {
            name: `${manifest.app_scope}.${request.serverTool}`,
            description: '',
            risk:
              manifest.read_only?.includes(request.serverTool) === true
                ? 'display_only'
                : 'user_confirmation',
            definition: request.appTool,
            serverTool: request.serverTool,
          };
    const decided = await this.#consent.viewCall({
      conversationId: request.conversationId,
      requestId: `view_${this.#pipeline.ids()}`,
      app,
      tool,
      arguments: request.arguments,
      timeoutMs: request.timeoutMs,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      db: this.#pipeline.db,
    });
    if (decided.audit !== undefined)
      await this.#pipeline.db.add('audit', {
        at: this.#pipeline.now(),
        type: 'tool_consent',
        appId: app.id,
        version: manifest.version,
        conversationId: request.conversationId,
        detail: `view ${decided.audit}`,
      });
    if (!('code' in decided)) return undefined;
    return {
      code:
        decided.code === 'consent_dismissed' || decided.code === 'timeout'
          ? decided.code
          : 'permission_denied',
      message: decided.message,
    };
  }

  /** The audit entry of a consent decision about `record`, issued in the step's transaction. */
  auditIn(
    transaction: ExecutionTransaction,
    record: ToolCallRecord,
    descriptor: AgentToolDescriptor | undefined,
    detail: string | undefined,
  ): Promise<unknown> {
    return transaction.objectStore('audit').add({
      at: this.#pipeline.now(),
      type: 'tool_consent',
      appId: descriptor?.app_scope ?? '',
      version: descriptor?.contract_version ?? '',
      conversationId: record.conversationId,
      callId: record.callId,
      ...(detail === undefined ? {} : { detail }),
    });
  }

  /**
   * One step that settles a waiting call's consent — an allowance that holds, or the user's answer — over the
   * consent stores: the call is routed, or ended, in the same transaction, audited. Returns whether it settled it.
   */
  #settle(
    key: string,
    outcome: (
      transaction: ConsentTransaction,
      record: ToolCallRecord,
      app: AppRecord | undefined,
      tool: ConsentTool | undefined,
    ) => Promise<ConsentOutcome | undefined>,
  ): Promise<boolean> {
    return this.#pipeline.step(async (step) => {
      const { transaction, effects, descriptors } = step;
      const record = await callIn(transaction, key);
      if (record === undefined) return false;
      const descriptor = descriptors.get(record.call.tool);
      const app = descriptor === undefined ? undefined : descriptors.apps.get(descriptor.app_scope);
      const tool = descriptor === undefined ? undefined : consentToolOf(descriptor);
      const settled = await outcome(transaction as unknown as ConsentTransaction, record, app, tool);
      if (settled === undefined) return false;
      // What the step wrote (a final result, or the receipts of the routed call) goes out.
      effects.push((host) => host.outboxChanged?.());
      effects.push((host) => host.consentChanged?.(record.conversationId, record.callId));
      issue(
        this.auditIn(
          transaction,
          record,
          descriptor,
          settled.kind === 'go' ? `allowed ${settled.record.consent?.allowed ?? 'user'}` : settled.audit,
        ),
      );
      if (settled.kind === 'end') {
        await this.#pipeline.end(step, record, settled);
        return true;
      }
      await putCall(transaction, settled.record);
      return this.#pipeline.route(step, settled.record);
    }, CONSENT_STORES);
  }
}
