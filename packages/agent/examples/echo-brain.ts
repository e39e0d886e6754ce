import {
  type AgentBrain,
  AgentStore,
  LINEUP_ACK_PROTOCOL,
  LINEUP_PROTOCOL,
  openPGlite,
  startAgentHost,
  TOKEN_PROTOCOL_PREFIX,
} from '@lineup/agent';
import WebSocket from 'ws';

// A brain of your own: the host makes one per conversation and hands it each new envelope of the device, once.
// It answers through `context.send`, which validates the envelope, logs it and delivers it (now, or at the
// device's next session start until the device acknowledges it). `context.ids()` gives its envelope ids: the
// device drops an envelope whose id it has seen, so an id is never used twice.
export const echoBrain: AgentBrain = (context) => ({
  receive(message) {
    if (message.type !== 'lineup.v1.chat.user_message') return;
    context.send(
      JSON.stringify({
        v: 1,
        id: context.ids(),
        type: 'lineup.v1.chat.agent_message',
        conversation_id: context.key.conversationId,
        sender: { kind: 'agent', id: context.agentId },
        payload: { text: `echo: ${message.payload.text}` },
      }),
    );
  },
});

// A device in a few lines, with the `ws` package: the token as a subprotocol (kept out of the URL), acknowledgements
// on, the conversation's inventory first (the host writes only into conversations that got it), then one message.
export function say(url: string, token: string, text: string): Promise<string> {
  const socket = new WebSocket(url, [
    LINEUP_PROTOCOL,
    LINEUP_ACK_PROTOCOL,
    `${TOKEN_PROTOCOL_PREFIX}${token}`,
  ]);
  const envelope = (id: string, type: string, payload: object) =>
    JSON.stringify({
      v: 1,
      id,
      type,
      conversation_id: 'conv-1',
      sender: { kind: 'client', id: 'example-device' },
      payload,
    });
  return new Promise((resolve, reject) => {
    socket.on('open', () => {
      const inventory = {
        revision: 'r1',
        standard_components: [],
        applications: [],
        capabilities: [],
        tools: [],
      };
      socket.send(envelope('inv:r1:conv-1', 'lineup.v1.client.inventory', inventory));
      socket.send(envelope('msg-1', 'lineup.v1.chat.user_message', { text }));
    });
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data));
      if (frame.type !== 'lineup.v1.chat.agent_message') return; // the host's {"ack":"…"} frames
      socket.send(JSON.stringify({ ack: frame.id })); // taken: the host marks it delivered
      socket.close(1000);
      resolve(frame.payload.text);
    });
    socket.on('close', (code) => reject(new Error(`The host closed the connection (${code}).`)));
    socket.on('error', reject);
  });
}

export async function main(): Promise<string> {
  const store = await AgentStore.open(await openPGlite('memory'));
  const host = await startAgentHost({ store, brain: echoBrain, port: 0 });
  try {
    const token = await store.issueDeviceToken('laptop');
    return await say(host.url, token, 'hello'); // 'echo: hello'
  } finally {
    await host.close();
    await store.close();
  }
}
