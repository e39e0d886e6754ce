/** The conversation head's status line: the agent connection's state, announced politely when it changes. */
import { useSyncExternalStore } from 'react';
import { shownAgentUrl } from '../agent/agent-link.ts';
import type { AgentConnection } from '../agent/connection.ts';
import type { HostText } from '../i18n/host-text.ts';

export function ConnectionStatus({
  connection,
  text,
}: {
  readonly connection: AgentConnection | null;
  readonly text: HostText;
}) {
  const status = useSyncExternalStore(
    (listener) => connection?.onStatus(listener) ?? (() => {}),
    () => connection?.status ?? 'idle',
    () => 'idle' as const,
  );
  return (
    <span className={`host__connection host__connection--${status}`} role="status">
      {text.status[status]}
      {status === 'open' &&
        ` (${connection?.remoteUrl == null ? text.demoAgent : shownAgentUrl(connection.remoteUrl)})`}
    </span>
  );
}
