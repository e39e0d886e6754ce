/**
 * `app.call` (seed 000 §5.3): an agent asks the host to do something on the user's device with a capability the
 * host declared. In order, for a new call:
 *
 * 1. the same `call_id` again is answered from its record (the persisted result; nothing runs twice), and the
 *    same `call_id` with other content is refused (`failed`, `call_id_conflict`);
 * 2. a capability never declared is `unsupported` (`unknown_capability`); a revoked one `unsupported` (`revoked`);
 * 3. a call past its `expires_at` (by the runtime's clock) is `expired` and never runs;
 * 4. arguments off the capability's input schema are `failed` (`invalid_arguments`);
 * 5. the call is recorded (strict durability) before the user is asked anything;
 * 6. consent follows the risk: `display_only` needs none; `user_confirmation` asks the user, who may tick
 *    "remember" for the rest of the conversation; `system_permission` and `restricted` always ask and are never
 *    remembered (`restricted` asks for an extra confirmation step, `system_permission` goes through the
 *    browser's own permission inside the handler). A refusal is `rejected`, a dismissed dialog `cancelled`;
 * 7. after consent the expiry and the declaration are checked again (`expired`, `unsupported`), the call is
 *    marked running (durably), then the handler runs; its result must match the output schema (`completed` with
 *    `result`), else, or when it throws, `failed` — with the handler's stable code, never its text.
 *
 * Every step is audited; the one result goes to the outbox in the transaction that finishes the call. After a
 * reload `recover()` settles what was left in flight: a call still waiting for consent is `cancelled`
 * (`interrupted`), one that was running is `failed` (`outcome_unknown`): it is never run a second time.
 */
import { hashCanonicalJSON } from '@lineup/shared';
import type { AppCallPayload, AppResultPayload } from '@lineup/shared/protocol';
import {
  CAPABILITY_CALL_STORES,
  type CapabilityCallRecord,
  type CapabilityRecord,
  OUTBOX_PENDING,
  type RuntimeDatabase,
  STRICT,
} from '../storage/database.js';
import type { Clock } from '../time/clock.js';
import { matchesSchema } from '../tools/schema-validator.js';
import { type CapabilityCallContext, finishCall, markCallRunning } from './capability-call-store.js';
import {
  askCapabilityConsent,
  type CapabilityConsentContext,
  type ConsentDecision,
  type ConsentOutcome,
  type ConsentRequest,
  type ConsentSubject,
  capabilityGrantKey,
} from './capability-consent.js';
import { type CapabilityHandler, type ExecuteOutcome, runCapabilityHandler } from './capability-handler.js';

export type {
  ConsentDecision,
  ConsentOrigin,
  ConsentOutcome,
  ConsentRequest,
} from './capability-consent.js';
export { CapabilityError, type CapabilityHandler, type ExecuteOutcome } from './capability-handler.js';

export interface CapabilityRuntimeOptions {
  /** The handlers of the declared capabilities, by name. A declared capability without one is `unsupported`. */
  readonly handlers: Readonly<Record<string, CapabilityHandler>>;
  /** Asks the user. Without it every call that needs consent is `rejected` (`no_consent_ui`). */
  readonly confirm?: (request: ConsentRequest) => Promise<ConsentDecision>;
  readonly clock?: Clock;
  /** Called after a result was written to the outbox: deliver it. */
  readonly onResult?: (conversationId: string, result: AppResultPayload) => void;
}

export type CapabilityCallDisposition = 'new' | 'replayed' | 'in_flight' | 'conflict';

export interface CapabilityCallAnswer {
  readonly disposition: CapabilityCallDisposition;
  /** For a replay or a conflict, the answer to send now; a new call's result goes through the outbox. */
  readonly answer?: AppResultPayload;
  /**
   * Resolves with the new call's result once it is persisted (for tests and hosts that wait); rejects when it
   * could not be (the database closed first), leaving the call to the next `recover()`.
   */
  readonly settled?: Promise<AppResultPayload>;
}

const key = (conversationId: string, callId: string) => `${conversationId}\n${callId}`;

