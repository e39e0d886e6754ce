/**
 * Runs what the DSL action ledger recorded (seed 002 §11, seed 004 §4): the second path, next to `app.call`, by
 * which something happens on the user's device — a 1.1 `invoke` button the user clicked in an interface the agent
 * sent.
 *
 * One registry serves both models. A host declares wire capabilities (seed 000: name, version, one of four risks,
 * schemas, a handler) to the `AppRegistry` and the `CapabilityRuntime`; a **DSL capability** (seed 002: the
 * `capabilityId` a document names) is a binding onto one of them, with the DSL arguments' schema, adapters to the
 * wire arguments and from the wire output, and the result fields made public. The mapping, defined here once:
 *
 * - a DSL capability is offered (in `catalog()`) only while its wire capability is declared and not revoked;
 * - its DSL `risk` is derived from the wire risk: `display_only` → `read` (runs without asking), every other
 *   risk → `write` (the user is asked first) — see `DSL_RISK_OF`;
 * - consent follows the wire capability's risk exactly as for an `app.call`, by the same code: a remembered grant
 *   for `user_confirmation` (shared with `app.call`s of the conversation), always asked for `system_permission`
 *   and `restricted` (with the extra step);
 * - the handler is the wire capability's, and its output must match the wire output schema.
 *
 * A tool action: the arguments the ledger re-derived from the stored document are checked against the DSL
 * parameters, adapted, and checked against the wire input schema; the operation becomes `awaiting_confirmation`
 * (atomically: one claimant) while the user is asked; after consent the capability, its version and the arguments
 * are checked again (a configuration change cannot be bypassed by an old page); the claim to `running` is atomic;
 * the handler runs; the public result holds only the binding's `resultFields`, scalars only; a failure says the
 * handler's stable code, never its text. A refusal is `cancelled` (nothing ran), a failure `failed`.
 *
 * An agent action: claimed (`running`), its prompt goes to the agent as `lineup.v1.ui.action` through the
 * conversation's journal (it waits there while the agent is away), and only the agent's
 * `lineup.v1.ui.action_result` for that operation settles it: `accepted` (the agent queued it, nothing more) or
 * `failed` (declined).
 */
import {
  parseUIActionResult,
  parseUICapabilityDescriptor,
  UI_ACTION_ACTIVE_STATUSES,
  type UIActionReceipt,
  type UICapabilityDescriptor,
  type UICapabilityRisk,
} from '@lineup/shared';
import type { LineUpRiskLevel, UIActionAnswerPayload, UIActionPayload } from '@lineup/shared/protocol';
import { CapabilityError, type CapabilityRuntime } from '../capabilities/capability-runtime.js';
import type { ActionLedgerRecord, CapabilityRecord, RuntimeDatabase } from '../storage/database.js';
import type { Clock } from '../time/clock.js';
import { assertUsableSchema, matchesSchema } from '../tools/schema-validator.js';
import { type ActionDocumentSource, ActionLedger } from './action-ledger.js';

/** The one mapping from a wire capability's risk (seed 000) to the DSL risk a catalog shows (seed 002). */
export const DSL_RISK_OF: Readonly<Record<LineUpRiskLevel, UICapabilityRisk>> = Object.freeze({
  display_only: 'read',
  user_confirmation: 'write',
  system_permission: 'write',
  restricted: 'write',
});

type Scalar = string | number | boolean | null;

/** A DSL capability: what a document's `capabilityId` names, bound to one declared wire capability. */
export interface DslCapabilityBinding {
  /** The DSL `capabilityId` (a DSL identifier). */
  readonly id: string;
  readonly title: string;
  readonly description: string;
  /** The wire capability it runs (declared with `AppRegistry.declareCapabilities`, handled by the runtime). */
  readonly capability: string;
  /** JSON Schema of the DSL arguments (a flat object of scalars); checked before anything else. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** The top-level result fields made public (at most 32); every other field of the output stays private. */
  readonly resultFields: readonly string[];
  /** The wire arguments for the DSL arguments (default: the same object). Throwing refuses the action. */
  readonly toArguments?: (args: Readonly<Record<string, Scalar>>) => Record<string, unknown>;
  /**
   * The public result for the wire output (default: the output). Throwing a `CapabilityError` fails the action
   * with its code; anything else it throws is `invalid_output`.
   */
  readonly toResult?: (output: Readonly<Record<string, unknown>>) => Record<string, unknown>;
}

/** How agent actions reach the agent (an `AgentClient`). */
export interface AgentActionChannel {
  /** Records the message in the conversation's journal and sends it, or leaves it queued while the agent is away. */
  sendAction(conversationId: string, payload: UIActionPayload): Promise<unknown>;
}

