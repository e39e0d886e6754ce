import { agentTool, defineAgentTools } from '@lineup/miniapp-sdk';
import { z } from 'zod';
import { addNote } from './notes.js';

// Every Agent Tool of the app, declared once. The build reads this module (in Node) to write the manifest, so it
// touches the page only inside a handler.
export default defineAgentTools({
  appScope: '{{appScope}}',
  tools: {
    add: agentTool({
      contractVersion: '1.0',
      description: 'Adds a note and returns how many there are.',
      input: z.strictObject({ text: z.string().min(1).max(500) }),
      output: z.strictObject({ count: z.int().min(1) }),
      callModel: 'command',
      timeoutMs: 10_000,
      activation: 'app_ready',
      risk: 'display_only',
      handler: ({ text }) => ({ count: addNote(text) }),
    }),
  },
});
