import { agentTool, defineAgentTools } from '@lineup/miniapp-sdk';
import { z } from 'zod';

const notes: string[] = [];

// src/tools.ts of a MiniApp: every Agent Tool, declared once. The build turns the contracts into the
// manifest; the handlers stay in the bundle and run when the runtime routes a call here.
export default defineAgentTools({
  appScope: 'notes',
  tools: {
    add: agentTool({
      contractVersion: '1.0',
      description: 'Adds a note to this session and returns how many there are.',
      input: z.strictObject({ text: z.string().min(1).max(500) }),
      output: z.strictObject({ count: z.int().min(1) }),
      callModel: 'command',
      timeoutMs: 10_000,
      activation: 'app_ready',
      risk: 'display_only',
      handler: ({ text }) => {
        notes.push(text);
        return { count: notes.length };
      },
    }),
  },
});
