import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { AgentStore, openDatabase, startAgentHost } from '@lineup/agent';
import { aiSdkBrain } from '@lineup/agent/ai-sdk';

export interface AiSdkServeOptions {
  /** An OpenAI-compatible endpoint, e.g. `http://127.0.0.1:11434/v1` (Ollama) or `https://api.openai.com/v1`. */
  readonly baseURL: string;
  readonly model: string;
  readonly apiKey?: string;
  /** A folder for the embedded database, `memory`, or a postgres:// URL (default `memory`). */
  readonly store?: string;
  /** Default 8787; 0 picks a free port. */
  readonly port?: number;
}

// The host with an AI SDK model as its brain. Any AI SDK language model fits — `openai('gpt-5-mini')` from
// `@ai-sdk/openai`, `anthropic(…)`, a gateway model id — here an OpenAI-compatible endpoint. The inventory's Agent
// Tools and the intelligent_ui* tools reach the model as AI SDK tools; the host sends the calls to the device and
// persists them, so a restart loses nothing.
export async function serveWithAiSdk(options: AiSdkServeOptions) {
  const provider = createOpenAICompatible({
    name: 'endpoint',
    baseURL: options.baseURL,
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
  });
  const store = await AgentStore.open(await openDatabase(options.store ?? 'memory'));
  const token = await store.issueDeviceToken('local', 'issued by examples/ai-sdk-brain.ts');
  const host = await startAgentHost({
    store,
    brain: aiSdkBrain({
      model: provider(options.model),
      instructions: 'You help the user focus. Use the Pomodoro tools when asked; answer in one sentence.',
      settings: { temperature: 0, maxRetries: 1 },
    }),
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
