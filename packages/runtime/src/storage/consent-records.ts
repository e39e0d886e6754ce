/**
 * What the runtime database keeps of consent: each app's consent settings (the user's choice per tool, trust in
 * an MCP server, the tool changes held back), the question an Agent Tool call waits on, and the grants a user
 * remembered for a conversation (`tool_grants`, from version 12).
 */
import type { AgentToolDescriptor } from '@lineup/shared/protocol';
import type { ToolPolicyDecision } from '../consent/policy.js';

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
  /**
   * For an MCP server: the origins each view may connect to, by view id — those of its declared `connectDomains`
   * the user granted (`AppRegistry.setViewNetwork`), as policy sources. None by default. A refresh that declares
   * more grants nothing more: a view gets the granted origins it still declares.
   */
  readonly network?: Readonly<Record<string, readonly string[]>>;
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