/** Why an agent's answer changed nothing. */
export type AgentAnswerOutcome =
  | { readonly outcome: 'settled'; readonly receipt: UIActionReceipt }
  | {
      readonly outcome: 'ignored';
      readonly reason: 'unknown_operation' | 'not_an_agent_action' | 'not_waiting';
    };

export interface ActionRunnerOptions {
  /** Where the ledger finds the documents the agent sent (a `ConversationStore`). */
  readonly documents: ActionDocumentSource;
  /** Runs consent and handlers: the same runtime that answers `app.call`s. */
  readonly capabilities: CapabilityRuntime;
  readonly bindings: readonly DslCapabilityBinding[];
  /** Without it an agent action fails at once (`No agent…`); nothing is sent. */
  readonly agent?: AgentActionChannel;
  readonly clock?: Clock;
  readonly ids?: () => string;
  /** Every receipt change of any operation (a reserve, each status change), e.g. to update the interfaces. */
  readonly onReceipt?: (conversationId: string, receipt: UIActionReceipt) => void;
}

const ACTIVE: ReadonlySet<string> = new Set(UI_ACTION_ACTIVE_STATUSES);
/** A code a handler or an adapter may say (`CapabilityError`), as the capability runtime accepts it. */
const STABLE_CODE = /^[a-z][a-z0-9_]{0,63}$/;

export class ActionRunner {
  /** The facts: reserve, get, list, cancel, catalog. */
  readonly ledger: ActionLedger;
  readonly #db: RuntimeDatabase;
  readonly #options: ActionRunnerOptions;
  readonly #bindings: ReadonlyMap<string, DslCapabilityBinding>;
  /** Operations this page is working on, by id: a repeat of the request waits for the same end. */
  readonly #inFlight = new Map<string, Promise<UIActionReceipt>>();
  /** Waiting for an operation's final receipt (agent actions wait for the agent's answer). */
  readonly #waiters = new Map<string, Set<(receipt: UIActionReceipt) => void>>();
  readonly #listeners = new Map<string, Set<(receipt: UIActionReceipt) => void>>();

  constructor(db: RuntimeDatabase, options: ActionRunnerOptions) {
    this.#db = db;
    this.#options = options;
    const bindings = new Map<string, DslCapabilityBinding>();
    for (const binding of options.bindings) {
      // A host's mistake is refused here, with the descriptor's own rules (seed 002 §11, §13).
      parseUICapabilityDescriptor(descriptorOf(binding, 'read'));
      assertUsableSchema(binding.parameters, { kind: 'binding', name: binding.id, schema: 'parameters' });
      if (bindings.has(binding.id)) throw new Error(`Two DSL capabilities named ${binding.id}.`);
      bindings.set(binding.id, binding);
    }
    this.#bindings = bindings;
    this.ledger = new ActionLedger(db, {
      documents: options.documents,
      catalog: () => this.catalog(),
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      ...(options.ids === undefined ? {} : { ids: options.ids }),
      onChange: (conversationId, receipt) => this.#changed(conversationId, receipt),
    });
  }

  /** The DSL capabilities offered now: those whose wire capability is declared, not revoked and handled. */
  async catalog(): Promise<readonly UICapabilityDescriptor[]> {
    const descriptors: UICapabilityDescriptor[] = [];
    for (const binding of this.#bindings.values()) {
      const capability = await this.#db.get('capabilities', binding.capability);
      if (offered(capability))
        descriptors.push(parseUICapabilityDescriptor(descriptorOf(binding, DSL_RISK_OF[capability.risk])));
    }
    return descriptors;
  }

  /**
   * One explicit click: reserves the request (see `ActionLedger.reserve`; its `ActionLedgerError`s are thrown
   * and nothing is written) and runs it, resolving with the final receipt. The same request again (a network
   * retry) runs nothing: it resolves with the receipt of the first — once final, when it is still running here.
   * `onReceipt` sees each receipt of this operation on the way.
   */
  async submit(
    conversationId: string,
    request: unknown,
    onReceipt?: (receipt: UIActionReceipt) => void,
  ): Promise<UIActionReceipt> {
    const receipt = await this.ledger.reserve(conversationId, request);
    const { operationId } = receipt;
    const listen = onReceipt === undefined ? () => {} : this.#listen(operationId, onReceipt);
    try {
      onReceipt?.(receipt);
      const inFlight = this.#inFlight.get(operationId);
      if (inFlight !== undefined) return await inFlight;
      if (receipt.status !== 'queued') {
        // Reserved before (a retry): a final one is its answer; a running agent action waits for the agent.
        return receipt.status === 'running' ? await this.#final(operationId, receipt) : receipt;
      }
      const run = this.#run(conversationId, operationId).finally(() => this.#inFlight.delete(operationId));
      this.#inFlight.set(operationId, run);
      return await run;
    } finally {
      listen();
    }
  }

