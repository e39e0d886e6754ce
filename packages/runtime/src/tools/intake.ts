/**
 * Step 3 of the pipeline, receiving an Agent Tool call: the first thing the runtime does with a `lineup.v1.tool.call`
 * the agent client took (`client/inbound.ts`: envelope, agent and conversation already checked there).
 *
 * 1. A `call_id` seen before in this conversation answers with what was persisted for it — the latest protocol
 *    receipt or the final result — executing nothing and adding no outbox row; the same `call_id` with other
 *    content is refused with `call_id_conflict`, and nothing about the first call changes.
 * 2. Otherwise the call is checked by step 1 (`envelope-check.ts`: the inventory revision, `stale_inventory`) and
 *    step 2 (`tool-check.ts`: the tool's visibility, `unsupported`, and its arguments against the published input
 *    schema, `invalid_arguments`).
 * 3. The call record, its audit entry and the answer's outbox row are written in one transaction: `accepted`
 *    progress for a valid call, or the final error result for a refused one (so a replay gets the same answer).
 *
 * What follows for an accepted call — the consent step, its scope (step 4), its activation and executor (step 5) —
 * is in `consent/` and `execution/`, not in this module.
 */
import { canonicalJSONString, hashCanonicalJSON } from '@lineup/shared';
import {
  type ClientInventoryPayload,
  LINEUP_WIRE_LIMITS,
  type ToolCallPayload,
  type ToolErrorCode,
} from '@lineup/shared/protocol';
import type { IDBPTransaction } from 'idb';
import { type AppRegistry, buildInventory } from '../apps/registry.js';
import {
  abortQuietly,
  type InventoryRecord,
  issue,
  OUTBOX_PENDING,
  type RuntimeDatabase,
  type RuntimeDatabaseSchema,
  STRICT,
  type ToolCallRecord,
} from '../storage/database.js';
import type { Clock } from '../time/clock.js';
import { checkRevision } from './envelope-check.js';
import type { SchemaIssue } from './schema-validator.js';
import { argumentsRefusal, checkTool } from './tool-check.js';

/** The answer to one received call, as the message to send back (what the call record keeps as `latest`). */
export type ToolCallAnswer = ToolCallRecord['latest'];

/** What the answer says about the call: new and accepted, new and refused, or a replay of a known call. */
export type ToolCallDisposition = 'accepted' | 'rejected' | 'replayed' | 'conflict';

const ERROR_MESSAGES: Readonly<Partial<Record<ToolErrorCode, string>>> = {
  stale_inventory: 'The inventory has changed since this revision; use the latest client.inventory.',
  unsupported: 'No such tool is available to this conversation.',
  invalid_arguments: "The arguments do not match the tool's input schema.",
  call_id_conflict: 'This call_id was already used for a different call.',
};

