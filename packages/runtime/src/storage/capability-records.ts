/**
 * What the runtime database keeps of capabilities (seed 000 §5): what the host declared, every `app.call` with its
 * decision and result, and the grants a user chose to remember.
 */
import type { AppCallPayload, AppResultPayload, LineUpRiskLevel } from '@lineup/shared/protocol';

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
