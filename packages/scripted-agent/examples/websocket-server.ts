import { createScriptedAgent } from '@lineup/scripted-agent';
import { type WebSocket, WebSocketServer } from 'ws';

// A reference agent server in Node, for one client at a time: one scripted agent answers whichever socket is
// connected now, so after a reconnect it still knows the conversation's inventory and its calls in progress,
// and drops the envelopes the client resends with their ids. It speaks plain envelopes (`lineup.v1`).
export function serveDemoAgent(port: number, host = '127.0.0.1'): WebSocketServer {
  let current: WebSocket | undefined;
  const demo = createScriptedAgent({
    send(text) {
      if (current === undefined) throw new Error('No client is connected.');
      current.send(text);
    },
    schedule: (callback, delayMs) => void setTimeout(callback, delayMs),
  });
  const server = new WebSocketServer({
    port,
    host,
    handleProtocols: (offered) => (offered.has('lineup.v1') ? 'lineup.v1' : false),
  });
  server.on('connection', (socket) => {
    current = socket;
    socket.on('message', (data, isBinary) => {
      if (!isBinary) demo.receive(String(data));
    });
    socket.on('close', () => {
      if (current === socket) current = undefined;
    });
  });
  return server;
}
