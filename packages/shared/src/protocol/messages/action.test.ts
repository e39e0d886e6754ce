/**
 * Rules of `ui.action` and `ui.action_result` (DSL 1.1 agent callbacks, seed 002 §11), asserting code and path
 * through the envelope: every bound at its edge and one past it, each message in its own direction only, and
 * the fields held to the action protocol's own schemas (one home for each rule).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import agentCallback from '../../../fixtures/agent-callback.json' with { type: 'json' };
import { codesAndPaths, envelopeIssuesOf } from '../../../test/utils.js';
import { UI_ACTION_PROTOCOL_LIMITS, UIDocumentRefSchema, UIRemoteIdSchema } from '../../actions/protocol.js';
import { resolveUIAction } from '../../dsl/actions.js';
import { parseDocument } from '../../dsl/document.js';
import { UIIdentifierSchema } from '../../dsl/schema.js';
import { initialState } from '../../dsl/state.js';
import { LineUpProtocolError } from '../../errors/errors.js';
import type { UIIssueCode } from '../../errors/issues.js';
import { UI_PROTOCOL_LIMITS } from '../../limits/ui-limits.js';
import { parseEnvelope } from '../envelope.js';
import { LINEUP_MESSAGE_TYPES } from '../envelope-schemas.js';
import { UI_ACTION_ANSWER_STATUSES, UIActionAnswerPayloadSchema, UIActionPayloadSchema } from './action.js';
import { LINEUP_WIRE_LIMITS } from './limits.js';

// biome-ignore lint/suspicious/noExplicitAny: rows build and mutate arbitrary (often invalid) JSON on purpose.
type J = any;

const envelope = (type: string, payload: unknown, kind: string): J => ({
  v: 1,
  id: 'msg_action_01',
  type: `lineup.v1.${type}`,
  conversation_id: 'conv_01',
  sender: { kind, id: kind === 'agent' ? 'agent_hermes_main' : 'web-host' },
  payload,
});

const action = (change?: (payload: J) => void): J => {
  const payload: J = {
    operation_id: 'op_0004',
    action_id: 'draft_notes',
    document: { source_call_id: 'call_ui_0008', ui_id: 'release-notes-helper', generation: 0, revision: 0 },
    prompt: 'Draft the release notes for developers, 5 bullets.',
  };
  change?.(payload);
  return envelope('ui.action', payload, 'client');
};
const answer = (change?: (payload: J) => void): J => {
  const payload: J = { operation_id: 'op_0004', status: 'accepted' };
  change?.(payload);
  return envelope('ui.action_result', payload, 'agent');
};

const MAX_ID = UI_ACTION_PROTOCOL_LIMITS.maxRemoteIdLength;
const MAX_PROMPT = UI_PROTOCOL_LIMITS.maxAgentPromptLength;
const MAX_MESSAGE = LINEUP_WIRE_LIMITS.maxActionAnswerMessageLength;
const MAX_GENERATION = UI_ACTION_PROTOCOL_LIMITS.maxGeneration;
const MAX_REVISION = UI_PROTOCOL_LIMITS.maxStreamFrames;
const MAX_SOURCE_CALL_ID = UI_ACTION_PROTOCOL_LIMITS.maxSourceCallIdLength;

const REJECT: [rule: string, input: () => unknown, code: UIIssueCode, path: string][] = [
  // ui.action: operation_id (UIRemoteIdSchema)
  [
    'action without operation_id',
    () => action((p) => delete p.operation_id),
    'missing_property',
    'payload.operation_id',
  ],
  [
    'action operation_id empty',
    () => action((p) => (p.operation_id = '')),
    'string_too_short',
    'payload.operation_id',
  ],
  [
    `action operation_id of ${MAX_ID + 1}`,
    () => action((p) => (p.operation_id = 'o'.repeat(MAX_ID + 1))),
    'string_too_long',
    'payload.operation_id',
  ],
  [
    'action operation_id with a control character',
    () => action((p) => (p.operation_id = 'op\u0007')),
    'invalid_value',
    'payload.operation_id',
  ],
  [
    'action operation_id with a line feed',
    () => action((p) => (p.operation_id = 'op\n1')),
    'invalid_value',
    'payload.operation_id',
  ],
  [
    'action operation_id not ASCII',
    () => action((p) => (p.operation_id = 'op_é')),
    'invalid_value',
    'payload.operation_id',
  ],
  [
    'action operation_id a number',
    () => action((p) => (p.operation_id = 4)),
    'invalid_type',
    'payload.operation_id',
  ],
  // action_id (a DSL identifier)
  [
    'action without action_id',
    () => action((p) => delete p.action_id),
    'missing_property',
    'payload.action_id',
  ],
  [
    'action action_id starting with a digit',
    () => action((p) => (p.action_id = '1draft')),
    'invalid_value',
    'payload.action_id',
  ],
  [
    'action action_id constructor',
    () => action((p) => (p.action_id = 'constructor')),
    'invalid_value',
    'payload.action_id',
  ],
  [
    'action action_id of 65',
    () => action((p) => (p.action_id = `a${'b'.repeat(64)}`)),
    'invalid_value',
    'payload.action_id',
  ],
  // document (the fields and rules of UIDocumentRefSchema)
  ['action without document', () => action((p) => delete p.document), 'missing_property', 'payload.document'],
  ['action document an array', () => action((p) => (p.document = [])), 'invalid_type', 'payload.document'],
  [
    'action document with an extra field',
    () => action((p) => (p.document.principal = 'admin')),
    'unknown_property',
    'payload.document',
  ],
  [
    'action document in camelCase',
    () =>
      action((p) => {
        p.document.sourceCallId = p.document.source_call_id;
        delete p.document.source_call_id;
      }),
    'missing_property',
    'payload.document.source_call_id',
  ],
  [
    'action document without ui_id',
    () => action((p) => delete p.document.ui_id),
    'missing_property',
    'payload.document.ui_id',
  ],
  [
    'action document without revision',
    () => action((p) => delete p.document.revision),
    'missing_property',
    'payload.document.revision',
  ],
  [
    'action document source_call_id empty',
    () => action((p) => (p.document.source_call_id = '')),
    'string_too_short',
    'payload.document.source_call_id',
  ],
  [
    `action document source_call_id of ${MAX_SOURCE_CALL_ID + 1}`,
    () => action((p) => (p.document.source_call_id = 'c'.repeat(MAX_SOURCE_CALL_ID + 1))),
    'string_too_long',
    'payload.document.source_call_id',
  ],
  [
    'action document source_call_id with a control character',
    () => action((p) => (p.document.source_call_id = 'call\u0000')),
    'invalid_value',
    'payload.document.source_call_id',
  ],
  [
    'action document ui_id not an identifier',
    () => action((p) => (p.document.ui_id = 'release notes')),
    'invalid_value',
    'payload.document.ui_id',
  ],
  [
    'action document generation negative',
    () => action((p) => (p.document.generation = -1)),
    'number_out_of_range',
    'payload.document.generation',
  ],
  [
    `action document generation ${MAX_GENERATION + 1}`,
    () => action((p) => Object.assign(p.document, { generation: MAX_GENERATION + 1, revision: 1 })),
    'number_out_of_range',
    'payload.document.generation',
  ],
  [
    'action document generation fractional',
    () => action((p) => Object.assign(p.document, { generation: 1.5, revision: 1 })),
    'invalid_type',
    'payload.document.generation',
  ],
  [
    'action document generation a string',
    () => action((p) => (p.document.generation = '0')),
    'invalid_type',
    'payload.document.generation',
  ],
  [
    'action document revision negative',
    () => action((p) => Object.assign(p.document, { generation: 1, revision: -1 })),
    'number_out_of_range',
    'payload.document.revision',
  ],
  [
    `action document revision ${MAX_REVISION + 1}`,
    () => action((p) => Object.assign(p.document, { generation: 1, revision: MAX_REVISION + 1 })),
    'number_out_of_range',
    'payload.document.revision',
  ],
  [
    'action document of a complete UI (generation 0) with revision 1',
    () => action((p) => (p.document.revision = 1)),
    'invalid_value',
    'payload.document.revision',
  ],
  // prompt
  ['action without prompt', () => action((p) => delete p.prompt), 'missing_property', 'payload.prompt'],
  ['action prompt empty', () => action((p) => (p.prompt = '')), 'string_too_short', 'payload.prompt'],
  [
    'action prompt only white space',
    () => action((p) => (p.prompt = ' \n\t\u00a0 ')),
    'invalid_value',
    'payload.prompt',
  ],
  [
    `action prompt of ${MAX_PROMPT + 1}`,
    () => action((p) => (p.prompt = 'p'.repeat(MAX_PROMPT + 1))),
    'string_too_long',
    'payload.prompt',
  ],
  ['action prompt a number', () => action((p) => (p.prompt = 42)), 'invalid_type', 'payload.prompt'],
  // the payload is closed: no role, authority or extra context rides along
  ['action with a role', () => action((p) => (p.role = 'system')), 'unknown_property', 'payload'],
  ['action with values', () => action((p) => (p.values = { topic: 'x' })), 'unknown_property', 'payload'],

  // ui.action_result
  [
    'answer without operation_id',
    () => answer((p) => delete p.operation_id),
    'missing_property',
    'payload.operation_id',
  ],
  [
    'answer operation_id empty',
    () => answer((p) => (p.operation_id = '')),
    'string_too_short',
    'payload.operation_id',
  ],
  [
    `answer operation_id of ${MAX_ID + 1}`,
    () => answer((p) => (p.operation_id = 'o'.repeat(MAX_ID + 1))),
    'string_too_long',
    'payload.operation_id',
  ],
  [
    'answer operation_id with a control character',
    () => answer((p) => (p.operation_id = 'op\u007f')),
    'invalid_value',
    'payload.operation_id',
  ],
  // A missing enum is missing (with the values it may take), like every required field of the wire.
  ['answer without status', () => answer((p) => delete p.status), 'missing_property', 'payload.status'],
  [
    'answer status completed',
    () => answer((p) => (p.status = 'completed')),
    'invalid_value',
    'payload.status',
  ],
  [
    'answer status succeeded',
    () => answer((p) => (p.status = 'succeeded')),
    'invalid_value',
    'payload.status',
  ],
  [
    'answer status in capitals',
    () => answer((p) => (p.status = 'ACCEPTED')),
    'invalid_value',
    'payload.status',
  ],
  ['answer message empty', () => answer((p) => (p.message = '')), 'string_too_short', 'payload.message'],
  ['answer message blank', () => answer((p) => (p.message = ' \n ')), 'invalid_value', 'payload.message'],
  [
    `answer message of ${MAX_MESSAGE + 1}`,
    () => answer((p) => (p.message = 'm'.repeat(MAX_MESSAGE + 1))),
    'string_too_long',
    'payload.message',
  ],
  [
    'answer message with an escape character',
    () => answer((p) => (p.message = 'ok\u001b[2J')),
    'invalid_value',
    'payload.message',
  ],
  ['answer message a number', () => answer((p) => (p.message = 1)), 'invalid_type', 'payload.message'],
  ['answer with a result', () => answer((p) => (p.result = { done: true })), 'unknown_property', 'payload'],
  ['answer with a prompt', () => answer((p) => (p.prompt = 'again')), 'unknown_property', 'payload'],
];

const ACCEPT: [rule: string, input: () => unknown][] = [
  ['action of a complete UI', () => action()],
  [
    'action of a stream at its highest generation and revision',
    () => action((p) => Object.assign(p.document, { generation: MAX_GENERATION, revision: MAX_REVISION })),
  ],
  ['action of a stream at revision 0', () => action((p) => (p.document.generation = 1))],
  [
    `action document source_call_id of ${MAX_SOURCE_CALL_ID}`,
    () => action((p) => (p.document.source_call_id = 'c'.repeat(MAX_SOURCE_CALL_ID))),
  ],
  [`action operation_id of ${MAX_ID}`, () => action((p) => (p.operation_id = 'o'.repeat(MAX_ID)))],
  [
    'action operation_id of printable ASCII with a space (the remote id rule)',
    () => action((p) => (p.operation_id = 'op 0004 !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')),
  ],
  ['action action_id of 64', () => action((p) => (p.action_id = `a${'b'.repeat(63)}`))],
  [`action prompt of ${MAX_PROMPT}`, () => action((p) => (p.prompt = 'p'.repeat(MAX_PROMPT)))],
  ['action prompt of one character', () => action((p) => (p.prompt = '?'))],
  [
    'action prompt over lines, in any script',
    () => action((p) => (p.prompt = '请为开发者撰写版本说明\n\t- 5 条要点')),
  ],
  ['action prompt with white space around it', () => action((p) => (p.prompt = '  Explain this.  '))],
  ['answer accepted', () => answer()],
  ['answer declined', () => answer((p) => (p.status = 'declined'))],
  [
    `answer declined with a message of ${MAX_MESSAGE}`,
    () => answer((p) => Object.assign(p, { status: 'declined', message: 'm'.repeat(MAX_MESSAGE) })),
  ],
  ['answer accepted with a message', () => answer((p) => (p.message = 'Queued; I will reply shortly.'))],
  ['answer message over two lines', () => answer((p) => (p.message = 'Line one\nLine two'))],
  ['answer operation_id with a space', () => answer((p) => (p.operation_id = 'op 4'))],
];

describe('ui.action and ui.action_result rules (seed 002 §11 agent callbacks)', () => {
  it('has a unique name per row', () => {
    const names = [...REJECT, ...ACCEPT].map(([rule]) => rule);
    expect(new Set(names).size).toBe(names.length);
  });
  it('has exactly the two answer statuses', () => {
    expect(UI_ACTION_ANSWER_STATUSES).toEqual(['accepted', 'declined']);
  });
  for (const [rule, input, code, path] of REJECT) {
    it(`rejects: ${rule}`, () => {
      expect(envelopeIssuesOf(input())).toContainEqual({ code, path });
    });
  }
  for (const [rule, input] of ACCEPT) {
    it(`accepts: ${rule}`, () => {
      const value = input() as J;
      const parsed = parseEnvelope(value);
      expect(parsed.kind).toBe('message');
      expect(parsed.kind === 'message' && parsed.message.payload).toEqual(value.payload);
    });
  }
});

describe('directions', () => {
  it('ui.action travels client → agent and ui.action_result agent → client', () => {
    expect(LINEUP_MESSAGE_TYPES['lineup.v1.ui.action'].direction).toBe('client_to_agent');
    expect(LINEUP_MESSAGE_TYPES['lineup.v1.ui.action_result'].direction).toBe('agent_to_client');
  });

  it('each is accepted by its receiver, and refused at type in the other direction', () => {
    expect(parseEnvelope(action(), { direction: 'client_to_agent' }).kind).toBe('message');
    expect(envelopeIssuesOf(action(), { direction: 'agent_to_client' })).toEqual([
      { code: 'invalid_value', path: 'type' },
    ]);
    expect(parseEnvelope(answer(), { direction: 'agent_to_client' }).kind).toBe('message');
    expect(envelopeIssuesOf(answer(), { direction: 'client_to_agent' })).toEqual([
      { code: 'invalid_value', path: 'type' },
    ]);
  });

  it('refuses the wrong direction before reading the payload', () => {
    const invalid = action((p) => (p.prompt = ''));
    expect(envelopeIssuesOf(invalid, { direction: 'agent_to_client' })).toEqual([
      { code: 'invalid_value', path: 'type' },
    ]);
  });

  it('requires the sending party of the direction: an agent cannot send ui.action, nor a client answer it', () => {
    const forged = action();
    forged.sender = { kind: 'agent', id: 'agent_hermes_main' };
    expect(envelopeIssuesOf(forged)).toContainEqual({ code: 'invalid_value', path: 'sender.kind' });
    const selfAnswered = answer();
    selfAnswered.sender = { kind: 'client', id: 'web-host' };
    expect(envelopeIssuesOf(selfAnswered)).toContainEqual({ code: 'invalid_value', path: 'sender.kind' });
  });
});

describe('one home for each rule', () => {
  const document = UIActionPayloadSchema.shape.document.shape;
  const reference = UIDocumentRefSchema.shape;

  it('uses the action protocol’s own schemas for every field', () => {
    expect(UIActionPayloadSchema.shape.operation_id).toBe(UIRemoteIdSchema);
    expect(UIActionAnswerPayloadSchema.shape.operation_id).toBe(UIRemoteIdSchema);
    expect(UIActionPayloadSchema.shape.action_id).toBe(UIIdentifierSchema);
    expect(document.source_call_id).toBe(reference.sourceCallId);
    expect(document.ui_id).toBe(reference.uiId);
    expect(document.generation).toBe(reference.generation);
    expect(document.revision).toBe(reference.revision);
  });

  it('accepts a document exactly when UIDocumentRefSchema accepts the same reference', () => {
    const text = fc.oneof(
      fc.constantFrom('call_ui_0008', 'release-notes-helper', 'a', '', 'constructor', 'a b', 'x'.repeat(257)),
      fc.string({ maxLength: 8 }),
    );
    const count = fc.oneof(
      fc.constantFrom(
        0,
        1,
        256,
        257,
        MAX_GENERATION,
        MAX_GENERATION + 1,
        -1,
        0.5,
        Number.MAX_SAFE_INTEGER + 1,
      ),
      fc.integer({ min: -2, max: 300 }),
    );
    fc.assert(
      fc.property(text, text, count, count, (sourceCallId, uiId, generation, revision) => {
        const wire = { source_call_id: sourceCallId, ui_id: uiId, generation, revision };
        const accepted = issuesOrNone(action((p) => (p.document = wire)));
        const expected = UIDocumentRefSchema.safeParse({ sourceCallId, uiId, generation, revision });
        expect(accepted === undefined, JSON.stringify(wire)).toBe(expected.success);
        if (accepted !== undefined && !expected.success) {
          // The same issues, at the wire names.
          const names: Record<string, string> = { sourceCallId: 'source_call_id', uiId: 'ui_id' };
          const paths = expected.error.issues.map((issue) => {
            const [field] = issue.path as string[];
            return `payload.document.${names[field!] ?? field}`;
          });
          for (const path of paths) expect(accepted.map((issue) => issue.path)).toContain(path);
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it('bounds an answer’s message within the receipt message it becomes', () => {
    expect(MAX_MESSAGE).toBeLessThanOrEqual(UI_ACTION_PROTOCOL_LIMITS.maxReceiptMessageLength);
  });

  it('carries any prompt a valid 1.1 document computes (here the agent-callback fixture)', () => {
    const document = parseDocument(agentCallback);
    const resolved = resolveUIAction(document, initialState(document), 'draft_notes');
    if (resolved.kind !== 'agent') throw new Error('expected an agent action');
    const parsed = parseEnvelope(
      action((p) => (p.prompt = resolved.prompt)),
      { direction: 'client_to_agent' },
    );
    expect(parsed.kind === 'message' && parsed.message.payload).toMatchObject({ prompt: resolved.prompt });
  });
});

function issuesOrNone(input: unknown): { code: string; path: string }[] | undefined {
  try {
    parseEnvelope(input);
    return undefined;
  } catch (error) {
    if (error instanceof LineUpProtocolError) return codesAndPaths(error.issues);
    throw error;
  }
}
