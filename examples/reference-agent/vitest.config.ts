import { lineupProject } from '../../vitest.shared.ts';

// The server runs on a random port; the real LineUp client (AgentClient over createWebSocketTransport, the
// runtime on fake-indexeddb) dials it. The LLM mode talks to a scripted chat completions server on localhost.
export default lineupProject({ name: 'reference-agent' });