/** `message` and, after a colon, the refused places it names (`text: missing_property (expected string)`), bounded. */
export function withPlaces(message: string, places: string): string {
  if (places === '') return message;
  const text = `${message.replace(/\.$/, '')}: ${places}.`;
  const max = LINEUP_WIRE_LIMITS.maxErrorMessageLength;
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function errorResult(
  callId: string,
  code: ToolErrorCode,
  refusal?: { readonly issues: readonly SchemaIssue[]; readonly places: string },
): ToolCallAnswer {
  const issues = refusal?.issues;
  const known = ERROR_MESSAGES[code];
  const message = known === undefined || refusal === undefined ? known : withPlaces(known, refusal.places);
  return {
    type: 'lineup.v1.tool.result',
    payload: {
      call_id: callId,
      outcome: 'error',
      error: {
        code,
        ...(message === undefined ? {} : { message }),
        ...(issues === undefined || issues.length === 0 ? {} : { issues: [...issues] }),
      },
    },
  };
}

/** What receiving a call reads and writes: the inventory, and the call with its audit entry and outbox row. */
const INTAKE_STORES = ['inventory', 'tool_calls', 'audit', 'outbox'] as const;
export type IntakeTransaction = IDBPTransaction<RuntimeDatabaseSchema, typeof INTAKE_STORES, 'readwrite'>;

/** What tells a reused `call_id` with other content apart: its tool, revision and arguments. */
function contentOf(call: ToolCallPayload) {
  return { tool: call.tool, inventory_revision: call.inventory_revision, arguments: call.arguments };
}

/**
 * Whether `call` has the content of the recorded call `known`: the same tool, revision and arguments, compared as
 * canonical JSON (key order does not count) — or, for a record written before 2026-12-06, by the digest it kept.
 * Only a call whose `call_id` is known pays for it.
 */
function sameContent(known: ToolCallRecord, call: ToolCallPayload): boolean {
  if (known.contentHash !== undefined) return known.contentHash === hashCanonicalJSON(contentOf(call));
  return canonicalJSONString(contentOf(known.call)) === canonicalJSONString(contentOf(call));
}

/** The key of a call: conversation and call id (a call id is unique within its conversation). */
function callKey(conversationId: string, callId: string): string {
  return `${conversationId}\n${callId}`;
}

export class ToolCallIntake {
  readonly #db: RuntimeDatabase;
  readonly #clock: Clock;

  /** `registry` names the registry whose published inventory calls are checked against. */
  constructor(db: RuntimeDatabase, _registry: AppRegistry, options: { readonly clock?: Clock } = {}) {
    this.#db = db;
    this.#clock = options.clock ?? Date;
  }

  /** Whether a call with `callId` is recorded in `conversationId` (accepted or refused). */
  async callRecorded(conversationId: string, callId: string): Promise<boolean> {
    return (await this.#db.getKey('tool_calls', callKey(conversationId, callId))) !== undefined;
  }

  /**
   * Receives one parsed `tool.call` payload of `conversationId`; returns the answer to send and what it means.
   * One strict transaction reads the inventory and writes the call, its audit entry and the answer's outbox row.
   */
  async receive(
    conversationId: string,
    call: ToolCallPayload,
  ): Promise<{ readonly answer: ToolCallAnswer; readonly disposition: ToolCallDisposition }> {
    const transaction = this.#db.transaction(INTAKE_STORES, 'readwrite', STRICT);
    try {
      const { answer, disposition } = await this.receiveIn(transaction, conversationId, call);
      await transaction.done;
      return { answer, disposition };
    } catch (error) {
      abortQuietly(transaction);
      await transaction.done.catch(() => {});
      throw error;
    }
  }

  /**
   * The same, inside a transaction the caller holds (the runtime routes an accepted call in the same one, so
   * `accepted` and what follows from it commit together). Awaits nothing but the transaction: the schema check
   * is synchronous.
   */
  async receiveIn(
    transaction: IntakeTransaction,
    conversationId: string,
    call: ToolCallPayload,
  ): Promise<{
    readonly answer: ToolCallAnswer;
    readonly disposition: ToolCallDisposition;
    /** The record written for a new call. */
    readonly record?: ToolCallRecord;
    /** The published inventory as the transaction read it (absent before anything was published). */
    readonly published?: InventoryRecord;
  }> {
    const [known, current] = await Promise.all([
      this.knownIn(transaction, conversationId, call),
      transaction.objectStore('inventory').get('current'),
    ]);
    return this.answerIn(transaction, conversationId, call, known, current);
  }

  /** The record of the call with `call`'s `call_id` in `conversationId`, if the conversation recorded one. */
  knownIn(
    transaction: IntakeTransaction,
    conversationId: string,
    call: ToolCallPayload,
  ): Promise<ToolCallRecord | undefined> {
    return transaction.objectStore('tool_calls').get(callKey(conversationId, call.call_id));
  }

  /**
   * `receiveIn` with its reads done by the caller: `known`, what `knownIn` read, and `current`, the published
   * inventory as the transaction sees it. Reads nothing. With `hold`, the record of a new call is handed to it rather
   * than written: the caller, which writes it again in the same transaction, writes it once.
   */
  answerIn(
    transaction: IntakeTransaction,
    conversationId: string,
    call: ToolCallPayload,
    known: ToolCallRecord | undefined,
    current: InventoryRecord | undefined,
    hold?: (record: ToolCallRecord) => void,
  ): {
    readonly answer: ToolCallAnswer;
    readonly disposition: ToolCallDisposition;
    readonly record?: ToolCallRecord;
    readonly published?: InventoryRecord;
  } {
    const published = current === undefined ? {} : { published: current };
    if (known !== undefined) {
      if (!sameContent(known, call))
        return {
          answer: errorResult(call.call_id, 'call_id_conflict'),
          disposition: 'conflict',
          ...published,
        };
      return { answer: known.latest, disposition: 'replayed', ...published };
    }
    const inventory = current?.inventory ?? buildInventory(0, []);
    return { ...this.recordIn(transaction, conversationId, call, inventory, undefined, hold), ...published };
  }

  /**
   * Checks and records a call without reading: against `inventory`, which the caller knows to be the published one
   * (it asserts so in the same transaction), and with an `add` of the call's record, which fails — aborting the
   * transaction — if the conversation already recorded this `call_id` (the caller then answers it with
   * `receiveIn`). Issues the record, its audit entry and the answer's outbox row, awaiting none of them: the
   * transaction's commit confirms them. `continued` is what the caller makes of an accepted call in the same
   * transaction (it dispatches it): the record added is that one — one write where two would be.
   */
  recordIn(
    transaction: IntakeTransaction,
    conversationId: string,
    call: ToolCallPayload,
    inventory: ClientInventoryPayload,
    continued?: (record: ToolCallRecord) => ToolCallRecord,
    /** Takes the record to write instead of adding it (the caller knows the `call_id` is new). */
    hold?: (record: ToolCallRecord) => void,
  ): {
    readonly answer: ToolCallAnswer;
    readonly disposition: 'accepted' | 'rejected';
    /** The record as received (before `continued`). */
    readonly record: ToolCallRecord;
  } {
    const entry = inventory.tools?.find((tool) => tool.name === call.tool);
    const verdict = checkRevision(call, inventory.revision) ?? checkTool(call, entry);
    const now = this.#clock.now();
    const answer: ToolCallAnswer =
      verdict === null
        ? {
            type: 'lineup.v1.tool.progress',
            payload: { call_id: call.call_id, app_scope: entry!.app_scope, status: 'accepted' },
          }
        : errorResult(
            call.call_id,
            verdict,
            // Where the arguments fail the schema, never what they were: the agent can fix its call.
            verdict === 'invalid_arguments' && entry !== undefined
              ? argumentsRefusal(call, entry)
              : undefined,
          );
    const record: ToolCallRecord = {
      key: callKey(conversationId, call.call_id),
      conversationId,
      callId: call.call_id,
      call,
      status: verdict === null ? 'accepted' : 'rejected',
      latest: answer,
      receivedAt: now,
      // An accepted call is `received` until routed, and due by its timeout: the `by_due` index lists every
      // unfinished call, so a restart finds one accepted just before the page closed.
      ...(verdict === null
        ? { stage: 'received' as const, dueAt: now + entry!.timeout_ms }
        : { stage: 'finished' as const }),
    };
    // Issued together, not awaited: the transaction applies them in order, and a failing one aborts all of them
    // (the caller's commit says so).
    const written = verdict === null && continued ? continued(record) : record;
    if (hold === undefined) issue(transaction.objectStore('tool_calls').add(written));
    else hold(written);
    issue(
      transaction.objectStore('audit').add({
        at: now,
        type: verdict === null ? 'tool_call_accepted' : 'tool_call_rejected',
        appId: entry?.app_scope ?? '',
        version: entry?.contract_version ?? '',
        conversationId,
        callId: call.call_id,
      }),
      transaction.objectStore('outbox').add({ at: now, pending: OUTBOX_PENDING, conversationId, ...answer }),
    );
    return { answer, disposition: verdict === null ? 'accepted' : 'rejected', record };
  }
}
