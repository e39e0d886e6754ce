/** Conversation text messages: bounded plain text both ways, each in its own direction only. */
import { describe, expect, it } from 'vitest';
import { LineUpProtocolError } from '../../errors/errors.js';
import { parseEnvelope } from '../envelope.js';
import { LINEUP_WIRE_LIMITS } from './limits.js';

const envelope = (
  type: 'user_message' | 'agent_message',
  payload: unknown,
  kind = type === 'user_message' ? 'client' : 'agent',
) => ({
  v: 1,
  id: 'msg_chat_01',
  type: `lineup.v1.chat.${type}`,
  conversation_id: 'conv_01',
  sender: { kind, id: kind === 'agent' ? 'agent_hermes_main' : 'web-host' },
  payload,
});

function issueOf(value: unknown, direction: 'agent_to_client' | 'client_to_agent') {
  try {
    parseEnvelope(value, { direction });
  } catch (error) {
    if (!(error instanceof LineUpProtocolError)) throw error;
    const [issue] = error.issues;
    return `${issue?.path} ${issue?.code}`;
  }
  return 'valid';
}

describe('lineup.v1.chat.*', () => {
  it.each([
    ['user_message', 'client_to_agent'],
    ['agent_message', 'agent_to_client'],
  ] as const)('%s carries text up to the limit, with new lines and any script', (type, direction) => {
    const text = `现在开始 20 分钟的冥想\n\t**bold** ${'x'.repeat(LINEUP_WIRE_LIMITS.maxChatTextLength - 30)}`;
    const parsed = parseEnvelope(envelope(type, { text }), { direction });
    expect(parsed.kind === 'message' && parsed.message.payload).toEqual({ text });
  });

  it.each([
    ['empty', { text: '' }, 'payload.text string_too_short'],
    ['blank', { text: ' \n\t ' }, 'payload.text invalid_value'],
    [
      'too long',
      { text: 'x'.repeat(LINEUP_WIRE_LIMITS.maxChatTextLength + 1) },
      'payload.text string_too_long',
    ],
    ['a control character', { text: 'hi\u0007' }, 'payload.text invalid_value'],
    ['a C1 control character', { text: 'hi\u0085' }, 'payload.text invalid_value'],
    ['an extra field', { text: 'hi', html: '<b>' }, 'payload unknown_property'],
    ['no text', {}, 'payload.text missing_property'],
  ])('refuses %s', (_name, payload, expected) => {
    expect(issueOf(envelope('user_message', payload), 'client_to_agent')).toBe(expected);
    expect(issueOf(envelope('agent_message', payload), 'agent_to_client')).toBe(expected);
  });

  it('travels one way only', () => {
    expect(issueOf(envelope('user_message', { text: 'hi' }, 'agent'), 'agent_to_client')).not.toBe('valid');
    expect(issueOf(envelope('agent_message', { text: 'hi' }, 'client'), 'client_to_agent')).not.toBe('valid');
  });
});
