/**
 * The seam between the LineUp client and an agent: one `AgentTransport` carries JSON text frames — one
 * `lineup.v1` envelope per frame — both ways, for any number of conversations. The client never depends on
 * how the frames travel: in process (the demo agent, tests), or a WebSocket.
 */
import type { LineUpConnectionRefusal } from '@lineup/shared/protocol';

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
  /**
   * Tells the agent that an envelope it sent was taken — recorded and handled, or answered — so it need not send
   * it again (the WebSocket binding's `{"ack":"<id>"}` frame in `lineup.v1.ack`). A transport whose peer does not
   * take acknowledgements leaves it out, or does nothing.
   */
  acknowledge?(envelopeId: string): void;
  /**
   * Refuses the current connection for `refusal` (`LINEUP_CONNECTION_REFUSALS`): a frame no envelope can answer,
   * or more frames than the client holds. A WebSocket closes with the refusal's code and reason and dials again
   * after its backoff; frames that arrive meanwhile are not read.
   */
  refuse?(refusal: LineUpConnectionRefusal): void;
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
  /** Every connection refusal of the client (`transport.refuse`), in order; each also drops and restores. */
  readonly refusals: readonly LineUpConnectionRefusal[];
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
  const refusals: LineUpConnectionRefusal[] = [];
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
    refuse(refusal) {
      refusals.push(refusal);
      // As a socket closed by the client and dialled again: frames sent meanwhile are lost.
      agent.drop();
      later(() => agent.restore());
    },
  };
  const agent: InProcessAgentEnd = {
    refusals,
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
