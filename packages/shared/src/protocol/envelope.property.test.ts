/**
 * Properties of `parseEnvelope` and the descriptor and manifest parsers: whatever the input — arbitrary JSON,
 * arbitrary JavaScript values, random mutations of valid messages — they return a result or throw a
 * `LineUpProtocolError` with bounded issues, never anything else, never pollute `Object.prototype`, and
 * classify every well-formed envelope of an unknown type as `unsupported`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clone, paths, protocolOutcome, setAt } from '../../test/utils.js';
import { type ParsedEnvelope, parseEnvelope, parseEnvelopeText } from './envelope.js';
import { isLineUpMessageType } from './envelope-schemas.js';
import { parseAgentToolDescriptor } from './tools/descriptor.js';
import { parseMiniAppManifest } from './tools/manifest.js';

// biome-ignore lint/suspicious/noExplicitAny: mutations walk and rewrite arbitrary JSON on purpose.
type J = any;

const VALID: J[] = [
  {
    v: 1,
    id: 'm1',
    type: 'lineup.v1.ui.open',
    conversation_id: 'c1',
    sender: { kind: 'agent', id: 'a' },
    payload: {
      instance_id: 'i.1',
      app: { id: 'com.a.b', name: 'A', version: '1.0.0', html: '<p>', css: '', js: '' },
      state: { n: 1, list: [1, 'a', null, { deep: true }] },
    },
  },
  {
    v: 1,
    id: 'm2',
    type: 'lineup.v1.ui.event',
    conversation_id: 'c1',
    sender: { kind: 'client', id: 'h' },
    target: { kind: 'agent', id: 'a' },
    payload: { instance_id: 'i.1', event: 'refresh', data: { unit: 'c' } },
  },
  {
    v: 1,
    id: 'm3',
    type: 'lineup.v1.tool.result',
    conversation_id: 'c1',
    sender: { kind: 'client', id: 'h' },
    payload: { call_id: 'k', outcome: 'error', error: { code: 'app_activation_failed' } },
  },
  {
    v: 1,
    id: 'm4',
    type: 'lineup.v1.client.inventory',
    conversation_id: 'c1',
    sender: { kind: 'client', id: 'h' },
    payload: {
      revision: 'r1',
      standard_components: [{ id: 'choice', version: '1' }],
      applications: [{ id: 'com.a.b', version: '1.0.0', surfaces: [{ id: 's', events: ['e'] }] }],
      capabilities: [{ name: 'a.b', version: '1', risk: 'restricted' }],
      tools: [
        {
          name: 'p.start',
          app_scope: 'p',
          method: 'start',
          contract_version: '1',
          description: 'Start.',
          input_schema: { type: 'object', properties: { m: { type: 'integer' } } },
          output_schema: { type: 'object' },
          call_model: 'command',
          idempotency: 'call_id',
          timeout_ms: 1000,
          activation: 'app_ready',
          risk: 'display_only',
        },
      ],
    },
  },
  {
    v: 1,
    id: 'm5',
    type: 'lineup.v1.ui.action',
    conversation_id: 'c1',
    sender: { kind: 'client', id: 'h' },
    payload: {
      operation_id: 'op_1',
      action_id: 'ask',
      document: { source_call_id: 'k', ui_id: 'd', generation: 2, revision: 1 },
      prompt: 'Explain this.',
    },
  },
  {
    v: 1,
    id: 'm6',
    type: 'lineup.v1.ui.action_result',
    conversation_id: 'c1',
    sender: { kind: 'agent', id: 'a' },
    payload: { operation_id: 'op_1', status: 'declined', message: 'Not now.' },
  },
];

const outcome = protocolOutcome;

function expectClassified(result: ParsedEnvelope | undefined, input: unknown): void {
  if (result === undefined) return;
  if (result.kind === 'message') expect(isLineUpMessageType(result.message.type)).toBe(true);
  else expect(['unknown_type', 'unsupported_version']).toContain(result.reason);
  expect(Object.isFrozen(result)).toBe(true);
  expect(({} as J).polluted).toBeUndefined();
  expect(input).toBeDefined();
}

describe('parseEnvelope never throws anything but LineUpProtocolError', () => {
  it('on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) =>
        expectClassified(
          outcome(() => parseEnvelope(value)),
          value,
        ),
      ),
      { numRuns: 500 },
    );
  });

  it('on arbitrary JSON text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string()), (text) =>
        expectClassified(
          outcome(() => parseEnvelopeText(text)),
          text,
        ),
      ),
      { numRuns: 300 },
    );
  });

  it('on arbitrary JavaScript values (functions, symbols, class instances, null prototypes)', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withBoxedValues: true,
          withDate: true,
          withMap: true,
          withSet: true,
          withNullPrototype: true,
          withTypedArray: true,
          withSparseArray: true,
        }),
        (value) =>
          expectClassified(
            outcome(() => parseEnvelope(value)),
            value,
          ),
      ),
      { numRuns: 300 },
    );
  });

  it('on random mutations of valid messages, in both directions', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...VALID),
        fc.nat(),
        fc.oneof(
          fc.jsonValue(),
          fc.constantFrom<unknown>(undefined, Number.NaN, () => 1, '__proto__', 'javascript:x'),
        ),
        fc.constantFrom(undefined, 'agent_to_client' as const, 'client_to_agent' as const),
        (message, pick, replacement, direction) => {
          const input = clone(message);
          const all = paths(input);
          const mutated = setAt(input, all[pick % all.length]!, replacement);
          const options = direction === undefined ? {} : { direction };
          expectClassified(
            outcome(() => parseEnvelope(mutated, options)),
            mutated,
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('injecting an own "__proto__" key anywhere never pollutes and is never a message with it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...VALID), fc.nat(), (message, pick) => {
        const input = clone(message);
        const objects = paths(input).filter((path) => {
          let value: J = input;
          for (const segment of path) value = value[segment];
          return typeof value === 'object' && value !== null && !Array.isArray(value);
        });
        const at = objects[pick % objects.length]!;
        let holder: J = input;
        for (const segment of at) holder = holder[segment];
        Object.defineProperty(holder, '__proto__', {
          value: { polluted: true },
          enumerable: true,
          configurable: true,
        });
        const result = outcome(() => parseEnvelope(input));
        expect(result?.kind).not.toBe('message');
        expect(({} as J).polluted).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('classifies every well-formed envelope of an unknown type as unsupported', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z][A-Za-z0-9._:-]{0,40}$/).filter((type) => !isLineUpMessageType(type)),
        // Well-formed: no own "__proto__" key at any depth (refused anywhere in protocol data, tested above).
        fc
          .dictionary(fc.string({ maxLength: 8 }), fc.jsonValue(), { maxKeys: 4 })
          .filter((payload) => !JSON.stringify(payload).includes('"__proto__"')),
        (type, payload) => {
          const result = parseEnvelope({
            v: 1,
            id: 'm',
            type,
            conversation_id: 'c',
            sender: { kind: 'agent', id: 'a' },
            payload,
          });
          expect(result).toMatchObject({ kind: 'unsupported', reason: 'unknown_type', type });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('descriptor and manifest parsers never throw anything but LineUpProtocolError', () => {
  const descriptor = VALID[3].payload.tools[0];
  const toolDescriptor = (): J => {
    const { name: _name, ...rest } = clone(descriptor);
    return { ...rest, permissions: [], executor: { kind: 'miniapp_sdk' } };
  };
  const manifest = (): J => ({
    manifest_version: 1,
    id: 'com.a.p',
    name: 'P',
    version: '1.0.0',
    app_scope: 'p',
    entry: 'index.html',
    surfaces: [],
    permissions: [],
    tools: [toolDescriptor()],
  });

  it('accepts the unmutated inputs', () => {
    expect(() => parseAgentToolDescriptor(toolDescriptor())).not.toThrow();
    expect(() => parseMiniAppManifest(manifest())).not.toThrow();
  });

  it('on arbitrary JSON and random mutations', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.nat(),
        fc.jsonValue(),
        fc.jsonValue(),
        (isManifest, pick, replacement, whole) => {
          const input = isManifest ? manifest() : toolDescriptor();
          const all = paths(input);
          const mutated = setAt(input, all[pick % all.length]!, replacement);
          const parse = isManifest ? parseMiniAppManifest : parseAgentToolDescriptor;
          outcome(() => parse(mutated));
          outcome(() => parse(whole));
        },
      ),
      { numRuns: 400 },
    );
  });
});
