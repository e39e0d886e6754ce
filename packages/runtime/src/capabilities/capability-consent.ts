/**
 * The consent a capability's risk needs (seed 000 §5.3), the same for an `app.call`, an interface action and a
 * view's request: none for `display_only`; for `user_confirmation` a grant the user remembered for the
 * conversation, or the user's answer (who may tick "remember"); `system_permission` and `restricted` always ask
 * and are never remembered (`restricted` with an extra confirmation step). The question closes by itself when the
 * call expires, and past the expiry no answer counts.
 */
import type { LineUpRiskLevel } from '@lineup/shared/protocol';
import type { CapabilityRecord, RuntimeDatabase } from '../storage/database.js';

/**
 * Who asks: the agent with an `app.call`, or a DSL 1.1 `invoke` button the user clicked in an interface the agent
 * sent (an action of the ledger, seed 002 §11).
 */
export type ConsentOrigin =
  | { readonly kind: 'agent' }
  | {
      readonly kind: 'interface';
      readonly operationId: string;
      /** The interface's title and the action id, as the agent's document declared them: show as text. */
      readonly title: string;
      readonly actionId: string;
    }
  /** The view of an installed MCP server (its `ui/open-link`, say): the server's name, as text. */
  | { readonly kind: 'view'; readonly operationId: string; readonly server: string };

/** What the user is asked (the host shows it; the reason as text, never as markup). */
export interface ConsentRequest {
  readonly conversationId: string;
  /** The `call_id` of an `app.call`, or the `operationId` of an interface action. */
  readonly callId: string;
  readonly origin: ConsentOrigin;
  readonly capability: Pick<CapabilityRecord, 'name' | 'version' | 'risk' | 'description'>;
  readonly reason: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  /** Unix ms: past it the answer no longer counts (the call is `expired`). An interface action never expires. */
  readonly expiresAt: number;
  /** Whether "remember for this conversation" may be offered (`user_confirmation` only). */
  readonly rememberable: boolean;
  /** `restricted`: the host asks a second, explicit confirmation before allowing. */
  readonly extraStep: boolean;
  /** Aborted when the call expires while the question is open: close the dialog. */
  readonly signal: AbortSignal;
}

export type ConsentDecision =
  | { readonly decision: 'allow'; readonly remember?: boolean }
  | { readonly decision: 'deny' }
  /** The dialog was closed without an answer (Escape, navigation). */
  | { readonly decision: 'dismiss' };

/** How a consent question ended (or why none was asked). */
export type ConsentOutcome =
  | 'not_needed'
  | 'remembered'
  | 'allowed'
  | 'denied'
  | 'dismissed'
  | 'expired'
  | 'no_consent_ui';

/** What a consent question is about. */
export interface ConsentSubject {
  readonly conversationId: string;
  readonly callId: string;
  readonly origin: ConsentOrigin;
  readonly reason: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly expiresAt: number;
}

/** The key of a grant the user remembered: `conversationId + "\n" + capability`. */
export const capabilityGrantKey = (conversationId: string, capability: string) =>
  `${conversationId}\n${capability}`;

/** What asking needs of the runtime that asks. */
export interface CapabilityConsentContext {
  readonly db: RuntimeDatabase;
  /** Read when a question is to be asked: without `confirm`, the outcome is `no_consent_ui`. */
  readonly options: { readonly confirm?: (request: ConsentRequest) => Promise<ConsentDecision> };
  readonly now: () => number;
  /** Aborted when the runtime is disposed: an open question is dismissed. */
  readonly disposed: AbortSignal;
}

/** The consent the risk needs, from a remembered grant or the user. */
export async function askCapabilityConsent(
  context: CapabilityConsentContext,
  record: ConsentSubject,
  capability: CapabilityRecord,
): Promise<ConsentOutcome> {
  const risk: LineUpRiskLevel = capability.risk;
  if (risk === 'display_only') return 'not_needed';
  const grantKey = capabilityGrantKey(record.conversationId, capability.name);
  if (risk === 'user_confirmation') {
    const grant = await context.db.get('grants', grantKey);
    if (grant !== undefined && grant.version === capability.version) return 'remembered';
  }
  const confirm = context.options.confirm;
  if (confirm === undefined) return 'no_consent_ui';
  // The question closes by itself when the call expires.
  const expiry = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    const remaining = record.expiresAt - context.now();
    if (remaining <= 0) expiry.abort();
    // setTimeout holds at most 2^31 - 1 ms; a later expiry is waited for in steps.
    else timer = setTimeout(arm, Math.min(remaining, 2_147_483_647));
  };
  arm();
  const onDispose = () => expiry.abort();
  context.disposed.addEventListener('abort', onDispose, { once: true });
  let answer: ConsentDecision;
  try {
    answer = await Promise.race([
      confirm({
        conversationId: record.conversationId,
        callId: record.callId,
        origin: record.origin,
        capability: {
          name: capability.name,
          version: capability.version,
          risk,
          description: capability.description,
        },
        reason: record.reason,
        arguments: record.arguments,
        expiresAt: record.expiresAt,
        rememberable: risk === 'user_confirmation',
        extraStep: risk === 'restricted',
        signal: expiry.signal,
      }),
      new Promise<ConsentDecision>((resolve) =>
        expiry.signal.addEventListener('abort', () => resolve({ decision: 'dismiss' }), { once: true }),
      ),
    ]);
  } catch {
    answer = { decision: 'dismiss' };
  } finally {
    clearTimeout(timer);
    context.disposed.removeEventListener('abort', onDispose);
  }
  // Past the expiry no answer counts: the question was closed, or answered too late.
  if (!(record.expiresAt > context.now())) return 'expired';
  if (answer.decision === 'deny') return 'denied';
  if (answer.decision !== 'allow') return 'dismissed';
  if (answer.remember === true && risk === 'user_confirmation')
    await context.db.put('grants', {
      key: grantKey,
      conversationId: record.conversationId,
      capability: capability.name,
      version: capability.version,
      grantedAt: context.now(),
    });
  return 'allowed';
}
