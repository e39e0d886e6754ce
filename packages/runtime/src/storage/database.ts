/**
 * The runtime's IndexedDB database (DESIGN.md "Persistence"): one database per host profile, opened through
 * `idb`, with a versioned upgrade path. Each version's step only adds what that version introduced, so a
 * profile created by any earlier version upgrades in place and keeps its facts.
 *
 * Version 1 holds the app registry, the inventory revision, the audit log and the outbox; version 2 adds the
 * Agent Tool calls; version 3 indexes the pending outbox rows, so that finding what to send never reads the
 * delivered history; version 4 adds what executing a call needs: MiniApp instances (with their app
 * sub-session), activations, operations and session data, and indexes of what falls due (an activation's
 * foreground deadline, an operation's deadline, a call's timeout); version 5 adds conversations: their
 * messages in and out (with the user's queued ones), and the local state of the interfaces a host shows; version
 * 6 adds capabilities: what the host declared, every `app.call` with its decision and result, and the grants a
 * user chose to remember; version 7 adds the DSL action ledger; version 8 keeps the files of verified bundles and
 * of MCP servers' views; version 9 indexed, uniquely, the inventory's counter and a call's MCP request in flight
 * (assertions of version 9's steps that read nothing, which version 11 replaced); version 10 keeps an envelope from
 * the agent as the JSON text it came in (`StoredMessageRecord`), which code of version 9 could not read, and the ids
 * of the envelopes recorded from the agent last (`received_recent`); version 11 fences the inventory counters that
 * were replaced (`inventory_fences`) and indexes, uniquely, the MCP request each final result ended
 * (`OutboxRecord.requestEnded`): what the steps that read nothing assert, with requests that succeed (see
 * `writeInventoryFence`); version 12 keeps the consent of Agent Tool calls: the grants a user remembered for a
 * conversation (`tool_grants`, bound to the tool's definition), and — in records of existing stores, needing no
 * upgrade step of their own — a call's open question (`ToolCallRecord.consent`, stage `awaiting_consent`) and each
 * app's consent settings (`AppRecord.consent`).
 */

import type {
  AgentToolDescriptor,
  AppCallPayload,
  AppResultPayload,
  ClientInventoryPayload,
  LineUpMessage,
  LineUpRiskLevel,
  McpServerManifest,
  MiniAppManifest,
  ToolCallPayload,
  ToolProgressPayload,
  ToolResultPayload,
} from '@lineup/shared/protocol';
import { type DBSchema, type IDBPDatabase, type IDBPTransaction, openDB, unwrap } from 'idb';
import type { ToolPolicyDecision } from '../consent/policy.js';
import { openWithLifecycle, type RuntimeDatabaseLifecycle } from './connection.js';

/** The schema version this code writes. */
export const RUNTIME_DATABASE_VERSION = 12;

/** The default database name; a host with several profiles passes one name per profile. */
export const RUNTIME_DATABASE_NAME = 'lineup-runtime';

/**
 * An installed app: a MiniApp (`kind` absent, as every record before MCP servers) or an MCP server
 * (`kind: 'mcp_server'`). Both publish their tools in the one inventory; only a MiniApp has a page and Surfaces.
 */
export type AppRecord = MiniAppRecord | McpServerRecord;

/** The user's consent settings of one app (the app center edits them; an update of the app keeps them). */
export interface AppConsentSettings {
  /** For an MCP server: the user trusts it, so a tool it says is read-only runs without a question. */
  readonly trusted?: boolean;
  /**
   * The user's choice per tool, by method, with the definition it was made for (`toolDefinitionHash`): an "allow"
   * counts only while the tool is defined the same way; "ask" and "deny" stand whatever the tool becomes.
   */
  readonly tools?: Readonly<Record<string, ToolPolicyChoice>>;
  /**
   * For an MCP server: its tools whose definition a refresh changed since the user last accepted it, by method —
   * not published to the agent until the user accepts the change (`AppRegistry.acceptToolChange`); each keeps the
   * definition the user had accepted, to show what changed.
   */
  readonly held?: Readonly<Record<string, HeldToolChange>>;
}

/** A changed tool held back from the inventory: what it was when the user last accepted it. */
export interface HeldToolChange {
  readonly previous: AgentToolDescriptor;
  /** What the server claimed of it then. */
  readonly previousClaims: { readonly readOnly: boolean; readonly destructive: boolean };
  /** Unix ms of the refresh that held it. */
  readonly at: number;
}

export interface ToolPolicyChoice {
  readonly decision: ToolPolicyDecision;
  readonly definitionHash: string;
  /** Unix ms. */
  readonly at: number;
}

