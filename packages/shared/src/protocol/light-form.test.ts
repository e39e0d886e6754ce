import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { clone } from '../../test/utils.js';
import { LineUpProtocolError } from '../errors/errors.js';
import { parseStrict } from '../json/parse.js';
import { parseEnvelope } from './envelope.js';
import {
  LINEUP_MESSAGE_SCHEMAS,
  LINEUP_PAYLOAD_SCHEMAS,
  type LineUpMessageType,
} from './envelope-schemas.js';
import { lightForm } from './light-form.js';

// biome-ignore lint/suspicious/noExplicitAny: rows mutate arbitrary JSON on purpose.
type J = any;

const header = (type: string) => ({
  v: 1,
  id: 'msg_1',
  type,
  conversation_id: 'conv_1',
  sender: { kind: 'agent', id: 'agent_1' },
});
const big = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, { n: i, s: 'x'.repeat(20) }]));

/** Valid messages whose payload carries JSON data fields. */
const BASES: J[] = [
  { ...header('lineup.v1.ui.document'), payload: { document: big(200) } },
  { ...header('lineup.v1.ui.checkpoint'), payload: { checkpoint: big(200) } },
  { ...header('lineup.v1.ui.patch'), payload: { instance_id: 'w.1', state: big(50) } },
  {
    ...header('lineup.v1.tool.call'),
    payload: { call_id: 'c', inventory_revision: 'r', tool: 'a.b', arguments: big(50) },
  },
  {
    ...header('lineup.v1.app.call'),
    payload: {
      call_id: 'c',
      capability: 'app.open_url',
      reason: 'r',
      expires_at: '2099-01-01T00:00:00Z',
      arguments: big(20),
    },
  },
  {
    ...header('lineup.v1.ui.open'),
    payload: {
      instance_id: 'w.1',
      app: { id: 'com.example.w', name: 'W', version: '1.0.0', html: '<p>x</p>', css: '', js: '' },
      state: big(50),
    },
  },
];

/** The issues zod gives for `input` as sent, without the light form. */
function directIssues(input: J): unknown {
  const schema = LINEUP_MESSAGE_SCHEMAS[input.type as LineUpMessageType] as z.ZodType<unknown>;
  try {
    parseStrict(schema, input, LineUpProtocolError, undefined, true);
    return 'valid';
  } catch (error) {
    return (error as LineUpProtocolError).issues;
  }
}

function parsedIssues(input: J): unknown {
  try {
    parseEnvelope(input);
    return 'valid';
  } catch (error) {
    return (error as LineUpProtocolError).issues;
  }
}

const proto = (value: J) =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? JSON.parse(JSON.stringify(value).replace('{', '{"__proto__":{"x":1},'))
    : value;
/** Applies `change` to the last payload field, when there is one. */
const lastField = (m: J, change: (value: J) => J): J => {
  const key = Object.keys(m.payload).at(-1);
  return key === undefined ? m : { ...m, payload: { ...m.payload, [key]: change(m.payload[key]) } };
};

/** Mutations of a message: of its header and fields, and of its JSON data fields. */
const MUTATIONS: ((message: J) => J)[] = [
  (m) => ({ ...m, payload: { ...m.payload, zz: 1 } }),
  (m) => ({ ...m, v: 0 }),
  (m) => ({ ...m, sender: { kind: 'agent' } }),
  (m) => {
    const payload = { ...m.payload };
    const [first] = Object.keys(payload);
    if (first !== undefined) delete payload[first];
    return { ...m, payload };
  },
  (m) => {
    const [first] = Object.keys(m.payload);
    return first === undefined ? m : { ...m, payload: { ...m.payload, [first]: 42 } };
  },
  (m) => lastField(m, proto),
  (m) => lastField(m, (value) => [value]),
  (m) => lastField(m, (value) => ({ ...value, huge: 'y'.repeat(300_000) })),
  (m) => ({ ...m, payload: { ...m.payload, zz: 1 }, extra: true }),
];

describe('the light form', () => {
  it('gives the same issues as zod on the message as sent, for every mutation and combination', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BASES),
        fc.uniqueArray(fc.integer({ min: 0, max: MUTATIONS.length - 1 }), { minLength: 0, maxLength: 3 }),
        (base, picks) => {
          let message = clone(base);
          for (const pick of picks) message = MUTATIONS[pick]!(message);
          expect(parsedIssues(message)).toEqual(directIssues(message));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('replaces only acceptable JSON data fields, and nothing when there is none', () => {
    const [document] = BASES;
    const light = lightForm(LINEUP_PAYLOAD_SCHEMAS['lineup.v1.ui.document'], {
      ...document,
      payload: { document: document.payload.document, zz: 1 },
    }) as J;
    expect(light.payload).toEqual({ document: {}, zz: 1 });
    expect(
      lightForm(LINEUP_PAYLOAD_SCHEMAS['lineup.v1.ui.document'], { ...document, payload: { document: [1] } }),
    ).toBeUndefined();
    expect(
      lightForm(LINEUP_PAYLOAD_SCHEMAS['lineup.v1.chat.agent_message'], {
        ...header('x'),
        payload: { text: 'hi' },
      }),
    ).toBeUndefined();
  });
});
