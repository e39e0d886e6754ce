/** The scripted demo brain (`@lineup/scripted-agent`): Pomodoro, a DSL interface, a Surface, a stream, stop. */
import { createScriptedAgent } from '@lineup/scripted-agent';
import type { AgentBrain } from '../host/brain.js';

/**
 * The scripted demo brain. It is deterministic given its ids, so after a restart (or on another worker) it
 * `restore`s its memory by replaying the conversation's log with its sends held back: a Pomodoro started before
 * the restart is still known, and its final result is answered. A stream frame it had scheduled and not sent when
 * the run ended is not sent (the interrupted interface keeps its last frame, seed 004 §5).
 */
export function scriptedBrain(): AgentBrain {
  return (context) => {
    /** While replaying: what the agent sends is kept here, and what it schedules waits to be run by the log. */
    let replay: { produced: string[]; scheduled: (() => void)[] } | undefined;
    const agent = createScriptedAgent({
      agentId: context.agentId,
      ids: context.ids,
      send: (text) => {
        if (replay !== undefined) replay.produced.push(text);
        else context.send(text);
      },
      schedule: (callback, delayMs) => {
        if (replay !== undefined) replay.scheduled.push(callback);
        else context.schedule(callback, delayMs);
      },
      onProblem: context.report,
    });
    return {
      receive: (_message, text) => agent.receive(text),
      // All it does happens within `receive` or in what it schedules through the host (which the host counts).
      idle: () => true,
      restore(entries) {
        replay = { produced: [], scheduled: [] };
        try {
          let outs = 0;
          for (const entry of entries) {
            if (entry.direction === 'in') {
              agent.receive(JSON.stringify(entry.envelope));
              continue;
            }
            // An envelope the agent sent: made by a receive already, or by the frame it had scheduled next.
            outs += 1;
            while (replay.produced.length < outs && replay.scheduled.length > 0) replay.scheduled.shift()?.();
          }
          return replay.produced;
        } finally {
          replay = undefined;
        }
      },
    };
  };
}
