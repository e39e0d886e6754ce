#!/usr/bin/env node
/**
 * `lineup-agent`: the agent host as a command. `lineup-agent serve` opens the store (an embedded database folder by
 * default, made when missing; or a PostgreSQL URL), runs its migrations, starts a new run epoch and serves the
 * `lineup.v1` binding; on its first start it issues a device token and prints the URL a host connects with.
 */
import { readFileSync } from 'node:fs';
import { chatCompletionsBrain } from './brains/chat-completions.js';
import { createChatCompletionsModel } from './brains/llm/chat.js';
import { scriptedBrain } from './brains/scripted.js';
import { type Command, deviceUrl, readCommand, USAGE, UsageError } from './cli/config.js';
import { startAgentHost } from './host/server.js';
import { MIGRATIONS } from './store/migrations.js';
import { openDatabase } from './store/open.js';
import { AgentStore } from './store/store.js';

const print = (line = '') => process.stdout.write(`${line}\n`);

async function openStore(location: string): Promise<AgentStore> {
  return AgentStore.open(await openDatabase(location));
}

async function serve(command: Extract<Command, { command: 'serve' }>): Promise<void> {
  const store = await openStore(command.store);
  const devices = await store.devices();
  const issued =
    devices.length === 0 ? await store.issueDeviceToken('local', 'issued by lineup-agent serve') : null;
  const brain =
    command.llm === undefined
      ? scriptedBrain()
      : chatCompletionsBrain({ model: createChatCompletionsModel(command.llm) });
  const host = await startAgentHost({
    store,
    brain,
    port: command.port,
    host: command.host,
    path: command.path,
    onProblem: (problem) =>
      console.warn('[lineup-agent]', problem instanceof Error ? problem.message : String(problem)),
  });
  const where =
    store.db.kind === 'pglite' ? `embedded PostgreSQL (PGlite) in ${store.db.location}` : store.db.location;
  const model = command.llm === undefined ? '' : ` (model ${command.llm.model} at ${command.llm.baseUrl})`;
  print(`LineUp agent host, ${command.mode} mode${model}`);
  print(
    `  store: ${where} (schema ${Math.max(...MIGRATIONS.map((migration) => migration.version))}, run epoch ${store.epoch})`,
  );
  print(`  listening on ${host.url}`);
  if (issued !== null) {
    const url = deviceUrl(host.url, issued);
    print('');
    print(
      'A token was issued for the device "local" (shown once; `lineup-agent token issue <id>` makes more):',
    );
    print(`  device URL: ${url}`);
    print('Connect the Web Reference Host to it (in the LineUp repository):');
    print(`  LINEUP_AGENT_URL='${url}' npm start`);
    print(`or open a running host with ?agent=${encodeURIComponent(url)} and press "Connect".`);
  } else {
    print(
      `  devices: ${devices.filter((device) => !device.revoked).length} with a token (lineup-agent devices lists them)`,
    );
    print(`A device connects to ${host.url}?token=<its token>.`);
  }
  const stop = () => {
    void host
      .close()
      .then(() => store.close())
      .then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function main(): Promise<void> {
  let command: Command;
  try {
    command = readCommand(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  try {
    switch (command.command) {
      case 'help':
        print(USAGE);
        return;
      case 'version': {
        const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
        print(String(version));
        return;
      }
      case 'serve':
        return await serve(command);
      case 'token-issue': {
        const store = await openStore(command.store);
        try {
          print(await store.issueDeviceToken(command.deviceId, command.label));
        } finally {
          await store.close();
        }
        return;
      }
      case 'token-revoke': {
        const store = await openStore(command.store);
        try {
          if (!(await store.revokeDevice(command.deviceId))) {
            console.error(`No device ${JSON.stringify(command.deviceId)} in this store.`);
            process.exitCode = 1;
          } else print(`Revoked the token of ${command.deviceId}.`);
        } finally {
          await store.close();
        }
        return;
      }
      case 'devices': {
        const store = await openStore(command.store);
        try {
          for (const device of await store.devices())
            print(`${device.deviceId}\t${device.revoked ? 'revoked' : 'active'}\t${device.label}`);
        } finally {
          await store.close();
        }
        return;
      }
    }
  } catch (error) {
    console.error(`lineup-agent: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  }
}

await main();
