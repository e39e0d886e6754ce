import {
  type AppRegistry,
  type AppTarget,
  OutboxDelivery,
  type RuntimeDatabase,
  type RuntimeHost,
  ToolRuntime,
} from '@lineup/runtime';
import type { ToolCallPayload } from '@lineup/shared/protocol';

// Run an agent's tool calls: the runtime persists each step, asks its host to show the app, and writes every
// progress and final result to the outbox, which the host sends to the agent in order. A host that is not a
// browser page implements the same RuntimeHost seam (a browser host mounts pages with mountMiniAppFrame).
export async function runCalls(
  db: RuntimeDatabase,
  registry: AppRegistry,
  conversationId: string,
  calls: readonly ToolCallPayload[],
  send: (type: string, payload: unknown) => void,
) {
  const shown: AppTarget[] = [];
  const host: RuntimeHost = {
    // Bring the app forward; confirm only once the user really sees it (here: at once, below).
    requestForeground: (target) => void shown.push(target),
    closeApp: () => {},
    sessionDataChanged: () => {},
  };
  const runtime = new ToolRuntime(db, registry, { host });
  const outbox = new OutboxDelivery(db);
  await runtime.recover(); // settles what fell due while the page was closed
  for (const call of calls) await runtime.receive(conversationId, call);
  for (const target of shown.splice(0))
    await runtime.confirmForeground(target.conversationId, target.appScope);
  await outbox.deliver((message) => send(message.type, message.payload));
  // Deadlines are stored; a timer only wakes the runtime at the next one.
  return { runtime, nextDueAt: await runtime.nextDueAt() };
}
