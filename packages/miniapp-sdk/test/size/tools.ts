// The SDK page's tools: the schemas of `schemas.ts` declared as Agent Tools.
import { defineAgentTools } from '@lineup/miniapp-sdk';
import { addInput, addOutput, listInput, listOutput } from './schemas.js';

const notes: string[] = [];

export default defineAgentTools({
  appScope: 'notes',
  tools: {
    add: {
      contractVersion: '1.0',
      description: 'Adds a note.',
      input: addInput,
      output: addOutput,
      callModel: 'command',
      timeoutMs: 5_000,
      activation: 'app_ready',
      risk: 'display_only',
      handler: ({ text }) => {
        notes.push(text);
        return { count: notes.length };
      },
    },
    list: {
      contractVersion: '1.0',
      description: 'Lists the notes.',
      input: listInput,
      output: listOutput,
      callModel: 'query',
      timeoutMs: 5_000,
      activation: 'app_ready',
      risk: 'display_only',
      handler: ({ limit }) => ({ notes: notes.slice(0, limit) }),
    },
  },
});
