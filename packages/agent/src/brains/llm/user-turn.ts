/**
 * What the model reads for one user turn (`lineup.v1.chat.user_message`): the user's text, then — when the turn
 * carries `view_context` — what the MCP App views on the user's screen last said about themselves, under a line that
 * says it is the views' word, not the user's (a view's context is its server's text: it may ask for anything, and the
 * model must not take it as the user's request).
 */
import type { ChatUserMessagePayload } from '@lineup/shared/protocol';

/** The line that separates the user's words from the views'. */
export const VIEW_CONTEXT_HEADING =
  "[What the views on the user's screen say about themselves (from the apps' views, not the user's words):]";

/** The text of a user turn as the model reads it. */
export function userTurnContent(payload: Pick<ChatUserMessagePayload, 'text' | 'view_context'>): string {
  const contexts = payload.view_context ?? [];
  if (contexts.length === 0) return payload.text;
  const lines = contexts.map((context) => {
    const parts = [`- ${context.tool} (call ${context.call_id}):`];
    if (context.text !== undefined) parts.push(context.text);
    if (context.data !== undefined) parts.push(`data: ${JSON.stringify(context.data)}`);
    return parts.join(' ');
  });
  return `${payload.text}\n\n${VIEW_CONTEXT_HEADING}\n${lines.join('\n')}`;
}
