/**
 * The JSON-RPC a test's own MCP App view speaks by hand (as the ext-apps SDK does, over `postMessage` to its parent),
 * as script text for a view's module: `send(message)`, `rpc(method, params)` (resolves with the answer), and
 * `onNotification`, which a view may replace to hear the host's notifications.
 */
export const VIEW_RPC = `const pending = new Map();
let next = 1;
const send = (message) => window.parent.postMessage(message, '*');
const rpc = (method, params) => new Promise((resolve) => {
  const id = next++;
  pending.set(id, resolve);
  send({ jsonrpc: '2.0', id, method, params });
});
let onNotification = () => {};
window.addEventListener('message', (event) => {
  const message = event.data;
  if (message && message.id !== undefined && pending.has(message.id)) {
    pending.get(message.id)(message);
    pending.delete(message.id);
  } else if (message && typeof message.method === 'string') onNotification(message);
});`;
