/**
 * docs/protocol.md cannot rot: every `lineup.v1` message type has exactly one example in its own section with
 * the direction the catalogue states, the client's answers (a refused call, connection refusals, unsupported
 * reasons, tool error codes) are documented, and every message type of both iframe channels has its example
 * (DESIGN.md "Write the full catalogue, with one example per message"; CONVENTIONS.md 17).
 */
import { describe, expect, it } from 'vitest';
import {
  DIRECTION_LINE,
  DIRECTION_WORDS,
  DOCUMENT,
  examplesOf,
  isKnownType,
  only,
  sectionText,
  sectionType,
} from '../../test/protocol-docs.js';
import { MiniAppMessageFromFrameSchema, MiniAppMessageToFrameSchema } from '../bridge/miniapp.js';
import { SurfaceMessageFromFrameSchema, SurfaceMessageToFrameSchema } from '../bridge/surface.js';
import { LINEUP_CONNECTION_REFUSALS } from './binding.js';
import { LINEUP_MESSAGE_TYPES, LINEUP_UNSUPPORTED_REASONS } from './envelope-schemas.js';
import { TOOL_ERROR_CODES } from './messages/tool.js';

/** The discriminator values of a channel's union (zod 4 records them per discriminated property). */
function channelTypes(schema: unknown): string[] {
  const values = (schema as { _zod: { propValues: Record<string, Set<unknown>> } })._zod.propValues.type;
  return [...(values ?? [])].map(String).sort();
}
describe('docs/protocol.md: the lineup.v1 catalogue', () => {
  const envelopes = examplesOf('envelope');

  it('documents every message type with exactly one example', () => {
    const counts = new Map<string, number>();
    for (const example of envelopes) {
      const type = sectionType(example) ?? '(none)';
      counts.set(type, (counts.get(type) ?? 0) + 1);
    }
    const types = Object.keys(LINEUP_MESSAGE_TYPES).sort();
    expect([...counts.keys()].sort()).toEqual(types);
    for (const type of types) expect(counts.get(type), type).toBe(1);
  });

  it('gives every message type its own section stating its direction', () => {
    for (const [type, { direction }] of Object.entries(LINEUP_MESSAGE_TYPES)) {
      const heading = DOCUMENT.headings.find((candidate) => candidate.text === `\`${type}\``);
      expect(heading?.level, type).toBe(3);
      const words = DIRECTION_LINE.exec(sectionText(DOCUMENT.lines, DOCUMENT.headings, heading!))?.[1];
      expect(words === undefined ? undefined : DIRECTION_WORDS[words], type).toBe(direction);
    }
  });

  it('lists every message type with its direction in the catalogue table', () => {
    const rows = new Map<string, string>();
    for (const line of DOCUMENT.lines) {
      const row = /^\|\s*`(lineup\.v1\.[^`]+)`\s*\|\s*([^|]+?)\s*\|/.exec(line);
      if (row) rows.set(row[1]!, row[2]!);
    }
    expect([...rows.keys()].sort()).toEqual(Object.keys(LINEUP_MESSAGE_TYPES).sort());
    for (const [type, { direction }] of Object.entries(LINEUP_MESSAGE_TYPES)) {
      expect(DIRECTION_WORDS[rows.get(type)!], type).toBe(direction);
    }
  });

  it('documents an unknown type answered unsupported, and the answer to it', () => {
    const unknown = only('envelope-unsupported');
    expect(unknown.value.type).toBe('lineup.v1.ui.frobnicate');
    expect(isKnownType(unknown.value.type)).toBe(false);
    const answer = only('envelope', (example) => sectionType(example) === 'lineup.v1.unsupported').value;
    expect(answer.payload).toEqual({
      message_id: unknown.value.id,
      message_type: unknown.value.type,
      reason: unknown.attributes.reason,
    });
    expect(answer.target).toEqual(unknown.value.sender);
    expect(answer.conversation_id).toBe(unknown.value.conversation_id);
  });
});

describe('docs/protocol.md: what the client answers', () => {
  it('answers the refused call with its own result, naming where it is invalid', () => {
    const [refused] = examplesOf('envelope-refused');
    const answer = examplesOf('envelope-answer').find(
      (example) => example.value.type === 'lineup.v1.tool.result',
    );
    expect(refused).toBeDefined();
    expect(answer?.value.payload).toMatchObject({
      call_id: refused!.value.payload.call_id,
      outcome: 'error',
      error: {
        code: 'invalid_message',
        issues: [{ path: refused!.attributes.path, code: refused!.attributes.code }],
      },
    });
    expect(answer?.value.conversation_id).toBe(refused!.value.conversation_id);
  });

  it('documents every connection refusal with its code', () => {
    for (const [refusal, { code }] of Object.entries(LINEUP_CONNECTION_REFUSALS))
      expect(
        DOCUMENT.lines.some((line) => line.includes(`\`${refusal}\``) && line.includes(`| ${code} |`)),
        refusal,
      ).toBe(true);
  });

  it('documents every unsupported reason and every tool error code', () => {
    const text = DOCUMENT.lines.join('\n');
    for (const reason of LINEUP_UNSUPPORTED_REASONS) expect(text, reason).toContain(`\`${reason}\``);
    for (const code of TOOL_ERROR_CODES) expect(text, code).toContain(`\`${code}\``);
  });
});

describe('docs/protocol.md: the iframe channels', () => {
  const typesOf = (kind: string) =>
    examplesOf(kind)
      .map((example) => String(example.value.type))
      .sort();

  it.each([
    ['surface-from-frame', SurfaceMessageFromFrameSchema],
    ['surface-to-frame', SurfaceMessageToFrameSchema],
    ['miniapp-from-frame', MiniAppMessageFromFrameSchema],
    ['miniapp-to-frame', MiniAppMessageToFrameSchema],
  ] as const)('%s: one example of every message type', (kind, schema) => {
    const expected = channelTypes(schema);
    expect(expected.length).toBeGreaterThan(0);
    expect(typesOf(kind)).toEqual(expected);
  });
});
