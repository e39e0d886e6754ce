/**
 * Conversation text as `lineup.v1` messages: the user's turn (`lineup.v1.chat.user_message`, client → agent)
 * and the agent's (`lineup.v1.chat.agent_message`, agent → client). Each carries one bounded `text`. The
 * user's text is plain text; the agent's is Markdown that a host renders with the same allowlist as the DSL's
 * `markdown` component (no raw HTML, no images, links only to http/https/mailto), never as HTML.
 */
import { z } from 'zod';
import { humanText } from './common.js';
import { LINEUP_WIRE_LIMITS } from './limits.js';

export const ChatUserMessagePayloadSchema = z
  .strictObject({ text: humanText(LINEUP_WIRE_LIMITS.maxChatTextLength) })
  .meta({
    id: 'ChatUserMessagePayload',
    description:
      'What the user said: plain text, 1–16,384 characters, no control characters but tab and newline.',
  });
export type ChatUserMessagePayload = z.infer<typeof ChatUserMessagePayloadSchema>;

export const ChatAgentMessagePayloadSchema = z
  .strictObject({ text: humanText(LINEUP_WIRE_LIMITS.maxChatTextLength) })
  .meta({
    id: 'ChatAgentMessagePayload',
    description:
      "The agent's reply: Markdown rendered with the DSL's Markdown allowlist, 1–16,384 characters, no control characters but tab and newline.",
  });
export type ChatAgentMessagePayload = z.infer<typeof ChatAgentMessagePayloadSchema>;
