/** What an `AppCenter` is given (app-center.ts): the runtime's parts, the host's, and how it reaches MCP servers. */
import type { AppRegistry, RuntimeDatabase } from '@lineup/runtime';
import type { McpConnector } from '@lineup/runtime/mcp';
import type { CatalogueEntry } from './catalogue.ts';
import type { ServerCredentials } from './server-credentials.ts';
import type { StartupProblem } from './snapshot.ts';

/** The part of the host the center needs: tell it the apps changed, hear when they did. */
export interface AppsHost {
  appsChanged(): Promise<void>;
  onAppsChanged(listener: () => void): () => void;
  /** Hear when a call started or stopped waiting for consent (an answer may have remembered an allowance). */
  onConsentChanged?(listener: () => void): () => void;
}

/** How the center reads MCP servers (`@lineup/runtime/mcp`): the connector, and the host's view check and bound. */
export interface McpInstallOptions {
  readonly connect: McpConnector;
  /** Throws, with a sentence, for a view the host's frames cannot run (`mcpViewBundle`). */
  readonly checkView: (html: string, uri: string) => void;
  /** The bound of one kept view in bytes (default `MCP_SERVER_LIMITS.defaultMaxViewBytes`). */
  readonly maxViewBytes?: number;
  /** Where servers' access tokens are kept (the connector reads them from there); without it none can be given. */
  readonly credentials?: Pick<ServerCredentials, 'token' | 'set' | 'remove'> &
    Partial<Pick<ServerCredentials, 'kind' | 'signInTo' | 'refusedAt' | 'onChange'>>;
}

export interface AppCenterOptions {
  readonly db: RuntimeDatabase;
  readonly registry: AppRegistry;
  readonly host: AppsHost;
  readonly catalogue: readonly CatalogueEntry[];
  /** The page's base URL: catalogue URLs are relative to it, and URL installs must share its origin. */
  readonly baseUri: string;
  readonly startupProblems?: readonly StartupProblem[];
  /** Without it, MCP servers cannot be added (`mcp_unavailable`). */
  readonly mcp?: McpInstallOptions;
}