/**
 * An installed MCP server (`@lineup/shared` docs/mcp.md): what was read from it at install or refresh — its tools
 * and the views they open, kept in `bundle_files` like a verified bundle's files — and whether it is enabled.
 */
export interface McpServerRecord {
  readonly kind: 'mcp_server';
  readonly id: string;
  readonly manifest: McpServerManifest;
  readonly enabled: boolean;
  /** Unix milliseconds. */
  readonly installedAt: number;
  readonly updatedAt: number;
  /** An MCP server has no page to confirm a first start: a refresh replaces the version at once. */
  readonly previous?: undefined;
  readonly consent?: AppConsentSettings;
}

/** An installed MiniApp: its validated manifest and where its bundle is served from. */
export interface MiniAppRecord {
  readonly kind?: undefined;
  readonly id: string;
  readonly manifest: MiniAppManifest;
  /** Base URL of the bundle's files (the manifest's `entry` is relative to it). */
  readonly bundleUrl: string;
  readonly enabled: boolean;
  /** Unix milliseconds. */
  readonly installedAt: number;
  readonly updatedAt: number;
  /**
   * While a new version has not yet started once: the version it replaced, whose files are kept beside it, to
   * roll back to (`AppRegistry.rollback`) until `AppRegistry.confirmStarted` lets it go.
   */
  readonly previous?: { readonly manifest: MiniAppManifest; readonly bundleUrl: string };
  readonly consent?: AppConsentSettings;
}

/** One verified file of an installed bundle, kept so it can be checked again before every mount. */
export interface BundleFileRecord {
  /** `appId + "\n" + version + "\n" + path`. */
  readonly key: string;
  readonly appId: string;
  readonly version: string;
  readonly path: string;
  /** `sha256-<base64>`, as the manifest lists it (verified when stored). */
  readonly integrity: string;
  readonly bytes: Uint8Array;
}

/** The one inventory record: a counter that only grows, and the inventory it last published. */
export interface InventoryRecord {
  readonly key: 'current';
  readonly counter: number;
  readonly inventory: ClientInventoryPayload;
}

/**
 * A row of `inventory_fences`: the fence of a counter that a newer inventory replaced (`retired\n<counter>`), or
 * the guard row a step that reads nothing writes (`guard`), which holds the counter it assumes. The `by_retired`
 * index is unique: the guard cannot hold a replaced counter.
 */
export interface InventoryFenceRecord {
  readonly key: string;
  readonly retired?: number;
}

export type AuditType =
  | 'app_installed'
  | 'app_updated'
  | 'app_enabled'
  | 'app_disabled'
  | 'tool_call_accepted'
  | 'tool_call_rejected'
  /** A call's one final result was persisted. */
  | 'tool_call_finished'
  | 'activation_started'
  | 'activation_ready'
  | 'activation_failed'
  | 'activation_cancelled'
  | 'operation_started'
  | 'operation_finished'
  /** A host lifecycle intent (seed 003 §3: its own entry point and audit type, never a tool call). */
  | 'host_intent'
  /** A MiniApp frame reported it started (`app_ready`) or cannot start (`app_failed`). */
  | 'app_ready'
  | 'app_failed'
  /** A MiniApp page wrote one key of its session data (seed 003 §5). */
  | 'session_data_written'
  /** A local UI action from a MiniApp page (seed 003 §3: never an agent tool call). */
  | 'ui_action'
  /** The host declared or revoked a capability (seed 000 §5.1–§5.2: each is a new inventory revision). */
  | 'capability_declared'
  | 'capability_revoked'
  /** An `app.call` (seed 000 §5.3): received, the user's decision, its one result. */
  | 'capability_call_received'
  | 'capability_call_decided'
  | 'capability_call_finished'
  /** A DSL 1.1 action was reserved in the ledger, or its status changed (seed 002 §11, seed 004 §4). */
  | 'action_reserved'
  | 'action_status'
  /** A bundle's files failed their check (at install or before a mount): nothing was kept or mounted. */
  | 'bundle_rejected'
  /** A new version started for the first time: the version it replaced, and its files, were let go. */
  | 'app_upgrade_confirmed'
  /** A new version failed its check or its first start: the previous version is back (detail: why). */
  | 'app_rolled_back'
  /** An app, its kept files and its session data were removed. */
  | 'app_uninstalled'
  /** An open instance of an app that was disabled or removed was closed (its calls ended `revoked`). */
  | 'instance_withdrawn'
  /**
   * The consent step of an Agent Tool call or a view's call (detail: who decided and how — `waiting`, `allowed user`,
   * `allowed grant`, `allowed host`, `denied user`, `denied host`, `dismissed`, `flood`, `no_consent_ui`, …).
   */
  | 'tool_consent'
  /** The user changed an app's consent settings: a tool's policy, trust in a server, a grant revoked. */
  | 'consent_settings';

