import {
  AgentClient,
  type AgentTransport,
  type AppRegistry,
  type ConversationMessageRecord,
  ConversationStore,
  type RuntimeDatabase,
} from '@lineup/runtime';

// Keep conversations across page loads: the store records every envelope in and out, drops an agent envelope it
// already has, and queues what the user says while the agent is away. At start-up, show the latest
// conversation again by replaying its messages into the views (never into the runtime), then connect.
export async function resumeConversation(
  db: RuntimeDatabase,
  registry: AppRegistry,
  transport: AgentTransport,
  show: (record: ConversationMessageRecord) => void,
): Promise<{ client: AgentClient; conversationId: string }> {
  const store = new ConversationStore(db);
  const [latest] = await store.list({ limit: 1 });
  const conversation = latest ?? (await store.create());
  for (const record of await store.allMessages(conversation.id)) show(record);
  const client = new AgentClient({
    transport,
    clientId: 'my-host',
    inventory: () => registry.inventory(),
    journal: store,
    conversations: [conversation.id],
  });
  client.start();
  // Sent now if the agent is connected; otherwise queued, and sent (after the inventory) once it is.
  const { delivery } = await client.sendUserMessage(conversation.id, 'Where were we?');
  console.log(`Your message was ${delivery}.`);
  return { client, conversationId: conversation.id };
}
