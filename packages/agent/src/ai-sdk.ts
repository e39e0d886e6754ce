/**
 * @lineup/agent/ai-sdk — the Vercel AI SDK adapter. A separate entry point so that `ai` (an optional peer
 * dependency, version 6) is loaded only by those who use it.
 */
export {
  type AiSdkBrainOptions,
  type AiSdkCallSettings,
  aiSdkBrain,
  aiSdkChatModel,
  lineUpToolSet,
  toModelMessages,
} from './brains/ai-sdk.js';
