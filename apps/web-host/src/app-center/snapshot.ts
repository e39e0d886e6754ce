/**
 * What the app center shows (`AppCenter.snapshot`): the installed apps, the catalogue entries not installed, the
 * inventory, and each action's state — running, done with its result, or failed with its problem.
 */
import type { McpServerChange } from '@lineup/runtime/mcp';
import type { ClientInventoryPayload } from '@lineup/shared/protocol';
import type { CatalogueEntry } from './catalogue.ts';
import type { GrantQuestion } from './grant-question.ts';
import type { InstalledApp } from './installed-apps.ts';
import type { AppCenterProblem } from './problems.ts';

/** What a finished action did. */
export type AppCenterResult =
  | { readonly kind: 'installed'; readonly name: string; readonly version: string }
  | {
      readonly kind: 'updated';
      readonly name: string;
      readonly from: string;
      readonly to: string;
      /** An MCP server's refresh: what changed (a MiniApp's update keeps the old version until it starts). */
      readonly change?: McpServerChange;
    }
  /** The same version with other files (a dev bundle rebuilt): it replaced the installed one in place. */
  | { readonly kind: 'replaced'; readonly name: string; readonly version: string }
  /** The bundle is the one installed: nothing was written. */
  | { readonly kind: 'unchanged'; readonly name: string; readonly version: string }
  | { readonly kind: 'enabled' | 'disabled' | 'uninstalled'; readonly name: string }
  /** An MCP server's access token was forgotten: its next request goes without one. */
  | { readonly kind: 'token_forgotten'; readonly name: string }
  /** Signed in to an MCP server added already (its tokens renewed), or signed out of one. */
  | { readonly kind: 'signed_in' | 'signed_out'; readonly name: string };

export type AppAction =
  | 'install'
  | 'enable'
  | 'disable'
  | 'update'
  | 'uninstall'
  | 'forget_token'
  | 'sign_in';

export type ActionState =
  | { readonly status: 'idle' }
  | { readonly status: 'running'; readonly action: AppAction }
  | { readonly status: 'done'; readonly action: AppAction; readonly result: AppCenterResult }
  | { readonly status: 'failed'; readonly action: AppAction; readonly problem: AppCenterProblem };

/** A bundled app the start-up could not install, with why. */
export interface StartupProblem {
  readonly bundleUrl: string;
  readonly problem: AppCenterProblem;
}

export interface AppCenterSnapshot {
  /** Installed apps, by name. */
  readonly apps: readonly InstalledApp[];
  /** Catalogue entries not installed. */
  readonly available: readonly CatalogueEntry[];
  readonly inventory: ClientInventoryPayload | undefined;
  readonly startupProblems: readonly StartupProblem[];
  /** Why the last read of the apps failed, if it did (what is shown is then the read before). */
  readonly readProblem: AppCenterProblem | undefined;
  /** Per app or catalogue entry (by app id): its last or running action. */
  readonly actions: ReadonlyMap<string, ActionState>;
  /** The install form's two ways, and adding an MCP server. */
  readonly url: ActionState;
  readonly folder: ActionState;
  readonly mcp: ActionState;
  /** The dev bundle the page follows (`?dev=`, see dev-link.ts), and its last install. */
  readonly devUrl: string | null;
  readonly dev: ActionState;
  /** What the last install asks the user to grant, until answered (`AppCenter.answerGrantQuestion`). */
  readonly grantQuestion: GrantQuestion | undefined;
}