  /** The receipts of one document (after a reload: shown again, never run again). */
  list(
    conversationId: string,
    ref: Parameters<ActionLedger['list']>[1],
  ): Promise<readonly UIActionReceipt[]> {
    return this.ledger.list(conversationId, ref);
  }

  /**
   * The agent's answer for an agent action. Only a running agent action of this conversation is settled:
   * `accepted`, or `failed` when declined (with the agent's message, as text). Anything else changes nothing.
   */
  async receiveAnswer(conversationId: string, answer: UIActionAnswerPayload): Promise<AgentAnswerOutcome> {
    let record: ActionLedgerRecord;
    try {
      record = await this.ledger.operation(conversationId, answer.operation_id);
    } catch {
      return { outcome: 'ignored', reason: 'unknown_operation' };
    }
    if (record.kind !== 'agent') return { outcome: 'ignored', reason: 'not_an_agent_action' };
    if (record.status !== 'running') return { outcome: 'ignored', reason: 'not_waiting' };
    const { receipt, changed } =
      answer.status === 'accepted'
        ? await this.ledger.settleOnce(conversationId, record.operationId, 'accepted', {
            ...(answer.message === undefined ? {} : { message: answer.message }),
          })
        : await this.ledger.settleOnce(conversationId, record.operationId, 'failed', {
            message: answer.message ?? 'The agent declined.',
          });
    // A settle that lost a race (another answer, a cancel) changed nothing for this answer.
    return changed ? { outcome: 'settled', receipt } : { outcome: 'ignored', reason: 'not_waiting' };
  }

  /** After a reload: see `ActionLedger.recover` (nothing runs again; sent agent actions keep waiting). */
  recover(): Promise<number> {
    return this.ledger.recover(new Set(this.#inFlight.keys()));
  }

  async #run(conversationId: string, operationId: string): Promise<UIActionReceipt> {
    const record = await this.ledger.operation(conversationId, operationId);
    return record.kind === 'agent' ? this.#runAgent(record) : this.#runTool(record);
  }

  async #runTool(record: ActionLedgerRecord): Promise<UIActionReceipt> {
    const { conversationId, operationId } = record;
    const fail = (message: string) => this.ledger.settle(conversationId, operationId, 'failed', { message });
    const refuse = (message: string) =>
      this.ledger.settle(conversationId, operationId, 'cancelled', { message });
    const binding = this.#bindings.get(record.capabilityId ?? '');
    let capability = binding && (await this.#db.get('capabilities', binding.capability));
    if (binding === undefined || !offered(capability))
      return fail('This capability is not offered any more; nothing ran (unknown_capability).');
    let args = wireArguments(binding, record.arguments ?? {}, capability);
    if (args === null)
      return fail('The arguments do not fit the capability; nothing ran (invalid_arguments).');
    const runtime = this.#options.capabilities;
    if (await runtime.needsConsent(conversationId, capability)) {
      if ((await this.ledger.awaitConfirmation(conversationId, operationId)) === null)
        return this.ledger.get(conversationId, operationId);
      const outcome = await runtime.consentForAction(
        {
          conversationId,
          operationId,
          title: record.title ?? '',
          actionId: record.actionId,
          reason: `You pressed the "${record.actionId}" action of the interface "${record.title ?? ''}".`,
          arguments: args,
        },
        capability,
      );
      if (outcome === 'denied') return refuse('You did not allow it; nothing ran.');
      if (outcome === 'dismissed' || outcome === 'expired')
        return refuse('The question was closed without an answer; nothing ran.');
      if (outcome === 'no_consent_ui') return fail('This host cannot ask you; nothing ran (no_consent_ui).');
      // Consent given: checked again, so a change made meanwhile is not bypassed (seed 004 §4).
      const now = await this.#db.get('capabilities', binding.capability);
      if (this.#bindings.get(binding.id) !== binding || !offered(now) || now.version !== capability.version)
        return fail('The capability changed while you were asked; nothing ran (capability_changed).');
      capability = now;
      args = wireArguments(binding, record.arguments ?? {}, capability);
      if (args === null)
        return fail('The arguments do not fit the capability; nothing ran (invalid_arguments).');
    }
    if ((await this.ledger.claim(conversationId, operationId)) === null)
      return this.ledger.get(conversationId, operationId);
    const ran = await runtime.executeForAction(capability, args, { conversationId, operationId });
    if (!ran.ok) return fail(`It did not complete (${ran.code}).`);
    const result = publicResult(binding, ran.output);
    if (!result.ok)
      return fail(
        result.code === 'invalid_output'
          ? 'Its result could not be shown (invalid_output).'
          : `It did not complete (${result.code}).`,
      );
    return this.ledger.settle(conversationId, operationId, 'succeeded', { result: result.value });
  }

  async #runAgent(record: ActionLedgerRecord): Promise<UIActionReceipt> {
    const { conversationId, operationId } = record;
    const agent = this.#options.agent;
    if (agent === undefined)
      return this.ledger.settle(conversationId, operationId, 'failed', {
        message: 'No agent is connected to this page; nothing was sent.',
      });
    const claimed = await this.ledger.claim(conversationId, operationId);
    if (claimed === null) return this.ledger.get(conversationId, operationId);
    const final = this.#final(operationId);
    try {
      await agent.sendAction(conversationId, {
        operation_id: operationId,
        action_id: record.actionId,
        document: {
          source_call_id: record.documentRef.sourceCallId,
          ui_id: record.documentRef.uiId,
          generation: record.documentRef.generation,
          revision: record.documentRef.revision,
        },
        prompt: record.prompt ?? '',
      });
    } catch {
      // Nothing was recorded for the agent: it can never arrive.
      return this.ledger.settle(conversationId, operationId, 'failed', {
        message: 'It could not be sent to the agent.',
      });
    }
    await this.ledger.markSent(conversationId, operationId);
    return final;
  }

  /** Resolves with the operation's final receipt (now, when `current` is already final). */
  #final(operationId: string, current?: UIActionReceipt): Promise<UIActionReceipt> {
    if (current !== undefined && !ACTIVE.has(current.status)) return Promise.resolve(current);
    return new Promise((resolve) => {
      const waiting = this.#waiters.get(operationId) ?? new Set();
      this.#waiters.set(operationId, waiting);
      waiting.add(resolve);
    });
  }

