/** The agent client's own error, below the client and the parts that throw it. */
import { LineUpError } from '@lineup/shared';

/**
 * The client is not connected, was given something it cannot send, or refused a connection that sent more frames
 * than it holds (`overloaded`).
 */
export class AgentClientError extends LineUpError<'not_connected' | 'invalid_message' | 'overloaded'> {
  override readonly name = 'AgentClientError';
}

/** The refusal of a send while the agent is away. */
export function notConnected(): AgentClientError {
  return new AgentClientError('not_connected', 'The agent is not connected; nothing was sent.');
}
