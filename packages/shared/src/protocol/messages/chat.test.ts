/** Conversation text messages: bounded plain text both ways, each in its own direction only. */
import { describe, expect, it } from 'vitest';
import { LineUpProtocolError } from '../../errors/errors.js';
import { parseEnvelope } from '../envelope.js';
import { VIEW_CONTEXT_LIMITS } from './chat.js';
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

  describe("a user turn's view_context", () => {
    /** One view's context (an `undefined` field left out, as JSON leaves it). */
    const view = (overrides: Record<string, unknown> = {}) =>
      JSON.parse(
        JSON.stringify({
          call_id: 'call_01',
          tool: 'map.show_map',
          text: 'The map shows Paris at zoom 11.',
          data: { center: [2.35, 48.85], zoom: 11 },
          ...overrides,
        }),
      );
    const turn = (view_context: unknown) => envelope('user_message', { text: 'where am I?', view_context });

    it('carries the latest context of up to 8 views, each with text, data or both', () => {
      const contexts = [
        view(),
        view({ call_id: 'call_02', text: undefined }),
        view({ call_id: 'call_03', data: undefined, text: 'x'.repeat(VIEW_CONTEXT_LIMITS.maxTextLength) }),
      ];
      const parsed = parseEnvelope(turn(contexts), { direction: 'client_to_agent' });
      expect(parsed.kind === 'message' && parsed.message.payload).toEqual({
        text: 'where am I?',
        view_context: contexts,
      });
      const eight = Array.from({ length: VIEW_CONTEXT_LIMITS.maxViews }, (_, index) =>
        view({ call_id: `call_${index}` }),
      );
      expect(issueOf(turn(eight), 'client_to_agent')).toBe('valid');
    });

    it.each([
      ['no view', [], 'payload.view_context too_few'],
      [
        'neither text nor data',
        [view({ text: undefined, data: undefined })],
        'payload.view_context[0] invalid_value',
      ],
      ['a call twice', [view(), view()], 'payload.view_context[1].call_id duplicate_id'],
      [
        'too many views',
        Array.from({ length: VIEW_CONTEXT_LIMITS.maxViews + 1 }, (_, index) =>
          view({ call_id: `call_${index}` }),
        ),
        'payload.view_context too_many',
      ],
      [
        'text too long',
        [view({ text: 'x'.repeat(VIEW_CONTEXT_LIMITS.maxTextLength + 1) })],
        'payload.view_context[0].text string_too_long',
      ],
      [
        'data too large',
        [view({ data: { blob: 'x'.repeat(VIEW_CONTEXT_LIMITS.maxDataBytes) } })],
        'payload.view_context[0].data too_large',
      ],
      ['data that is not an object', [view({ data: [1, 2] })], 'payload.view_context[0].data invalid_type'],
      ['a control character', [view({ text: 'hi\u0007' })], 'payload.view_context[0].text invalid_value'],
      ['an extra field', [view({ image: 'data:' })], 'payload.view_context[0] unknown_property'],
      [
        'a tool name that is none',
        [view({ tool: 'Not a tool' })],
        'payload.view_context[0].tool invalid_value',
      ],
    ])('refuses %s', (_name, contexts, expected) => {
      expect(issueOf(turn(contexts), 'client_to_agent')).toBe(expected);
    });

    it("is the user's turn's only: an agent's message never carries it", () => {
      expect(
        issueOf(envelope('agent_message', { text: 'hi', view_context: [view()] }), 'agent_to_client'),
      ).toBe('payload unknown_property');
    });
  });
});
