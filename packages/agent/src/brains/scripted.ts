/** The scripted demo brain (`@lineup/scripted-agent`): Pomodoro, a DSL interface, a Surface, a stream, stop. */
import { createScriptedAgent } from '@lineup/scripted-agent';
import type { AgentBrain } from '../host/brain.js';

export function scriptedBrain(): AgentBrain {
  return (context) => {
    const agent = createScriptedAgent({
      agentId: context.agentId,
      send: context.send,
      schedule: context.schedule,
      onProblem: context.report,
    });
    return { receive: (_message, text) => agent.receive(text) };
  };
}
