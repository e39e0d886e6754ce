import {
  holdRuntimeLock,
  openRuntimeDatabase,
  RUNTIME_DATABASE_NAME,
  type RuntimeDatabase,
} from '@lineup/runtime';

// Run the runtime in one tab of the profile at a time. This tab starts only while it holds the profile's lock;
// another tab that asks for it (its "Use LineUp here" calls `lock.takeOver()`) gets it once this one has stopped
// and closed its database. A tab that did not answer in time (frozen) has it taken and must stop at once, the
// database first. `start` returns what stops it: the agent connection first (wait until it closed), then the
// timers, deliveries and pages.
export function runInOneTab(
  start: (db: RuntimeDatabase) => Promise<() => Promise<void>>,
  show: (message: string | null) => void,
) {
  let running: Promise<{ db: RuntimeDatabase; stop: () => Promise<void> }> | null = null;
  const lock = holdRuntimeLock(RUNTIME_DATABASE_NAME, {
    onAcquired: () => {
      show(lock.guarded ? null : 'This browser cannot keep LineUp to one tab: open it in one tab only.');
      running = openRuntimeDatabase().then(async (db) => ({ db, stop: await start(db) }));
    },
    onWaiting: () => show('LineUp is open in another tab.'),
    onHandOver: async () => {
      const session = await running;
      running = null;
      show('LineUp moved to another tab.');
      await session?.stop();
      session?.db.close(); // the lock is let go once this resolves
    },
    onLost: () => {
      void running?.then(({ db, stop }) => {
        db.close(); // first: another tab already runs
        void stop();
      });
      running = null;
      show('LineUp moved to another tab.');
    },
  });
  return lock;
}
