/**
 * Pomodoro's Agent Tools (seed 003 §7): `pomodoro.start` and `pomodoro.interrupt`, and nothing else — no preset,
 * open or prepare tools (seed 003 §8.7). Both are served by runtime built-ins: the runtime, not this page,
 * owns the focus operation and its deadline; the page only shows what the runtime projects into its session
 * data. The build turns this file into the manifest's tool descriptors (@lineup/miniapp-sdk/vite).
 */
import { defineAgentTools } from '@lineup/miniapp-sdk';
import { z } from 'zod';

/** The longest focus session an agent may start, in minutes. */
export const MAX_FOCUS_MINUTES = 180;

const minutes = z.int().min(1).max(MAX_FOCUS_MINUTES).describe('Length of the focus session in minutes.');

export default defineAgentTools({
  appScope: 'pomodoro',
  tools: {
    start: {
      contractVersion: '1.0',
      description:
        'Starts a timed focus session (for work, study or meditation) of the given length. Pomodoro first comes to the foreground; the timer starts only once the user is looking at it. Progress "started" means the timer is really running; until then say that focus mode is being opened, not that timing has begun. The final result arrives when the session completes, is interrupted, or could not start.',
      input: z.strictObject({
        minutes,
        label: z.string().min(1).max(64).optional().describe('What the session is for, shown to the user.'),
      }),
      output: z.discriminatedUnion('status', [
        z.strictObject({
          status: z.literal('completed'),
          minutes,
          started_at: z.iso.datetime().describe('When the timer started (UTC).'),
          ended_at: z.iso.datetime().describe('When the deadline was reached (UTC).'),
        }),
        z.strictObject({
          status: z.literal('interrupted'),
          started_at: z.iso.datetime(),
          interrupted_at: z.iso.datetime(),
          focused_seconds: z.int().min(0).describe('How long the user focused before the interruption.'),
          by: z
            .enum(['agent', 'user_left'])
            .describe('The agent interrupted it, or the user left the session.'),
        }),
        z.strictObject({
          status: z.literal('not_started'),
          reason: z
            .enum(['foreground_not_confirmed', 'cancelled'])
            .describe('Pomodoro never came to the foreground, or the start was interrupted first.'),
        }),
      ]),
      callModel: 'operation',
      // The longest session plus time to come to the foreground.
      timeoutMs: (MAX_FOCUS_MINUTES + 5) * 60_000,
      activation: 'foreground_required',
      risk: 'display_only',
      runtime: 'deadline_operation',
    },
    interrupt: {
      contractVersion: '1.0',
      description:
        'Stops the current focus session in this conversation, or cancels a start that is still opening Pomodoro. Takes no arguments: the runtime finds the session itself.',
      input: z.strictObject({}),
      output: z.strictObject({
        status: z
          .enum(['interrupted', 'start_cancelled', 'nothing_to_interrupt'])
          .describe('What was stopped: a running session, a start still opening, or nothing.'),
      }),
      callModel: 'command',
      timeoutMs: 10_000,
      activation: 'activation_not_required',
      risk: 'display_only',
      runtime: 'operation_interrupt',
    },
  },
});