/** One audit entry: what happened, to what, when; `id` is assigned by the store. */
export interface AuditRecord {
  readonly id?: number;
  readonly at: number;
  readonly type: AuditType;
  /** The app concerned (for a tool call, the app scope's app when known). */
  readonly appId: string;
  readonly version: string;
  /** For tool calls: the conversation and call id (the agent's identity comes with the transport). */
  readonly conversationId?: string;
  readonly callId?: string;
  /** For activations, operations and host intents: what it concerns, and a controlled detail. */
  readonly instanceId?: string;
  readonly operationId?: string;
  readonly detail?: string;
}

/**
 * A message for the agent side, written in the same transaction as its facts. While it waits it carries
 * `pending: 1`, which the `by_pending` index lists (IndexedDB cannot index a boolean, and a record without the
 * indexed field is left out of the index); once sent it carries `deliveredAt` instead.
 */
export type OutboxRecord = {
  readonly id?: number;
  readonly at: number;
  readonly pending?: typeof OUTBOX_PENDING;
  /** Unix milliseconds at which the transport accepted it. */
  readonly deliveredAt?: number;
  /** The conversation a tool answer goes to; inventories go to every conversation. */
  readonly conversationId?: string;
  /**
   * On the final result of a call handed to an MCP server: the id of the request it ended (the call's
   * `mcpInFlight`). The `by_request_ended` index is unique, so a request ends once: a second final result for it —
   * its answer, after a timeout or another tab's recovery ended the call — cannot be written.
   */
  readonly requestEnded?: string;
} & (
  | { readonly type: 'lineup.v1.client.inventory'; readonly payload: ClientInventoryPayload }
  | { readonly type: 'lineup.v1.tool.progress'; readonly payload: ToolProgressPayload }
  | { readonly type: 'lineup.v1.tool.result'; readonly payload: ToolResultPayload }
  | { readonly type: 'lineup.v1.app.result'; readonly payload: AppResultPayload }
);

/**
 * One Agent Tool call (seed 003 §4.2): keyed by conversation and `call_id`, with a digest of its content (so a
 * reused `call_id` with other content is told apart), and the latest answer the runtime persisted for it —
 * a protocol receipt, or the one final result.
 */
export interface ToolCallRecord {
  readonly key: string;
  readonly conversationId: string;
  readonly callId: string;
  readonly call: ToolCallPayload;
  /** `hashCanonicalJSON` of the call's tool, inventory revision and arguments. */
  readonly contentHash: string;
  readonly status: 'accepted' | 'rejected';
  readonly latest:
    | { readonly type: 'lineup.v1.tool.progress'; readonly payload: ToolProgressPayload }
    | { readonly type: 'lineup.v1.tool.result'; readonly payload: ToolResultPayload };
  readonly receivedAt: number;
  /**
   * Where an accepted call is: `received` (committed, not yet routed), `waiting` (queued on a starting
   * activation), `running` (its work started: an operation, a handler), `finished` (its final result persisted).
   * Refused calls are `finished` from the start.
   */
  readonly stage?: ToolCallStage;
  /** While not finished: when its `timeout_ms` runs out (Unix ms); the `by_due` index lists these. */
  readonly dueAt?: number;
  /** While an SDK handler runs it: the id of its `tool_invocation` in the app's frame. */
  readonly invocationId?: string;
  /** …and the instance whose page runs it. */
  readonly instanceId?: string;
  /**
   * For a tool of an MCP server: when the call was handed to the server (Unix ms). A call that is still running
   * after a reload may have taken effect there: it ends `outcome_unknown` and is never sent again.
   */
  readonly dispatchedAt?: number;
  /**
   * For a tool of an MCP server with a view: the server's whole `CallToolResult` (content, structured content),
   * bounded, which the view gets in `tool-result`. The agent gets the final result of the tool's output schema.
   */
  readonly mcpResult?: Readonly<Record<string, unknown>>;
  /**
   * For a call handed to an MCP server and not yet finished: the id of the request in flight. Every path that
   * finishes a call drops it, and writes it as the `requestEnded` of the final result's outbox row.
   */
  readonly mcpInFlight?: string;
  /** The consent step's facts: the question while the call waits for the user (`awaiting_consent`), then the answer. */
  readonly consent?: ToolCallConsent;
}

/**
 * Where `awaiting_consent` comes in: after the intake recorded and accepted the call, before it is routed — nothing
 * of the app, the server or a view has heard of it. A reload asks the question again; the call's timeout still
 * runs (`timeout`).
 */
export type ToolCallStage = 'received' | 'awaiting_consent' | 'waiting' | 'running' | 'finished';

