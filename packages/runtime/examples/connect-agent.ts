import {
  AgentClient,
  type AgentClientHandlers,
  type AppRegistry,
  createWebSocketTransport,
  OutboxDelivery,
  type RuntimeDatabase,
  type ToolRuntime,
  type WebSocketFactory,
} from '@lineup/runtime';

// Connect a remote agent over WebSocket: the client sends the inventory first, hands tool calls to the runtime,
// and sends every outbox row (progress, results) as an envelope, again after a reconnect until it is delivered.
// Whatever the agent sends gets an answer: an invalid call its own result (`invalid_message`, or
// `call_id_conflict` when `callRecorded` says its call_id is taken), anything else invalid `unsupported`.
// `connect` is only needed where there is no global WebSocket (Node 20: pass one made with the `ws` package).
export function connectAgent(
  url: string,
  db: RuntimeDatabase,
  registry: AppRegistry,
  runtime: ToolRuntime,
  handlers: AgentClientHandlers,
  connect?: WebSocketFactory,
): AgentClient {
  const outbox = new OutboxDelivery(db);
  const deliver = () => void outbox.deliver((message) => client.sendOutboxMessage(message));
  const client: AgentClient = new AgentClient({
    transport: createWebSocketTransport({ url, ...(connect === undefined ? {} : { connect }) }),
    clientId: 'my-host',
    inventory: () => registry.inventory(),
    tools: {
      async receive(conversationId, call) {
        const received = await runtime.receive(conversationId, call);
        deliver();
        return received;
      },
      callRecorded: (conversationId, callId) => runtime.callRecorded(conversationId, callId),
    },
    handlers,
    conversations: ['conv_1'],
    onSessionStart: deliver,
  });
  client.start();
  return client;
}
