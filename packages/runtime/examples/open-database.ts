import { openRuntimeDatabase, RuntimeStorageError } from '@lineup/runtime';

// Open the runtime's database so that a LineUp updated in another tab never waits on this one, and tell the
// user what happens: this tab's connection closes itself for the newer version (or for a deletion); an older
// tab that keeps the database open is reported at once, and opening gives up after 10 s instead of waiting.
export async function openForThisTab(show: (message: string) => void) {
  try {
    return await openRuntimeDatabase(undefined, {
      onVersionChange: ({ newVersion }) =>
        show(
          newVersion === null
            ? 'LineUp’s data was deleted in another tab. Reload this page.'
            : 'LineUp was updated in another tab. Reload this page.',
        ),
      onBlocked: () => show('Close the other LineUp tabs to finish the update.'),
      onTerminated: () => show('The browser closed LineUp’s storage. Reload this page.'),
      blockedTimeoutMs: 10_000,
    });
  } catch (error) {
    if (error instanceof RuntimeStorageError && error.code === 'storage_blocked') {
      show('Another LineUp tab keeps the storage open. Close it and reload.');
      return null;
    }
    throw error;
  }
}
