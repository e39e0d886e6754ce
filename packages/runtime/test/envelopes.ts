let sequence = 0;

/** An agent → client envelope as a test agent sends it (a fresh id unless given; conversation `conv_1`). */
export const agentEnvelope = (
  type: string,
  payload: object,
  id = `msg_agent_${++sequence}`,
  conversation = 'conv_1',
) => ({
  v: 1,
  id,
  type,
  conversation_id: conversation,
  sender: { kind: 'agent', id: 'agent_test' },
  payload,
});