export class CapabilityRuntime {
  readonly #db: RuntimeDatabase;
  readonly #options: CapabilityRuntimeOptions;
  readonly #now: () => number;
  readonly #abort = new AbortController();
  /** Calls this runtime is working on: a repeat while in flight waits for the same result. */
  readonly #inFlight = new Map<string, Promise<AppResultPayload>>();
  readonly #context: CapabilityConsentContext & CapabilityCallContext;

  constructor(db: RuntimeDatabase, options: CapabilityRuntimeOptions) {
    this.#db = db;
    this.#options = options;
    const clock = options.clock;
    this.#now = clock === undefined ? Date.now : () => clock.now();
    this.#context = { db, options, now: this.#now, disposed: this.#abort.signal };
  }

  /** Stops: open questions are dismissed by the host; running handlers see their signal aborted. */
  dispose(): void {
    this.#abort.abort();
  }

  /** Whether an `app.call` with `callId` is recorded in `conversationId` (see `AgentClient`'s invalid calls). */
  async callRecorded(conversationId: string, callId: string): Promise<boolean> {
    return (await this.#db.getKey('capability_calls', key(conversationId, callId))) !== undefined;
  }

  /** An `app.call` from the agent (the payload already validated by the envelope parser). */
  async receive(conversationId: string, call: AppCallPayload): Promise<CapabilityCallAnswer> {
    const callKey = key(conversationId, call.call_id);
    const contentHash = hashCanonicalJSON([call.capability, call.reason, call.expires_at, call.arguments]);
    const tx = this.#db.transaction(CAPABILITY_CALL_STORES, 'readwrite', STRICT);
    const calls = tx.objectStore('capability_calls');
    const [existing, capability] = await Promise.all([
      calls.get(callKey),
      tx.objectStore('capabilities').get(call.capability),
    ]);
    if (existing !== undefined) {
      await tx.done;
      if (existing.contentHash !== contentHash)
        return {
          disposition: 'conflict',
          answer: failure(
            call.call_id,
            'failed',
            'call_id_conflict',
            'This call_id was used for another call.',
          ),
        };
      if (existing.result !== undefined) return { disposition: 'replayed', answer: existing.result };
      const running = this.#inFlight.get(callKey);
      return running === undefined
        ? { disposition: 'in_flight' }
        : { disposition: 'in_flight', settled: running };
    }
    const now = this.#now();
    const expiresAt = Date.parse(call.expires_at);
    const refusal = this.#refusal(call, capability, now, expiresAt);
    const record: CapabilityCallRecord = {
      key: callKey,
      conversationId,
      callId: call.call_id,
      call,
      contentHash,
      stage: refusal === null ? 'awaiting_consent' : 'finished',
      receivedAt: now,
      expiresAt,
      ...(refusal === null ? {} : { result: refusal }),
    };
    await calls.add(record);
    await tx.objectStore('audit').add({
      at: now,
      type: 'capability_call_received',
      appId: 'host',
      version: capability?.version ?? '',
      conversationId,
      callId: call.call_id,
      detail: refusal === null ? call.capability : `${call.capability} ${refusal.status}`,
    });
    if (refusal !== null)
      await tx.objectStore('outbox').add({
        at: now,
        pending: OUTBOX_PENDING,
        conversationId,
        type: 'lineup.v1.app.result',
        payload: refusal,
      });
    await tx.done;
    if (refusal !== null) {
      this.#options.onResult?.(conversationId, refusal);
      return { disposition: 'new', settled: Promise.resolve(refusal) };
    }
    // The record is on disk: now the user is asked, and the call runs or not.
    const settled = this.#proceed(record, capability as CapabilityRecord).finally(() =>
      this.#inFlight.delete(callKey),
    );
    this.#inFlight.set(callKey, settled);
    // A page that stopped (its database closed: it moved to another tab) cannot persist the result; the next
    // page's recover() settles the call. Callers that await `settled` still see the failure; nobody has to.
    settled.catch(() => {});
    return { disposition: 'new', settled };
  }

