/** The agent connection's state, which the client's parts read and the host is told of when it changes. */
import type { AgentClientHandlers, AgentConnectionStatus } from './agent-client-options.js';

export class ConnectionStatus {
  readonly #handlers: AgentClientHandlers;
  #status: AgentConnectionStatus = 'idle';

  constructor(handlers: AgentClientHandlers) {
    this.#handlers = handlers;
  }

  get current(): AgentConnectionStatus {
    return this.#status;
  }

  /** Sets the state; a change is the host's `statusChanged`. */
  set(status: AgentConnectionStatus): void {
    if (this.#status === status) return;
    this.#status = status;
    this.#handlers.statusChanged?.(status);
  }
}
