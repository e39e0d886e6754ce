import { lineupProject } from '../../vitest.shared.ts';

// The reference agent (the agent host of @lineup/agent on an in-memory store) runs on a random port; the real LineUp
// client (AgentClient over createWebSocketTransport, the runtime on fake-indexeddb) dials its device URL. The LLM mode
// talks to a scripted chat completions server on localhost.
export default lineupProject({ name: 'reference-agent' });
