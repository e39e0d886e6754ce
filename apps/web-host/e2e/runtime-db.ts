import type { Page } from '@playwright/test';

/** Every record of one store of the runtime's IndexedDB database, read directly in the page. */
export function readStore<T>(page: Page, store: string): Promise<T[]> {
  return page.evaluate(
    (name) =>
      new Promise<T[]>((resolve, reject) => {
        const request = indexedDB.open('lineup-runtime');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const all = request.result.transaction(name).objectStore(name).getAll();
          all.onerror = () => reject(all.error);
          all.onsuccess = () => {
            resolve(all.result as T[]);
            request.result.close();
          };
        };
      }),
    store,
  );
}