/** The question a call waits on, and once the user allowed it, how. */
export interface ToolCallConsent {
  /** The definition the question is about (`toolDefinitionHash`): an answer counts for that definition only. */
  readonly definitionHash: string;
  readonly rememberable: boolean;
  readonly extraStep: boolean;
  /** Unix ms. */
  readonly askedAt: number;
  /** Set when the call may go on: the user allowed it, or a grant they remembered did. */
  readonly allowed?: 'user' | 'grant';
}

/**
 * One MiniApp instance of one conversation (seed 003 §5): its app sub-session, its current activation, and
 * whether the host shows it in the foreground. Keyed by conversation and app scope: a conversation has at most
 * one instance of an app, and the runtime resolves it from the conversation, never from an id the agent sends.
 */
export interface InstanceRecord {
  readonly key: string;
  readonly instanceId: string;
  readonly appSessionId: string;
  readonly conversationId: string;
  readonly appScope: string;
  readonly appId: string;
  /** `open` while the host may show it; `closed` once the runtime ended it. */
  readonly state: 'open' | 'closed';
  readonly foreground: boolean;
  readonly activationId?: string;
  readonly createdAt: number;
}

/** seed 003 §4.3: `starting → ready | failed | cancelled`. */
export type ActivationStatus = 'starting' | 'ready' | 'failed' | 'cancelled';

/** One activation: the start of an instance, and the calls waiting for it (in arrival order). */
export interface ActivationRecord {
  readonly activationId: string;
  readonly instanceKey: string;
  readonly status: ActivationStatus;
  /** What ready means here: the app is ready, or also in the foreground. */
  readonly requirement: 'app_ready' | 'foreground_required';
  /** The call that started it (conversation\ncall id). */
  readonly callKey: string;
  /** Keys of the calls queued on it, in persisted arrival order. */
  readonly waiting: readonly string[];
  readonly startedAt: number;
  /** While starting: when it fails if not ready by then (Unix ms); the `by_due` index lists these. */
  readonly dueAt?: number;
  readonly settledAt?: number;
  /** A controlled token: `foreground_not_confirmed`, `cancelled`, `user_left`. */
  readonly reason?: string;
}

/** An operation (seed 003 §5): a deadline it ends at, and exactly one terminal state. */
export interface OperationRecord {
  readonly operationId: string;
  readonly instanceKey: string;
  readonly callKey: string;
  readonly status: 'running' | 'completed' | 'interrupted';
  readonly minutes: number;
  readonly startedAt: number;
  /** The deadline (Unix ms): a fact, never a duration. */
  readonly deadlineAt: number;
  /** While running: the deadline again, listed by the `by_due` index. */
  readonly dueAt?: number;
  readonly endedAt?: number;
  readonly by?: 'agent' | 'user_left';
}

/** The session data of one app sub-session: MiniApp-defined JSON the runtime never interprets. */
export interface SessionDataRecord {
  readonly key: string;
  readonly revision: number;
  readonly data: Readonly<Record<string, unknown>>;
}

/** One conversation (seed 000 §3): what a host lists, and which inventory revision it was sent last. */
export interface ConversationRecord {
  readonly id: string;
  /** The first user message, shortened; absent until the user says something. */
  readonly title?: string;
  readonly createdAt: number;
  /** The last message in or out (Unix ms); the `by_updated` index lists conversations by it. */
  readonly updatedAt: number;
  readonly messageCount: number;
  /** seed 000 §5.1: the `client.inventory` revision last sent to this conversation, and when. */
  readonly inventoryRevision?: string;
  readonly inventorySentAt?: number;
}

/**
 * One envelope of a conversation, in or out, in the order recorded (`seq`). A user's message (chat, Surface
 * event) is recorded before it is sent and carries `pending: 1` (listed by `by_pending`) until the transport
 * took it; then `sentAt`.
 */
export interface ConversationMessageRecord {
  readonly seq: number;
  readonly conversationId: string;
  readonly direction: 'in' | 'out';
  /** The envelope id: `by_envelope` ([direction, id]) finds a repeat. */
  readonly id: string;
  readonly type: string;
  readonly message: LineUpMessage;
  readonly at: number;
  readonly pending?: typeof MESSAGE_PENDING;
  readonly sentAt?: number;
}

/**
 * A `ConversationMessageRecord` as the `messages` store holds it: an envelope the client received from the agent
 * may be kept as the JSON text it came in (`text`, from version 10) instead of as the message — writing a string
 * costs a copy of its characters, where writing a large document's object graph costs a structured clone of
 * every value, on the page's thread, before the message can be shown. Reading it back parses the text.
 */
export type StoredMessageRecord = Omit<ConversationMessageRecord, 'message'> &
  (
    | { readonly message: LineUpMessage; readonly text?: never }
    | { readonly text: string; readonly message?: never }
  );

