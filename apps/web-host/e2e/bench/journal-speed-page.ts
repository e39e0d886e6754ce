/**
 * The page side of the flood benchmark's "client and journal alone" run (flood.bench.ts), bundled from the
 * runtime's sources: `@lineup/runtime`'s `AgentClient` over its WebSocket transport, recording every envelope in a
 * `ConversationStore` of its own database, exactly as the host wires it — and no view at all. How fast it takes
 * in a burst is the most the host could show.
 */
import {
  AgentClient,
  ConversationStore,
  createWebSocketTransport,
  openRuntimeDatabase,
} from '@lineup/runtime';

export interface JournalTiming {
  /** From `run` to the first and to the last envelope handed to the view's `received` (ms). */
  readonly firstMs: number;
  readonly lastMs: number;
  readonly received: number;
}

declare global {
  interface Window {
    lineupJournalBench: {
      /** Connects to the agent; resolves once the session started (the agent has the inventory). */
      connect(url: string, conversationId: string): Promise<void>;
      /**
       * Starts counting: `done` resolves once `count` envelopes have been received and recorded from now. With
       * `busyMsPerFrame`, every animation frame until then also keeps the main thread busy that long (what a
       * page's own rendering takes from the pipeline).
       */
      expect(count: number, busyMsPerFrame?: number): void;
      done(): Promise<JournalTiming>;
    };
  }
}

let onReceived: (() => void) | null = null;
let finished: Promise<JournalTiming> | null = null;

window.lineupJournalBench = {
  async connect(url, conversationId) {
    // A database of its own: the host's is not touched, and every run starts empty.
    const db = await openRuntimeDatabase(`lineup-flood-bench-${crypto.randomUUID()}`);
    const store = new ConversationStore(db);
    await store.create(conversationId);
    await new Promise<void>((resolve) => {
      const client = new AgentClient({
        transport: createWebSocketTransport({ url }),
        clientId: 'flood-bench',
        inventory: async () => ({
          revision: 'inventory-1',
          standard_components: [],
          applications: [],
          capabilities: [],
        }),
        journal: store,
        conversations: [conversationId],
        onSessionStart: resolve,
        handlers: {
          received: () => onReceived?.(),
          // A benchmark that stalls says why.
          problem: (error) => console.error('flood bench client:', error),
        },
      });
      client.start();
    });
  },
  expect(count, busyMsPerFrame = 0) {
    const start = performance.now();
    let busy = busyMsPerFrame > 0;
    const spin = () => {
      if (!busy) return;
      const until = performance.now() + busyMsPerFrame;
      while (performance.now() < until) {
        // Busy on purpose: the stand-in for a frame's style, layout and paint.
      }
      requestAnimationFrame(spin);
    };
    requestAnimationFrame(spin);
    let received = 0;
    let firstMs = Number.NaN;
    finished = new Promise((resolve) => {
      onReceived = () => {
        received++;
        if (received === 1) firstMs = performance.now() - start;
        if (received === count) {
          onReceived = null;
          busy = false;
          resolve({ firstMs, lastMs: performance.now() - start, received });
        }
      };
    });
  },
  done() {
    if (finished === null) return Promise.reject(new Error('Call expect(count) first.'));
    return finished;
  },
};
