import {
  AgentStore,
  chatCompletionsBrain,
  createChatCompletionsModel,
  openDatabase,
  scriptedBrain,
  startAgentHost,
} from '@lineup/agent';

export interface ServeOptions {
  /** A folder for the embedded database, `memory`, or a postgres:// URL (default `memory`). */
  readonly store?: string;
  /** Default 8787; 0 picks a free port. */
  readonly port?: number;
  /** An OpenAI-compatible chat completions endpoint; without it the scripted demo brain answers. */
  readonly llm?: { readonly baseUrl: string; readonly apiKey?: string; readonly model: string };
}

// What `lineup-agent serve` does, as a library: open the store (migrations, a new run epoch), issue a token for
// the device `local` (a new one on every call: the earlier one stops working), start the host with a brain, and
// print the URL the device dials.
export async function serve(options: ServeOptions = {}) {
  const store = await AgentStore.open(await openDatabase(options.store ?? 'memory'));
  const token = await store.issueDeviceToken('local', 'issued by examples/serve.ts');
  const brain =
    options.llm === undefined
      ? scriptedBrain()
      : chatCompletionsBrain({ model: createChatCompletionsModel(options.llm) });
  const host = await startAgentHost({
    store,
    brain,
    port: options.port ?? 8787,
    onProblem: (problem) => console.warn('[agent]', problem instanceof Error ? problem.message : problem),
  });
  const deviceUrl = `${host.url}?token=${token}`;
  console.log(`device URL: ${deviceUrl}`);
  return {
    deviceUrl,
    async close() {
      await host.close();
      await store.close();
    },
  };
}