  #listen(operationId: string, listener: (receipt: UIActionReceipt) => void): () => void {
    const set = this.#listeners.get(operationId) ?? new Set();
    this.#listeners.set(operationId, set);
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#listeners.delete(operationId);
    };
  }

  #changed(conversationId: string, receipt: UIActionReceipt): void {
    this.#options.onReceipt?.(conversationId, receipt);
    for (const listener of this.#listeners.get(receipt.operationId) ?? []) listener(receipt);
    if (ACTIVE.has(receipt.status)) return;
    const waiting = this.#waiters.get(receipt.operationId);
    this.#waiters.delete(receipt.operationId);
    for (const resolve of waiting ?? []) resolve(receipt);
  }
}

function offered(capability: CapabilityRecord | undefined): capability is CapabilityRecord {
  return capability !== undefined && !capability.revoked;
}

function descriptorOf(binding: DslCapabilityBinding, risk: UICapabilityRisk): UICapabilityDescriptor {
  return {
    id: binding.id,
    title: binding.title,
    description: binding.description,
    risk,
    parameters: binding.parameters as UICapabilityDescriptor['parameters'],
    resultFields: [...binding.resultFields],
  };
}

/** The wire arguments: the DSL arguments checked, adapted and checked again; `null` when any step refuses. */
function wireArguments(
  binding: DslCapabilityBinding,
  args: Readonly<Record<string, Scalar>>,
  capability: CapabilityRecord,
): Record<string, unknown> | null {
  if (!matchesSchema(binding.parameters, args)) return null;
  let wire: Record<string, unknown>;
  try {
    wire = binding.toArguments === undefined ? { ...args } : binding.toArguments(args);
  } catch {
    return null;
  }
  return matchesSchema(capability.input_schema, wire) ? wire : null;
}

/**
 * The public result: the binding's result fields only, each a scalar. `toResult` may refuse with a
 * `CapabilityError` (its stable code is said); anything else that does not fit is `invalid_output`.
 */
function publicResult(
  binding: DslCapabilityBinding,
  output: Readonly<Record<string, unknown>>,
):
  | { readonly ok: true; readonly value: Readonly<Record<string, Scalar>> }
  | { readonly ok: false; readonly code: string } {
  const invalid = { ok: false, code: 'invalid_output' } as const;
  let projected: Readonly<Record<string, unknown>>;
  try {
    projected = binding.toResult === undefined ? output : binding.toResult(output);
  } catch (error) {
    return error instanceof CapabilityError && STABLE_CODE.test(error.code)
      ? { ok: false, code: error.code }
      : invalid;
  }
  const result: Record<string, Scalar> = {};
  for (const field of binding.resultFields) {
    if (!Object.hasOwn(projected, field)) continue;
    const value = projected[field];
    if (
      !(value === null || typeof value === 'string' || typeof value === 'boolean') &&
      !(typeof value === 'number' && Number.isFinite(value))
    )
      return invalid;
    result[field] = value as Scalar;
  }
  try {
    return { ok: true, value: parseUIActionResult(result) };
  } catch {
    return invalid;
  }
}
