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

/**
 * The records of the `messages` store with each one's message: an envelope from the agent is kept as the JSON
 * text it came in (`text`, database version 10) and is parsed here, as `ConversationStore` reads it back.
 */
export async function readMessages<T extends { readonly message: unknown }>(page: Page): Promise<T[]> {
  const records = await readStore<Omit<T, 'message'> & { message?: unknown; text?: string }>(
    page,
    'messages',
  );
  return records.map(({ text, ...record }) =>
    text === undefined
      ? (record as unknown as T)
      : ({ ...record, message: JSON.parse(text) } as unknown as T),
  );
}

/** Every `chat.user_message` payload the runtime recorded as sent, oldest first. */
export async function sentUserTurns(page: Page): Promise<{ text: string; view_context?: unknown[] }[]> {
  const records = await readMessages<{ message: { type: string; payload: never } }>(page);
  return records
    .filter((record) => record.message.type === 'lineup.v1.chat.user_message')
    .map((record) => record.message.payload);
}