/** The last local state of one interface a host shows in a conversation (its own key). */
export interface ViewStateRecord {
  /** `conversationId + "\n" + viewKey`. */
  readonly key: string;
  readonly conversationId: string;
  readonly viewKey: string;
  readonly state: unknown;
  readonly at: number;
}

/**
 * A capability the host declared (seed 000 §5.2): what the inventory and `app.list` publish, and what the user is
 * told before it runs. A revoked capability stays recorded (a call naming it is answered `unsupported`, `revoked`).
 */
export interface CapabilityRecord {
  readonly name: string;
  readonly version: string;
  readonly risk: LineUpRiskLevel;
  /** What running it does, in the host's words: shown in the confirmation. */
  readonly description: string;
  readonly input_schema: Readonly<Record<string, unknown>>;
  readonly output_schema: Readonly<Record<string, unknown>>;
  readonly revoked: boolean;
  readonly declaredAt: number;
}

/**
 * Where an `app.call` is: `awaiting_consent` (persisted, the user is asked), `running` (consent given, the handler
 * started), `finished` (its one result persisted and queued for the agent).
 */
export type CapabilityCallStage = 'awaiting_consent' | 'running' | 'finished';

/** One `app.call` (seed 000 §5.3), keyed by conversation and `call_id`. */
export interface CapabilityCallRecord {
  readonly key: string;
  readonly conversationId: string;
  readonly callId: string;
  readonly call: AppCallPayload;
  /** `hashCanonicalJSON` of the capability, reason, expiry and arguments: the same `call_id` with other content. */
  readonly contentHash: string;
  readonly stage: CapabilityCallStage;
  readonly receivedAt: number;
  /** `expires_at` in Unix ms. */
  readonly expiresAt: number;
  /** The user's decision, when one was asked or a remembered grant applied. */
  readonly decision?: 'allowed' | 'remembered' | 'not_needed' | 'denied' | 'dismissed';
  readonly result?: AppResultPayload;
}

/** A `user_confirmation` capability the user allowed for the rest of a conversation ("remember"). */
export interface GrantRecord {
  /** `conversationId + "\n" + capability`. */
  readonly key: string;
  readonly conversationId: string;
  readonly capability: string;
  /** The capability's contract version when granted: a new version asks again. */
  readonly version: string;
  readonly grantedAt: number;
}

/**
 * A `user_confirmation` Agent Tool the user allowed for the rest of a conversation ("remember"), bound to the exact
 * definition they saw: a changed tool (another description, schema, annotation, server) is asked about again.
 */
export interface ToolGrantRecord {
  /** `conversationId + "\n" + tool`. */
  readonly key: string;
  readonly conversationId: string;
  /** `<app_scope>.<method>`. */
  readonly tool: string;
  readonly appId: string;
  /** For a tool of an MCP server: the server's URL. */
  readonly serverUrl?: string;
  readonly definitionHash: string;
  readonly grantedAt: number;
}

/** seed 002 §11: `queued`, `awaiting_confirmation`, `running` (active); the rest final. */
export type ActionReceiptStatus =
  | 'queued'
  | 'awaiting_confirmation'
  | 'running'
  | 'succeeded'
  | 'failed'
  | 'cancelled'
  | 'unknown'
  | 'accepted';

/** One operation of the DSL action ledger: the request, what the runtime derived for it, and its status. */
export interface ActionLedgerRecord {
  readonly operationId: string;
  readonly conversationId: string;
  readonly requestId: string;
  readonly documentRef: {
    readonly sourceCallId: string;
    readonly uiId: string;
    readonly generation: number;
    readonly revision: number;
  };
  /** conversation, sourceCallId, uiId, generation, revision joined by newlines: `by_document` lists a UI's rows. */
  readonly documentKey: string;
  readonly actionId: string;
  /** seed 002 §11: the SHA-256 of the request's documentRef, actionId and values. */
  readonly parameterHash: string;
  readonly kind: 'tool' | 'agent';
  /** The document's title (as the agent wrote it: show as text), for the consent question. */
  readonly title?: string;
  /** For a tool action: the capability and the arguments re-derived from the stored document. */
  readonly capabilityId?: string;
  readonly arguments?: Readonly<Record<string, string | number | boolean | null>>;
  /** For an agent action: the prompt re-derived from the stored document. */
  readonly prompt?: string;
  readonly status: ActionReceiptStatus;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly message?: string;
  readonly result?: Readonly<Record<string, string | number | boolean | null>>;
  /** An agent action: when its message went into the conversation's journal (it reaches the agent from there). */
  readonly sentAt?: number;
}

/** The value of `ConversationMessageRecord.pending` while a queued message waits for the transport. */
export const MESSAGE_PENDING = 1;

