import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { buildMaxDocument } from '../../bench/max-document.js';
import agentCallback from '../../fixtures/agent-callback.json' with { type: 'json' };
import compoundInterest from '../../fixtures/compound-interest.json' with { type: 'json' };
import fileReader from '../../fixtures/file-reader.json' with { type: 'json' };
import formControls from '../../fixtures/form-controls.json' with { type: 'json' };
import productComparison from '../../fixtures/product-comparison.json' with { type: 'json' };
import { parseDocument } from './document.js';
import { documentJsonSchema, UI_DOCUMENT_SCHEMA_ID } from './json-schema.js';
import { UIDocumentSchema } from './schema.js';

// seed 002 §9: the exported schema compiles under AJV 2020 in strict mode and accepts the shipped examples.
const ajv = new Ajv2020({ strict: true, allErrors: true });
const validate = ajv.compile(documentJsonSchema as object);

const fixtures = { compoundInterest, fileReader, productComparison, formControls, agentCallback };

describe('documentJsonSchema', () => {
  it('is Draft 2020-12 with the seed id', () => {
    expect(documentJsonSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(documentJsonSchema.$id).toBe(UI_DOCUMENT_SCHEMA_ID);
    expect(UI_DOCUMENT_SCHEMA_ID).toBe('urn:dsh:intelligent-ui:document:1.1');
  });

  it.each(Object.entries(fixtures))('accepts the %s fixture', (_name, fixture) => {
    expect(validate(fixture), JSON.stringify(validate.errors)).toBe(true);
  });

  it('accepts the maximum-size benchmark document', () => {
    expect(validate(buildMaxDocument())).toBe(true);
  });

  const withRootProps = (props: object) => ({
    ...compoundInterest,
    root: { ...compoundInterest.root, props },
  });
  it.each([
    ['an unknown nested property', withRootProps({ gap: 'md', onClick: 'alert(1)' })],
    ['a wrong-case component', { ...compoundInterest, root: { ...compoundInterest.root, type: 'card' } }],
    [
      'children on a leaf',
      { ...compoundInterest, root: { id: 'x', type: 'Text', props: { text: 'a' }, children: [] } },
    ],
    ['actions in 1.0', { ...compoundInterest, actions: {} }],
    ['a 1.1 document without actions', { ...compoundInterest, version: '1.1' }],
    ['an unknown version', { ...compoundInterest, version: '2.0' }],
    ['a forbidden identifier', { ...compoundInterest, id: 'constructor' }],
    ['a number past 1e15', { ...compoundInterest, state: { n: { type: 'number', initial: 1e16 } } }],
    ['a bare state reference as a Value', withRootProps({ title: { state: 'principal' } })],
    ['an unknown operator', { ...compoundInterest, derived: { x: { op: 'eval', args: ['1'] } } }],
    [
      'too many state fields',
      {
        ...compoundInterest,
        state: Object.fromEntries(
          Array.from({ length: 65 }, (_, i) => [`s${i}`, { type: 'boolean', initial: true }]),
        ),
      },
    ],
  ])('rejects %s', (_name, document) => {
    expect(validate(document)).toBe(false);
  });

  it('is the file the build writes (schema/ui.schema.json is generated, never edited)', async () => {
    await expect(`${JSON.stringify(documentJsonSchema, null, 2)}\n`).toMatchFileSnapshot(
      '../../schema/ui.schema.json',
    );
  });

  // The layers agree: whatever parseDocument accepts, the zod schema (the JSON Schema's source) accepts too.
  it.each([...Object.entries(fixtures), ['max-document', buildMaxDocument()]])(
    'the zod schema accepts the %s document that parseDocument accepts',
    (_name, fixture) => {
      const parsed = parseDocument(fixture);
      expect(UIDocumentSchema.safeParse(parsed).success).toBe(true);
    },
  );
});
