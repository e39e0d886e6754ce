/** An agent host on a test database that a test can restart: a new run epoch on the same database, same brain. */
import type { AgentBrain } from '../src/host/brain.js';
import { type AgentHost, type AgentHostOptions, startAgentHost } from '../src/host/server.js';
import type { SqlDatabase } from '../src/store/sql.js';
import { AgentStore } from '../src/store/store.js';

export interface RestartableHost {
  store: AgentStore;
  host: AgentHost;
  /** Closes the host (its run ends) and starts another on the same database: what a restart does. */
  restart(): Promise<void>;
  /** Closes the host and the database. */
  close(): Promise<void>;
}

export async function restartableHost(
  db: SqlDatabase,
  brain: AgentBrain,
  options: Partial<Omit<AgentHostOptions, 'store' | 'brain'>> = {},
): Promise<RestartableHost> {
  const start = (store: AgentStore) => startAgentHost({ port: 0, ...options, store, brain });
  const store = await AgentStore.open(db);
  const self: RestartableHost = {
    store,
    host: await start(store),
    async restart() {
      await self.host.close();
      self.store = await AgentStore.open(db);
      self.host = await start(self.store);
    },
    async close() {
      await self.host.close();
      await self.store.close();
    },
  };
  return self;
}
