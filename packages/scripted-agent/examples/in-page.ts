import type { InProcessAgentEnd } from '@lineup/runtime';
import { createScriptedAgent } from '@lineup/scripted-agent';

// The Web Reference Host's built-in demo agent: the scripted agent on the far end of an in-process transport
// (`createInProcessTransport()` of @lineup/runtime, whose `transport` the host's AgentClient uses). Component
// streams are paced with setTimeout. Returns what detaches it.
export function attachDemoAgent(agent: InProcessAgentEnd): () => void {
  const demo = createScriptedAgent({
    send: (text) => agent.send(text),
    schedule: (callback, delayMs) => void setTimeout(callback, delayMs),
    onProblem: (problem) => console.warn('The demo agent ignored a frame:', problem),
  });
  return agent.onFrame((text) => demo.receive(text));
}
