/**
 * The reference agent: a thin user of `@lineup/agent`. The package does the work — the `lineup.v1` WebSocket
 * binding with device tokens, acknowledgements, de-duplication and redelivery, one brain per conversation, every
 * envelope persisted — and this file only wires it: a store (PGlite in memory unless told otherwise), one device
 * token, and the host with the scripted demo brain or the chat-completions brain.
 */
import {
  type AgentBrain,
  AgentStore,
  type ChatModel,
  chatCompletionsBrain,
  openDatabase,
  scriptedBrain,
  startAgentHost,
} from '@lineup/agent';

export type AgentMode = 'scripted' | 'llm';

/** The `sender.id` of everything the reference agent sends. */
export const REFERENCE_AGENT_ID = 'lineup-reference-agent';
/** The device the reference agent issues its token for. */
export const REFERENCE_DEVICE_ID = 'local';

export interface ReferenceAgentOptions {
  readonly mode: AgentMode;
  /** Required in `llm` mode. */
  readonly model?: ChatModel;
  /** Default 8787; 0 picks a free port. */
  readonly port?: number;
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Default `/agent`. */
  readonly path?: string;
  /**
   * Where conversations are kept: a folder for the embedded database or a `postgres://` URL. Default: an embedded
   * database in memory, forgotten when the process ends.
   */
  readonly store?: string;
  /** Problems worth a log line: refused frames, model errors, failed sends. */
  readonly onProblem?: (problem: unknown) => void;
}

export interface ReferenceAgentServer {
  /** The device URL, `ws://host:port/path?token=…`: what a host's `?agent=` takes. */
  readonly url: string;
  /** `ws://host:port/path`, without the token: a device that dials it is refused (4008). */
  readonly baseUrl: string;
  /** The token issued for `REFERENCE_DEVICE_ID` on this start (an earlier one of the same store stops working). */
  readonly token: string;
  readonly port: number;
  /**
   * Stops the host — closes its sockets, cancels the frames its brains had scheduled, reports nothing more to
   * `onProblem` — then closes the store. Calling it again returns the same promise.
   */
  close(): Promise<void>;
}

function brainFor(options: ReferenceAgentOptions): AgentBrain {
  if (options.mode === 'scripted') return scriptedBrain();
  if (options.model === undefined) throw new TypeError('startReferenceAgent: llm mode needs a model.');
  return chatCompletionsBrain({ model: options.model });
}

export async function startReferenceAgent(options: ReferenceAgentOptions): Promise<ReferenceAgentServer> {
  const brain = brainFor(options);
  const store = await AgentStore.open(await openDatabase(options.store ?? 'memory'));
  try {
    const token = await store.issueDeviceToken(REFERENCE_DEVICE_ID, 'issued by the reference agent');
    const host = await startAgentHost({
      store,
      brain,
      agentId: REFERENCE_AGENT_ID,
      port: options.port ?? 8787,
      ...(options.host === undefined ? {} : { host: options.host }),
      ...(options.path === undefined ? {} : { path: options.path }),
      ...(options.onProblem === undefined ? {} : { onProblem: options.onProblem }),
    });
    let closing: Promise<void> | undefined;
    return {
      url: `${host.url}?token=${token}`,
      baseUrl: host.url,
      token,
      port: host.port,
      close() {
        closing ??= host.close().then(() => store.close());
        return closing;
      },
    };
  } catch (error) {
    // The host did not start (its port is taken, say): close the store, or an embedded folder would stay locked.
    await store.close();
    throw error;
  }
}
