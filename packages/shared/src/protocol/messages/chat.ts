/**
 * Conversation text as `lineup.v1` messages: the user's turn (`lineup.v1.chat.user_message`, client → agent)
 * and the agent's (`lineup.v1.chat.agent_message`, agent → client). Each carries one bounded `text`. The
 * user's text is plain text; the agent's is Markdown that a host renders with the same allowlist as the DSL's
 * `markdown` component (no raw HTML, no images, links only to http/https/mailto), never as HTML.
 *
 * A user's turn may carry `view_context`: what the MCP App views on the user's screen last said about themselves
 * (`ui/update-model-context` of the MCP Apps extension) since the turn before — per view the latest only, replaced
 * not appended, bounded (`VIEW_CONTEXT_LIMITS`). It is the views' word, not the user's: an agent shows it to its
 * model as such.
 */
import { z } from 'zod';
import type { UIIssueCode } from '../../errors/issues.js';
import { boundedJSONObject } from '../../json/json-data.js';
import { AgentToolNameSchema } from '../tools/descriptor.js';
import { humanText, LineUpIdSchema } from './common.js';
import { LINEUP_WIRE_LIMITS } from './limits.js';

/** Bounds of the views' context a user turn carries (`view_context`). */
export const VIEW_CONTEXT_LIMITS = Object.freeze({
  /** Views whose context one turn carries: the latest of each, at most this many. */
  maxViews: 8,
  /** UTF-16 code units of one view's `text`. */
  maxTextLength: 4_096,
  /** UTF-8 bytes of one view's `data` as JSON. */
  maxDataBytes: 8_192,
} as const);

/**
 * What one MCP App view on the user's screen last said about itself (`ui/update-model-context`): the call whose view
 * it is, the agent's tool, and its text and/or structured data. Said by the view's server, not by the user.
 */
export const ViewContextSchema = z
  .strictObject({
    call_id: LineUpIdSchema,
    tool: AgentToolNameSchema,
    text: humanText(VIEW_CONTEXT_LIMITS.maxTextLength).optional(),
    data: boundedJSONObject(VIEW_CONTEXT_LIMITS.maxDataBytes, "A view's context data").optional(),
  })
  .refine((context) => context.text !== undefined || context.data !== undefined, {
    message: "A view's context has text, data or both.",
    params: { code: 'invalid_value' satisfies UIIssueCode },
  })
  .meta({
    id: 'ViewContext',
    description:
      "The latest context of one MCP App view (its ui/update-model-context): the call whose view it is, the agent's tool, text (1–4,096 characters) and/or data (a JSON object of at most 8,192 bytes). Said by the view, not the user.",
  });
export type ViewContext = z.infer<typeof ViewContextSchema>;

export const ChatUserMessagePayloadSchema = z
  .strictObject({
    text: humanText(LINEUP_WIRE_LIMITS.maxChatTextLength),
    /**
     * The latest context of each MCP App view that set one since the user's last turn (at most 8, one per call):
     * what the view shows, for the agent to read with this turn. Never the user's words.
     */
    view_context: z
      .array(ViewContextSchema)
      .min(1)
      .max(VIEW_CONTEXT_LIMITS.maxViews)
      .superRefine((contexts, context) => {
        const seen = new Set<string>();
        contexts.forEach((item, index) => {
          if (seen.has(item.call_id))
            context.addIssue({
              code: 'custom',
              path: [index, 'call_id'],
              message: "A view's context appears once per turn: its latest.",
              params: { code: 'duplicate_id' satisfies UIIssueCode },
            });
          seen.add(item.call_id);
        });
      })
      .optional(),
  })
  .meta({
    id: 'ChatUserMessagePayload',
    description:
      "What the user said: plain text, 1–16,384 characters, no control characters but tab and newline; with `view_context`, the latest context of up to 8 MCP App views (each view's own, not the user's words).",
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