/** The value of `OutboxRecord.pending` while a row waits to be sent. */
export const OUTBOX_PENDING = 1;

export interface RuntimeDatabaseSchema extends DBSchema {
  apps: { key: string; value: AppRecord };
  inventory: { key: 'current'; value: InventoryRecord };
  inventory_fences: { key: string; value: InventoryFenceRecord; indexes: { by_retired: number } };
  audit: { key: number; value: AuditRecord; indexes: { by_app: string } };
  outbox: { key: number; value: OutboxRecord; indexes: { by_pending: number; by_request_ended: string } };
  tool_calls: { key: string; value: ToolCallRecord; indexes: { by_due: number } };
  instances: { key: string; value: InstanceRecord };
  activations: { key: string; value: ActivationRecord; indexes: { by_due: number } };
  operations: { key: string; value: OperationRecord; indexes: { by_due: number } };
  session_data: { key: string; value: SessionDataRecord };
  conversations: { key: string; value: ConversationRecord; indexes: { by_updated: number } };
  messages: {
    key: number;
    value: StoredMessageRecord;
    indexes: {
      by_conversation: [string, number];
      by_envelope: [string, string];
      by_pending: number;
    };
  };
  view_states: { key: string; value: ViewStateRecord };
  /**
   * The envelope id of each message recorded from the agent among the last `RECENT_RECEIVED_KEPT` records,
   * keyed by the negated `seq` of its record (the newest first): what an agent may send again after a reload, read
   * in one request by `ConversationStore.recentlyReceived`.
   */
  received_recent: { key: number; value: string };
  capabilities: { key: string; value: CapabilityRecord };
  capability_calls: { key: string; value: CapabilityCallRecord; indexes: { by_stage: CapabilityCallStage } };
  grants: { key: string; value: GrantRecord };
  tool_grants: { key: string; value: ToolGrantRecord; indexes: { by_conversation: string } };
  bundle_files: { key: string; value: BundleFileRecord; indexes: { by_app: string } };
  action_ledger: {
    key: string;
    value: ActionLedgerRecord;
    indexes: { by_request: [string, string]; by_document: string; by_status: ActionReceiptStatus };
  };
}

export type RuntimeDatabase = IDBPDatabase<RuntimeDatabaseSchema>;

/** The stores a registry change writes together. */
export const REGISTRY_STORES = [
  'apps',
  'capabilities',
  'inventory',
  'inventory_fences',
  'audit',
  'outbox',
  'bundle_files',
  'session_data',
  'instances',
  'tool_grants',
] as const;
export type RegistryTransaction = IDBPTransaction<RuntimeDatabaseSchema, typeof REGISTRY_STORES, 'readwrite'>;

/** The stores receiving a tool call writes together. */
export const TOOL_CALL_STORES = ['tool_calls', 'audit', 'outbox'] as const;

/**
 * The stores a step of executing calls writes together: facts and their outbox rows in one transaction. It
 * reads the apps and the inventory in the same transaction (the tools it routes to, the revision a call is
 * checked against), so a step never sees a registry change halfway.
 */
export const EXECUTION_STORES = [
  'apps',
  'inventory',
  'tool_calls',
  'instances',
  'activations',
  'operations',
  'session_data',
  'audit',
  'outbox',
] as const;
export type ExecutionTransaction = IDBPTransaction<
  RuntimeDatabaseSchema,
  typeof EXECUTION_STORES,
  'readwrite'
>;

/**
 * The steps of the consent step that read or write remembered allowances (the answer, the check of an allowance):
 * the execution stores and `tool_grants`. Only those steps take it, so a call its policy runs keeps the receiving
 * step's transaction as it was.
 */
export const CONSENT_STORES = [...EXECUTION_STORES, 'tool_grants'] as const;
export type ConsentTransaction = IDBPTransaction<RuntimeDatabaseSchema, typeof CONSENT_STORES, 'readwrite'>;

/** The stores a step of a capability call writes together. */
export const CAPABILITY_CALL_STORES = [
  'capabilities',
  'capability_calls',
  'grants',
  'audit',
  'outbox',
] as const;

/** The stores recording one conversation message writes together. */
export const CONVERSATION_STORES = ['messages', 'conversations', 'received_recent'] as const;

/**
 * `received_recent` keeps the ids of the envelopes from the agent among the last this many records of the
 * `messages` store (by `seq`: at most this many rows).
 */
export const RECENT_RECEIVED_KEPT = 1_024;

/**
 * The upgrade to version 10 takes the ids of `received_recent` from this many of the newest records: what an agent
 * may send again is what it has no acknowledgement for, at most a batch of the client's (256 messages). A message
 * older than that and sent again right after the upgrade is caught by the journal's transaction (recorded once).
 */
