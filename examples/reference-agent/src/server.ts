#!/usr/bin/env node
/**
 * `node dist/server.js [--mode scripted|llm] [--port 8787] [--host 127.0.0.1]`: the reference agent on
 * `ws://host:port/agent`, with a device token issued at each start and printed in the device URL. llm mode reads
 * OPENAI_BASE_URL, OPENAI_API_KEY and OPENAI_MODEL.
 */
import { createChatCompletionsModel } from '@lineup/agent';
import { startReferenceAgent } from './agent-server.js';
import { readConfig } from './config.js';

async function main(): Promise<void> {
  let config: ReturnType<typeof readConfig>;
  try {
    config = readConfig(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 2;
    return;
  }
  const server = await startReferenceAgent({
    mode: config.mode,
    port: config.port,
    host: config.host,
    ...(config.llm === undefined ? {} : { model: createChatCompletionsModel(config.llm) }),
    onProblem: (problem) =>
      console.warn('[reference-agent]', problem instanceof Error ? problem.message : problem),
  });
  const modelNote = config.llm === undefined ? '' : ` (model ${config.llm.model} at ${config.llm.baseUrl})`;
  console.log(`LineUp reference agent, ${config.mode} mode${modelNote}, listening on ${server.baseUrl}`);
  // The store is in memory: each start issues a new token, and a restart forgets the conversations.
  console.log(`Device URL (with this start's token): ${server.url}`);
  console.log(`Open the host with ?agent=${encodeURIComponent(server.url)} and press "Connect".`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
