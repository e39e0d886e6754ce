/**
 * The seam between the LineUp client and an agent: one `AgentTransport` carries JSON text frames — one
 * `lineup.v1` envelope per frame — both ways, for any number of conversations. The client never depends on
 * how the frames travel: in process (the demo agent, tests), or a WebSocket.
 */

/** What a transport tells the client. */
export interface TransportListener {
  /** The transport can send: the client starts the session (inventory first, then what is pending). */
  opened(): void;
  /** One frame from the agent. */
  received(text: string): void;
  /** The transport stopped; `error` when it failed rather than being closed. It may open again later. */
  closed(error?: unknown): void;
}

export interface AgentTransport {
  /** Starts the transport; `listener` hears it from now on. */
  connect(listener: TransportListener): void;
  /**
   * Sends one frame. Throws when the transport is not open; resolves once the frame was handed over (what
   * that proves depends on the transport and is documented with it).
   */
  send(text: string): void | Promise<void>;
  /** Stops the transport for good. */
  close(): void;
}

/** The agent's end of an in-process transport. */
export interface InProcessAgentEnd {
  /** Sends a frame (or a value, serialized as JSON) to the client; it arrives on a later task. */
  send(frame: string | object): void;
  /** Called with every frame the client sends. */
  onFrame(listener: (text: string) => void): () => void;
  /** Drops the connection, as a network failure would; the client's transport reports it closed. */
  drop(): void;
  /** Opens it again after a `drop`. */
  restore(): void;
}

/**
 * A transport pair in one page: the client's `transport` and the `agent` end. Frames travel as text on later
 * tasks (as over a socket), so neither side can depend on the other's call stack.
 */
export function createInProcessTransport(): {
  readonly transport: AgentTransport;
  readonly agent: InProcessAgentEnd;
} {
  let listener: TransportListener | null = null;
  let open = false;
  let closedForGood = false;
  const agentListeners = new Set<(text: string) => void>();
  const later = (task: () => void) => void setTimeout(task, 0);

  const transport: AgentTransport = {
    connect(next) {
      listener = next;
      if (closedForGood) return;
      open = true;
      later(() => {
        if (open) listener?.opened();
      });
    },
    send(text) {
      if (!open) throw new Error('The in-process transport is not open.');
      later(() => {
        for (const receive of [...agentListeners]) receive(text);
      });
    },
    close() {
      closedForGood = true;
      if (!open) return;
      open = false;
      later(() => listener?.closed());
    },
  };
  const agent: InProcessAgentEnd = {
    send(frame) {
      const text = typeof frame === 'string' ? frame : JSON.stringify(frame);
      later(() => {
        if (open) listener?.received(text);
      });
    },
    onFrame(receive) {
      agentListeners.add(receive);
      return () => agentListeners.delete(receive);
    },
    drop() {
      if (!open) return;
      open = false;
      later(() => listener?.closed(new Error('The connection dropped.')));
    },
    restore() {
      if (open || closedForGood || listener === null) return;
      open = true;
      later(() => {
        if (open) listener?.opened();
      });
    },
  };
  return { transport, agent };
}