export const RECENT_RECEIVED_ON_UPGRADE = 256;

/**
 * Transactions that write a call record or a final result are `strict`: they complete only once the data is
 * on disk, so an `accepted` sent after the commit is never lost in a crash (the default lets the browser
 * report completion earlier).
 */
export const STRICT: IDBTransactionOptions = { durability: 'strict' };

/**
 * Issues writes in a transaction without waiting for each one's answer. The requests of one transaction apply in
 * the order they were issued (a later read in it sees them), and one that fails aborts the transaction, so its
 * commit — `transaction.done`, which then rejects — is what confirms them. Each write not awaited saves a round trip
 * to the browser's database process before the next step of the work can go on.
 */
export function issue(...requests: readonly Promise<unknown>[]): void {
  for (const request of requests) request.catch(() => {});
}

/** The key of the guard row of `inventory_fences`. */
const INVENTORY_GUARD_KEY = 'guard';

/** A transaction that writes `inventory_fences`. */
interface FenceTransaction {
  objectStore(name: 'inventory_fences'): {
    put(value: InventoryFenceRecord): Promise<unknown>;
    delete(key: string): Promise<unknown>;
  };
}

/**
 * The inventory counter `counter` is replaced (the registry publishes a newer one): its fence is written, so that
 * no step that assumes it can commit from now on (`guardInventory`). The guard row, which may hold `counter` from a
 * step committed earlier, is dropped first. Issued, not awaited, in the publishing transaction.
 */
export function writeInventoryFence(transaction: FenceTransaction, counter: number): void {
  const store = transaction.objectStore('inventory_fences');
  issue(store.delete(INVENTORY_GUARD_KEY), store.put({ key: `retired\n${counter}`, retired: counter }));
}

/**
 * Asserts, without a read, that the inventory counter is still `counter` — the registry as a step that reads nothing
 * last saw it: the guard row takes `counter` under the unique `by_retired` index, which refuses it once that counter
 * has a fence (`writeInventoryFence`). A request that succeeds when the assertion holds, so the step can commit at
 * once (`commitNow`); when it does not, the request fails and the transaction aborts, keeping nothing.
 */
export function guardInventory(transaction: FenceTransaction, counter: number): void {
  issue(transaction.objectStore('inventory_fences').put({ key: INVENTORY_GUARD_KEY, retired: counter }));
}

/**
 * Asks a transaction to commit once its requests are done (`IDBTransaction.commit()`), without waiting for their
 * answers to come back to the page first: one round trip to the browser's database process instead of two. For a
 * step whose requests all succeed when it may commit — any request that fails then aborts the transaction (its
 * `done` rejects, nothing is kept), as it should. Where the browser has no `commit()`, the transaction commits by
 * itself once its requests are answered.
 */
export function commitNow(transaction: { readonly mode: IDBTransactionMode }): void {
  const raw = unwrap(transaction as never) as unknown as IDBTransaction;
  if (typeof raw.commit !== 'function') return;
  try {
    raw.commit();
  } catch {
    // Not active: it aborted already (a failed request), and its `done` says so.
  }
}

/** Aborts a transaction that may have ended already (a failed write aborts it): the caller's error is the one told. */
export function abortQuietly(transaction: { abort(): void }): void {
  try {
    transaction.abort();
  } catch {
    // It had ended.
  }
}

/**
 * Opens (creating or upgrading) the runtime database. The connection closes itself when another page needs a
 * newer version (tell the user through `lifecycle.onVersionChange`); opening waits at most
 * `lifecycle.blockedTimeoutMs` for older pages to let go (`onBlocked` says it waits), then rejects with
 * `RuntimeStorageError` `storage_blocked` (connection.ts).
 */
