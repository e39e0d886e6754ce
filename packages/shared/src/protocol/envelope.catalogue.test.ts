/**
 * The `lineup.v1` envelope (seed 000 §3): the directions of the catalogue's message types and the parser's
 * direction check, the catalogue itself, the envelope budget and the JSON Schema of every message.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { base, type J, SEED_UI_OPEN, withChange } from '../../test/envelope.js';
import { clone, envelopeIssuesOf } from '../../test/utils.js';
import { LINEUP_ENVELOPE_BUDGET, parseEnvelope } from './envelope.js';
import {
  isLineUpMessageType,
  LINEUP_MESSAGE_SCHEMAS,
  LINEUP_MESSAGE_TYPES,
  LINEUP_PAYLOAD_SCHEMAS,
  LineUpMessageSchema,
} from './envelope-schemas.js';

describe('directions (seed 000 §3)', () => {
  it('matches the table of seed 000 §3 and the types DESIGN.md leaves open', () => {
    const directions = Object.fromEntries(
      Object.entries(LINEUP_MESSAGE_TYPES).map(([type, { direction }]) => [type, direction]),
    );
    expect(directions).toEqual({
      'lineup.v1.ui.open': 'agent_to_client',
      'lineup.v1.ui.patch': 'agent_to_client',
      'lineup.v1.ui.close': 'agent_to_client',
      'lineup.v1.ui.event': 'client_to_agent',
      'lineup.v1.ui.document': 'agent_to_client',
      'lineup.v1.ui.checkpoint': 'agent_to_client',
      'lineup.v1.ui.action': 'client_to_agent',
      'lineup.v1.ui.action_result': 'agent_to_client',
      'lineup.v1.client.inventory': 'client_to_agent',
      'lineup.v1.app.list': 'client_to_agent',
      'lineup.v1.app.call': 'agent_to_client',
      'lineup.v1.app.result': 'client_to_agent',
      'lineup.v1.tool.call': 'agent_to_client',
      'lineup.v1.tool.progress': 'client_to_agent',
      'lineup.v1.tool.result': 'client_to_agent',
      'lineup.v1.chat.user_message': 'client_to_agent',
      'lineup.v1.chat.agent_message': 'agent_to_client',
      'lineup.v1.unsupported': 'either',
    });
    expect(Object.keys(LINEUP_PAYLOAD_SCHEMAS)).toEqual(Object.keys(LINEUP_MESSAGE_TYPES));
    expect(Object.keys(LINEUP_MESSAGE_SCHEMAS)).toEqual(Object.keys(LINEUP_MESSAGE_TYPES));
    expect(Object.isFrozen(LINEUP_MESSAGE_TYPES)).toBe(true);
  });

  it('refuses a message travelling the wrong way, at type, before reading its payload', () => {
    const open = clone(SEED_UI_OPEN);
    expect(parseEnvelope(open, { direction: 'agent_to_client' }).kind).toBe('message');
    expect(envelopeIssuesOf(open, { direction: 'client_to_agent' })).toEqual([
      { code: 'invalid_value', path: 'type' },
    ]);
    const event = base();
    expect(parseEnvelope(event, { direction: 'client_to_agent' }).kind).toBe('message');
    expect(envelopeIssuesOf(event, { direction: 'agent_to_client' })).toEqual([
      { code: 'invalid_value', path: 'type' },
    ]);
    event.payload = 'not even an object';
    expect(envelopeIssuesOf(event, { direction: 'agent_to_client' })).toEqual([
      { code: 'invalid_value', path: 'type' },
    ]);
  });

  it('answers unknown types unsupported whatever the direction', () => {
    const input = withChange((e) => (e.type = 'lineup.v1.ui.foo'))();
    expect(parseEnvelope(input, { direction: 'agent_to_client' }).kind).toBe('unsupported');
  });

  it('requires the sending party of the direction', () => {
    const open = clone(SEED_UI_OPEN) as J;
    open.sender.kind = 'client';
    expect(envelopeIssuesOf(open)).toContainEqual({ code: 'invalid_value', path: 'sender.kind' });
  });
});
describe('catalogue and schemas', () => {
  it('knows its types by own property only', () => {
    expect(isLineUpMessageType('lineup.v1.ui.open')).toBe(true);
    expect(isLineUpMessageType('constructor')).toBe(false);
    expect(isLineUpMessageType(1)).toBe(false);
  });
  it('budgets the envelope for a checkpoint inside it (seed 002 §13 shell reserve)', () => {
    expect(LINEUP_ENVELOPE_BUDGET.maxDepth).toBe(132);
    expect(LINEUP_ENVELOPE_BUDGET.maxBytes).toBeGreaterThan(266_240 + 163_840);
  });
  it('exports a JSON Schema of every message', () => {
    const schema = z.toJSONSchema(LineUpMessageSchema) as {
      $ref: string;
      $defs: Record<string, { oneOf: unknown[] }>;
    };
    expect(schema.$ref).toBe('#/$defs/LineUpMessage');
    expect(schema.$defs.LineUpMessage!.oneOf).toHaveLength(Object.keys(LINEUP_MESSAGE_TYPES).length);
  });
});
