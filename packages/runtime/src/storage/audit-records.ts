/** The runtime database's audit log (`audit`): what happened, to what, when. */

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