export function openRuntimeDatabase(
  name: string = RUNTIME_DATABASE_NAME,
  lifecycle: RuntimeDatabaseLifecycle = {},
): Promise<RuntimeDatabase> {
  return openWithLifecycle(RUNTIME_DATABASE_VERSION, lifecycle, (callbacks) =>
    openDB<RuntimeDatabaseSchema>(name, RUNTIME_DATABASE_VERSION, {
      ...callbacks,
      async upgrade(database, oldVersion, _newVersion, transaction) {
        if (oldVersion < 1) {
          database.createObjectStore('apps', { keyPath: 'id' });
          database.createObjectStore('inventory', { keyPath: 'key' });
          database
            .createObjectStore('audit', { keyPath: 'id', autoIncrement: true })
            .createIndex('by_app', 'appId');
          database.createObjectStore('outbox', { keyPath: 'id', autoIncrement: true });
        }
        if (oldVersion < 2) {
          database.createObjectStore('tool_calls', { keyPath: 'key' });
        }
        if (oldVersion < 3) {
          // Rows of versions 1–2 said `delivered: boolean`; they now say `pending` or `deliveredAt`.
          const outbox = transaction.objectStore('outbox');
          outbox.createIndex('by_pending', 'pending');
          let cursor = await outbox.openCursor();
          while (cursor) {
            const { delivered, ...row } = cursor.value as OutboxRecord & { delivered?: boolean };
            await cursor.update(
              delivered === false ? { ...row, pending: OUTBOX_PENDING } : { ...row, deliveredAt: row.at },
            );
            cursor = await cursor.continue();
          }
        }
        if (oldVersion < 4) {
          transaction.objectStore('tool_calls').createIndex('by_due', 'dueAt');
          database.createObjectStore('instances', { keyPath: 'key' });
          database
            .createObjectStore('activations', { keyPath: 'activationId' })
            .createIndex('by_due', 'dueAt');
          database.createObjectStore('operations', { keyPath: 'operationId' }).createIndex('by_due', 'dueAt');
          database.createObjectStore('session_data', { keyPath: 'key' });
        }
        if (oldVersion < 5) {
          database
            .createObjectStore('conversations', { keyPath: 'id' })
            .createIndex('by_updated', 'updatedAt');
          const messages = database.createObjectStore('messages', { keyPath: 'seq', autoIncrement: true });
          messages.createIndex('by_conversation', ['conversationId', 'seq']);
          messages.createIndex('by_envelope', ['direction', 'id']);
          messages.createIndex('by_pending', 'pending');
          database.createObjectStore('view_states', { keyPath: 'key' });
        }
        if (oldVersion < 6) {
          database.createObjectStore('capabilities', { keyPath: 'name' });
          database.createObjectStore('capability_calls', { keyPath: 'key' }).createIndex('by_stage', 'stage');
          database.createObjectStore('grants', { keyPath: 'key' });
        }
        if (oldVersion < 7) {
          const ledger = database.createObjectStore('action_ledger', { keyPath: 'operationId' });
          ledger.createIndex('by_request', ['conversationId', 'requestId'], { unique: true });
          ledger.createIndex('by_document', 'documentKey');
          ledger.createIndex('by_status', 'status');
        }
        if (oldVersion < 8) {
          database.createObjectStore('bundle_files', { keyPath: 'key' }).createIndex('by_app', 'appId');
        }
        if (oldVersion < 9) {
          // Version 9's assertions (dropped again by version 11). The database's own schema, not the typed one.
          const raw = unwrap(transaction as never) as unknown as IDBTransaction;
          raw.objectStore('inventory').createIndex('by_counter', 'counter', { unique: true });
          raw.objectStore('tool_calls').createIndex('by_in_flight', 'mcpInFlight', { unique: true });
        }
        if (oldVersion < 10) {
          // Records of either form are read (`StoredMessageRecord`): nothing to rewrite. The number moves so that
          // code of version 9, which reads `message` only, refuses this database instead of failing on a record
          // kept as text. The ids of the last envelopes received are taken from the newest records already there
          // (`RECENT_RECEIVED_ON_UPGRADE`: each is read whole, and the page waits for its upgrade).
          const recent = database.createObjectStore('received_recent');
          if (database.objectStoreNames.contains('messages')) {
            let cursor = await transaction.objectStore('messages').openCursor(null, 'prev');
            let newest: number | undefined;
            while (cursor) {
              const record = cursor.value;
              newest ??= record.seq;
              if (record.seq <= newest - RECENT_RECEIVED_ON_UPGRADE) break;
              if (record.direction === 'in') await recent.put(record.id, -record.seq);
              cursor = await cursor.continue();
            }
          }
        }
        if (oldVersion < 11) {
          // The steps that read nothing assert with requests that succeed (see `writeInventoryFence`). No counter
          // needs a fence yet: every registry a runtime assumes is read after this upgrade, which closed every
          // connection of the version before.
          database
            .createObjectStore('inventory_fences', { keyPath: 'key' })
            .createIndex('by_retired', 'retired', {
              unique: true,
            });
          const raw = unwrap(transaction as never) as unknown as IDBTransaction;
          const stores = raw.objectStoreNames;
          if (stores.contains('outbox'))
            raw.objectStore('outbox').createIndex('by_request_ended', 'requestEnded', { unique: true });
          for (const [store, index] of [
            ['inventory', 'by_counter'],
            ['tool_calls', 'by_in_flight'],
          ] as const)
            if (stores.contains(store) && raw.objectStore(store).indexNames.contains(index))
              raw.objectStore(store).deleteIndex(index);
        }
        if (oldVersion < 12) {
          database
            .createObjectStore('tool_grants', { keyPath: 'key' })
            .createIndex('by_conversation', 'conversationId');
        }
      },
    }),
  );
}