  /**
   * After a reload: every call left in flight gets its one result — `cancelled` (`interrupted`) when the user was
   * still being asked, `failed` (`outcome_unknown`) when it was running. Returns how many were settled.
   */
  async recover(): Promise<number> {
    const open = [
      ...(await this.#db.getAllFromIndex('capability_calls', 'by_stage', 'awaiting_consent')),
      ...(await this.#db.getAllFromIndex('capability_calls', 'by_stage', 'running')),
    ].filter((record) => !this.#inFlight.has(record.key));
    for (const record of open) {
      const result =
        record.stage === 'running'
          ? failure(
              record.callId,
              'failed',
              'outcome_unknown',
              'The page was closed while this ran; it is not run again.',
            )
          : failure(
              record.callId,
              'cancelled',
              'interrupted',
              'The page was closed before the user answered.',
            );
      await this.#finish(record, result);
    }
    return open.length;
  }

  /** Why a new call is refused before anyone is asked, or null. */
  #refusal(
    call: AppCallPayload,
    capability: CapabilityRecord | undefined,
    now: number,
    expiresAt: number,
  ): AppResultPayload | null {
    if (capability === undefined || this.#options.handlers[capability.name] === undefined)
      return failure(
        call.call_id,
        'unsupported',
        'unknown_capability',
        'This host declares no such capability.',
      );
    if (capability.revoked)
      return failure(call.call_id, 'unsupported', 'revoked', 'This capability was revoked.');
    if (!(expiresAt > now))
      return failure(call.call_id, 'expired', 'expired', 'The call expired before it ran.');
    if (!matchesSchema(capability.input_schema, call.arguments))
      return failure(
        call.call_id,
        'failed',
        'invalid_arguments',
        "The arguments do not match the capability's input schema.",
      );
    return null;
  }

  async #proceed(record: CapabilityCallRecord, capability: CapabilityRecord): Promise<AppResultPayload> {
    const { call, conversationId } = record;
    const decision = await this.#consent(
      {
        conversationId,
        callId: call.call_id,
        origin: { kind: 'agent' },
        reason: call.reason,
        arguments: call.arguments,
        expiresAt: record.expiresAt,
      },
      capability,
    );
    if (decision === 'denied')
      return this.#finish(
        record,
        failure(call.call_id, 'rejected', 'user_denied', 'The user said no.'),
        decision,
      );
    if (decision === 'expired')
      return this.#finish(
        record,
        failure(call.call_id, 'expired', 'expired', 'The call expired while the user was asked.'),
        'dismissed',
      );
    if (decision === 'dismissed')
      return this.#finish(
        record,
        failure(call.call_id, 'cancelled', 'dismissed', 'The user closed the question without answering.'),
        decision,
      );
    if (decision === 'no_consent_ui')
      return this.#finish(
        record,
        failure(call.call_id, 'rejected', 'no_consent_ui', 'This host cannot ask the user.'),
        'denied',
      );
    // Consent given: is it still in time, and still declared?
    const current = await this.#db.get('capabilities', capability.name);
    const now = this.#now();
    if (!(record.expiresAt > now))
      return this.#finish(
        record,
        failure(call.call_id, 'expired', 'expired', 'The call expired while the user was asked.'),
        decision,
      );
    if (current === undefined || current.revoked || current.version !== capability.version)
      return this.#finish(
        record,
        failure(call.call_id, 'unsupported', 'revoked', 'This capability was revoked.'),
        decision,
      );
    await this.#markRunning(record, decision);
    const ran = await this.#execute(current, call.arguments, { conversationId, callId: call.call_id });
    if (!ran.ok)
      return this.#finish(
        { ...record, stage: 'running' },
        failure(
          call.call_id,
          'failed',
          ran.code,
          ran.code === 'invalid_output'
            ? "The result did not match the capability's output schema."
            : 'The capability did not complete.',
        ),
      );
    return this.#finish(
      { ...record, stage: 'running' },
      {
        call_id: call.call_id,
        status: 'completed',
        result: ran.output,
      },
    );
  }

  /** Runs a capability's handler and checks its output (`runCapabilityHandler`), under this runtime's signal. */
  #execute(
    capability: CapabilityRecord,
    args: Readonly<Record<string, unknown>>,
    context: { readonly conversationId: string; readonly callId: string },
  ): Promise<ExecuteOutcome> {
    return runCapabilityHandler(this.#options, capability, args, context, this.#abort.signal);
  }

  /**
   * For the DSL action runner: the consent an interface action needs by its capability's risk — the same policy
   * as an `app.call` (none for `display_only`, a remembered grant for `user_confirmation`, always asked for
   * `system_permission` and `restricted`). Interface actions never expire. Nothing is recorded here: the ledger
   * keeps the operation's facts.
   */
  consentForAction(
    subject: {
      readonly conversationId: string;
      readonly operationId: string;
      readonly title: string;
      readonly actionId: string;
      readonly reason: string;
      readonly arguments: Readonly<Record<string, unknown>>;
    },
    capability: CapabilityRecord,
  ): Promise<ConsentOutcome> {
    return this.#consent(
      {
        conversationId: subject.conversationId,
        callId: subject.operationId,
        origin: {
          kind: 'interface',
          operationId: subject.operationId,
          title: subject.title,
          actionId: subject.actionId,
        },
        reason: subject.reason,
        arguments: subject.arguments,
        expiresAt: Number.POSITIVE_INFINITY,
      },
      capability,
    );
  }

  /**
   * For a host that shows MCP App views: the consent a view's request needs (its `ui/open-link` is the
   * `app.open_url` capability), by the capability's risk — the same policy as an `app.call` and an interface
   * action. It never expires; nothing is recorded here (the host audits the view's request).
   */
  consentForView(
    subject: {
      readonly conversationId: string;
      readonly operationId: string;
      readonly server: string;
      readonly reason: string;
      readonly arguments: Readonly<Record<string, unknown>>;
    },
    capability: CapabilityRecord,
  ): Promise<ConsentOutcome> {
    return this.#consent(
      {
        conversationId: subject.conversationId,
        callId: subject.operationId,
        origin: { kind: 'view', operationId: subject.operationId, server: subject.server },
        reason: subject.reason,
        arguments: subject.arguments,
        expiresAt: Number.POSITIVE_INFINITY,
      },
      capability,
    );
  }

  /** Whether consent for `capability` would be asked (false for `display_only` and a remembered grant). */
  async needsConsent(conversationId: string, capability: CapabilityRecord): Promise<boolean> {
    if (capability.risk === 'display_only') return false;
    if (capability.risk !== 'user_confirmation') return true;
    const grant = await this.#db.get('grants', capabilityGrantKey(conversationId, capability.name));
    return grant === undefined || grant.version !== capability.version;
  }

  /** For the DSL action runner: runs the capability's handler after consent (see `#execute`). */
  executeForAction(
    capability: CapabilityRecord,
    args: Readonly<Record<string, unknown>>,
    context: { readonly conversationId: string; readonly operationId: string },
  ): Promise<ExecuteOutcome> {
    return this.#execute(capability, args, {
      conversationId: context.conversationId,
      callId: context.operationId,
    });
  }

  /** The consent the risk needs, from a remembered grant or the user (`askCapabilityConsent`). */
  #consent(record: ConsentSubject, capability: CapabilityRecord): Promise<ConsentOutcome> {
    return askCapabilityConsent(this.#context, record, capability);
  }

  /** Consent given: the call is running (`markCallRunning`). */
  #markRunning(record: CapabilityCallRecord, decision: CapabilityCallRecord['decision']): Promise<void> {
    return markCallRunning(this.#context, record, decision);
  }

  /** Persists the one result (never over another), audits it and queues it for the agent (`finishCall`). */
  #finish(
    record: CapabilityCallRecord,
    result: AppResultPayload,
    decision?: CapabilityCallRecord['decision'],
  ): Promise<AppResultPayload> {
    return finishCall(this.#context, record, result, decision);
  }
}

function failure(
  callId: string,
  status: Exclude<AppResultPayload['status'], 'completed'>,
  code: string,
  message: string,
): AppResultPayload {
  return { call_id: callId, status, error: { code, message } };
}
