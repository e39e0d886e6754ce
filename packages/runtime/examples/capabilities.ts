import {
  AgentClient,
  type AgentTransport,
  type AppRegistry,
  CapabilityError,
  CapabilityRuntime,
  type ConsentDecision,
  type ConsentRequest,
  OutboxDelivery,
  type RuntimeDatabase,
} from '@lineup/runtime';

// Offer one capability to agents: declare it (a new inventory revision), give the runtime its handler and a way
// to ask the user, and hand app.call envelopes to it through the client. The result of each call leaves through
// the outbox; the same call_id again gets the recorded result and never runs twice.
export async function offerClipboard(
  db: RuntimeDatabase,
  registry: AppRegistry,
  transport: AgentTransport,
  ask: (request: ConsentRequest) => Promise<ConsentDecision>,
  write: (text: string) => Promise<void>,
): Promise<AgentClient> {
  await registry.declareCapabilities([
    {
      name: 'clipboard.write',
      version: '1.0',
      risk: 'user_confirmation',
      description: 'Copies text to your clipboard.',
      input_schema: {
        type: 'object',
        properties: { text: { type: 'string', minLength: 1, maxLength: 4096 } },
        required: ['text'],
        additionalProperties: false,
      },
      output_schema: {
        type: 'object',
        properties: { written: { type: 'boolean' } },
        required: ['written'],
        additionalProperties: false,
      },
    },
  ]);
  const outbox = new OutboxDelivery(db);
  const deliver = () => void outbox.deliver((message) => client.sendOutboxMessage(message));
  const capabilities = new CapabilityRuntime(db, {
    handlers: {
      'clipboard.write': async ({ text }) => {
        try {
          await write(String(text));
        } catch {
          throw new CapabilityError('clipboard_refused'); // the agent sees the code, never the error text
        }
        return { written: true };
      },
    },
    confirm: ask,
    onResult: deliver,
  });
  await capabilities.recover(); // calls cut by the last page's end get their one result
  const client: AgentClient = new AgentClient({
    transport,
    clientId: 'my-host',
    inventory: () => registry.inventory(),
    capabilities,
    conversations: ['conv_1'],
    onSessionStart: deliver,
  });
  client.start();
  return client;
}
