import { AppRegistry, openRuntimeDatabase } from '@lineup/runtime';

// Install a MiniApp from where its bundle is served: the runtime validates its manifest (an invalid one
// changes nothing) and stores the app, a new inventory revision, the audit entry and the outbox row for
// client.inventory in one IndexedDB transaction. The same manifest again writes nothing.
export async function installFrom(bundleUrl: string) {
  const db = await openRuntimeDatabase();
  const registry = new AppRegistry(db);
  const response = await fetch(new URL('lineup.manifest.json', bundleUrl));
  const outcome = await registry.install(await response.json(), { bundleUrl });
  const inventory = await registry.inventory();
  console.log(
    outcome,
    inventory.revision,
    inventory.tools?.map((tool) => tool.name),
  );
  return registry;
}
