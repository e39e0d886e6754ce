import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clone, thrown } from '../../test/utils.js';
import { parseDocument } from '../dsl/document.js';
import { documentJsonSchema } from '../dsl/json-schema.js';
import { LineUpProtocolError, UISchemaError, UIStreamError } from '../errors/errors.js';
import type { UIIssue } from '../errors/issues.js';
import { UI_LIMITS } from '../limits/ui-limits.js';
import {
  findIntelligentUITool,
  INTELLIGENT_UI_STREAM_TOOL_NAMES,
  INTELLIGENT_UI_TOOL_BY_NAME,
  INTELLIGENT_UI_TOOL_NAMES,
  INTELLIGENT_UI_TOOLS,
  isIntelligentUIToolName,
} from './tools.js';

// Every shipped fixture, so a new one is covered without touching this test: documents are objects with a
// `version`, stream mutation lists are arrays.
const fixtureFiles = import.meta.glob<unknown>('../../fixtures/*.json', { eager: true, import: 'default' });
const documentFixtures = Object.entries(fixtureFiles).filter(
  ([, value]) => typeof value === 'object' && value !== null && !Array.isArray(value),
);
const mutationFixtures = Object.entries(fixtureFiles).flatMap(([file, value]) =>
  Array.isArray(value) ? value.map((mutation, index) => [`${file}[${index}]`, mutation] as const) : [],
);

const compoundInterest = documentFixtures.find(([file]) =>
  file.endsWith('compound-interest.json'),
)![1] as Record<string, unknown>;

const cursor = { sourceCallId: 'call_01HZX', generation: 1, baseRevision: 0 };

const issuesOf = (error: unknown): readonly UIIssue[] => (error as UISchemaError).issues;

describe('tool definitions', () => {
  it('lists the five tools in order, frozen, with a lookup', () => {
    expect(INTELLIGENT_UI_TOOLS.map((tool) => tool.name)).toEqual([...INTELLIGENT_UI_TOOL_NAMES]);
    expect(Object.isFrozen(INTELLIGENT_UI_TOOLS)).toBe(true);
    expect(Object.isFrozen(INTELLIGENT_UI_TOOL_BY_NAME)).toBe(true);
    for (const tool of INTELLIGENT_UI_TOOLS) {
      expect(Object.isFrozen(tool)).toBe(true);
      expect(Object.isFrozen(tool.parameters)).toBe(true);
      expect(findIntelligentUITool(tool.name)).toBe(tool);
      expect(tool.description.length).toBeGreaterThan(0);
    }
    expect(INTELLIGENT_UI_STREAM_TOOL_NAMES.every(isIntelligentUIToolName)).toBe(true);
  });

  it.each(['read', 'intelligent_ui_action', '__proto__', 'constructor', 'toString', ''])(
    'finds no tool called %j',
    (name) => {
      expect(findIntelligentUITool(name)).toBeUndefined();
      expect(isIntelligentUIToolName(name)).toBe(false);
    },
  );

  it.each(INTELLIGENT_UI_TOOL_NAMES)('%s declares a closed Draft 2020-12 arguments object', (name) => {
    const { parameters } = INTELLIGENT_UI_TOOL_BY_NAME[name];
    expect(parameters.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(parameters.type).toBe('object');
    expect(parameters.additionalProperties).toBe(false);
  });

  it.each([
    ['intelligent_ui', ['document']],
    ['intelligent_ui_open', ['document']],
    ['intelligent_ui_patch', ['sourceCallId', 'generation', 'baseRevision', 'mutation']],
    ['intelligent_ui_complete', ['sourceCallId', 'generation', 'baseRevision']],
    ['intelligent_ui_cancel', ['sourceCallId', 'generation', 'baseRevision']],
  ] as const)('%s has exactly the parameters of seed 002 §12', (name, parameters) => {
    const schema = INTELLIGENT_UI_TOOL_BY_NAME[name].parameters;
    expect(Object.keys(schema.properties as object)).toEqual(parameters);
    expect(schema.required).toEqual(parameters);
  });

  // One source: the document parameter is the exported document JSON Schema, definition for definition.
  it('describes the document exactly as documentJsonSchema does', () => {
    const parameters = INTELLIGENT_UI_TOOL_BY_NAME.intelligent_ui.parameters;
    const document = (parameters.properties as Record<string, { oneOf: unknown }>).document!;
    expect(document.oneOf).toEqual(documentJsonSchema.oneOf);
    const definitions = parameters.$defs as Record<string, unknown>;
    for (const [name, definition] of Object.entries(documentJsonSchema.$defs as Record<string, unknown>)) {
      expect(definitions[name], name).toEqual(definition);
    }
  });
});

describe('the generated parameter schemas under AJV 2020 strict mode', () => {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  const validators = Object.fromEntries(
    INTELLIGENT_UI_TOOLS.map((tool) => [tool.name, ajv.compile(tool.parameters as object)]),
  );
  const validate = (name: string, args: unknown) => validators[name]!(args);

  it.each(documentFixtures)(
    'intelligent_ui and intelligent_ui_open accept %s as { document }',
    (_file, fixture) => {
      expect(validate('intelligent_ui', { document: fixture })).toBe(true);
      expect(validate('intelligent_ui_open', { document: fixture })).toBe(true);
    },
  );

  it.each(mutationFixtures)('intelligent_ui_patch accepts the mutation %s', (_file, mutation) => {
    expect(validate('intelligent_ui_patch', { ...cursor, mutation })).toBe(true);
  });

  it.each(['intelligent_ui_complete', 'intelligent_ui_cancel'])('%s accepts a cursor', (name) => {
    expect(validate(name, cursor)).toBe(true);
  });

  it.each([
    ['a string document', { document: JSON.stringify(compoundInterest) }],
    ['an extra html parameter', { document: compoundInterest, html: '<b>x</b>' }],
    ['an extra tool parameter', { document: compoundInterest, tool: 'read' }],
    ['no document', {}],
    ['an array document', { document: [compoundInterest] }],
  ])('intelligent_ui rejects %s', (_name, args) => {
    expect(validate('intelligent_ui', args)).toBe(false);
  });

  it.each([
    ['a missing baseRevision', { sourceCallId: 'c', generation: 1 }],
    ['generation 0', { ...cursor, generation: 0 }],
    ['a fractional revision', { ...cursor, baseRevision: 1.5 }],
    ['an extra parameter', { ...cursor, seq: 2 }],
    ['a non-ASCII call id', { ...cursor, sourceCallId: 'ruf\u00e9' }],
  ])('intelligent_ui_complete rejects %s', (_name, args) => {
    expect(validate('intelligent_ui_complete', args)).toBe(false);
  });
});

describe('parseArguments of intelligent_ui agrees with parseDocument', () => {
  const tool = INTELLIGENT_UI_TOOL_BY_NAME.intelligent_ui;

  it.each(documentFixtures)('accepts %s and returns what parseDocument returns', (_file, fixture) => {
    const input = { document: clone(fixture) };
    const args = tool.parseArguments(input);
    expect(args.document).toEqual(parseDocument(fixture));
    expect(Object.isFrozen(args)).toBe(true);
    expect(Object.isFrozen(args.document)).toBe(true);
    // The caller's input is never frozen or changed.
    expect(Object.isFrozen(input)).toBe(false);
    expect(Object.isFrozen(input.document)).toBe(false);
    expect(input.document).toEqual(fixture);
  });

  const broken: [string, Record<string, unknown>][] = [
    ['an unknown version', { ...compoundInterest, version: '2.0' }],
    ['actions in 1.0', { ...compoundInterest, actions: {} }],
    ['a bad root', { ...compoundInterest, root: { id: 'x', type: 'card', props: {} } }],
    ['an unknown derived reference', { ...compoundInterest, derived: { a: { derived: 'missing' } } }],
    ['a missing title', { ...compoundInterest, title: undefined }],
  ];

  it.each(broken)('rejects %s with the same codes, paths prefixed `document`', (_name, document) => {
    const input = clone(document);
    const direct = thrown(() => parseDocument(input));
    const viaTool = thrown(() => tool.parseArguments({ document: input }));
    expect(direct).toBeInstanceOf(UISchemaError);
    expect(viaTool).toBeInstanceOf(UISchemaError);
    expect(issuesOf(viaTool)).toEqual(
      issuesOf(direct).map((issue) => ({
        ...issue,
        path: issue.path === '$' ? 'document' : `document.${issue.path}`,
      })),
    );
  });

  it('honours a host document limit', () => {
    const error = thrown(() =>
      tool.parseArguments({ document: compoundInterest }, { maxDocumentBytes: 1024 }),
    );
    expect(error).toBeInstanceOf(UISchemaError);
    expect(issuesOf(error)[0]).toMatchObject({ path: 'document', code: 'too_large' });
    expect(() => tool.parseArguments({ document: compoundInterest }, { maxDocumentBytes: 100 })).toThrow(
      RangeError,
    );
    expect(() =>
      tool.parseArguments(
        { document: compoundInterest },
        { maxDocumentBytes: UI_LIMITS.maxDocumentBytes + 1 },
      ),
    ).toThrow(RangeError);
  });

  // seed 002 §1: one parameter, a JSON object; table of envelope rules with their code and path.
  it.each([
    ['a JSON string document', { document: JSON.stringify(compoundInterest) }, 'document', 'invalid_type'],
    ['an array document', { document: [] }, 'document', 'invalid_type'],
    ['a null document', { document: null }, 'document', 'invalid_type'],
    ['no document', {}, 'document', 'missing_property'],
    ['an html parameter', { document: compoundInterest, html: '<p>' }, '$', 'unknown_property'],
    [
      'code, url and tool parameters',
      { document: compoundInterest, code: 'x', url: 'u', tool: 't' },
      '$',
      'unknown_property',
    ],
    ['a string instead of arguments', 'document', '$', 'invalid_type'],
    ['an array instead of arguments', [compoundInterest], '$', 'invalid_type'],
    ['null', null, '$', 'invalid_type'],
  ])('rejects %s as LineUpProtocolError', (_name, input, path, code) => {
    const error = thrown(() => tool.parseArguments(input));
    expect(error).toBeInstanceOf(LineUpProtocolError);
    expect(issuesOf(error)[0]).toMatchObject({ path, code });
  });

  it('says a string document should be an object, without echoing it', () => {
    const secret = JSON.stringify({ ...compoundInterest, title: 'SECRET-TITLE' });
    const error = thrown(() => tool.parseArguments({ document: secret }));
    expect(issuesOf(error)[0]!.message).toBe('Pass document as a JSON object, not as a JSON string.');
    expect(JSON.stringify(issuesOf(error))).not.toContain('SECRET');
  });

  it('never echoes an unknown parameter name', () => {
    const error = thrown(() => tool.parseArguments({ document: compoundInterest, evil_param_name: 1 }));
    expect(JSON.stringify(issuesOf(error))).not.toContain('evil_param_name');
  });

  it('reports an accessor without calling it', () => {
    let called = false;
    const input = {};
    Object.defineProperty(input, 'document', {
      enumerable: true,
      get() {
        called = true;
        return compoundInterest;
      },
    });
    const error = thrown(() => tool.parseArguments(input));
    expect(error).toBeInstanceOf(LineUpProtocolError);
    expect(called).toBe(false);
  });

  it('agrees with parseDocument on arbitrary JSON documents', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (document) => {
        let direct: unknown;
        try {
          direct = parseDocument(document);
        } catch (error) {
          direct = error;
        }
        let viaTool: unknown;
        try {
          viaTool = tool.parseArguments({ document });
        } catch (error) {
          viaTool = error;
        }
        const isObject = typeof document === 'object' && document !== null && !Array.isArray(document);
        if (!isObject) {
          expect(viaTool).toBeInstanceOf(LineUpProtocolError);
          return;
        }
        if (direct instanceof UISchemaError) {
          expect(viaTool).toBeInstanceOf(UISchemaError);
          expect(issuesOf(viaTool as Error).map((issue) => issue.code)).toEqual(
            direct.issues.map((issue) => issue.code),
          );
        } else {
          expect((viaTool as { document: unknown }).document).toEqual(direct);
        }
      }),
    );
  });
});

describe('parseArguments of intelligent_ui_open', () => {
  const tool = INTELLIGENT_UI_TOOL_BY_NAME.intelligent_ui_open;

  it.each(documentFixtures)('accepts %s', (_file, fixture) => {
    expect(tool.parseArguments({ document: fixture }).document).toEqual(parseDocument(fixture));
  });

  it.each([
    ['a string document', { document: '{}' }, 'document', 'invalid_type'],
    ['an extra parameter', { document: compoundInterest, sourceCallId: 'c' }, '$', 'unknown_property'],
    [
      'an invalid document',
      { document: { ...compoundInterest, mode: 'text' } },
      'document.mode',
      'invalid_value',
    ],
  ])('rejects %s as UIStreamError', (_name, input, path, code) => {
    const error = thrown(() => tool.parseArguments(input));
    expect(error).toBeInstanceOf(UIStreamError);
    expect(issuesOf(error)[0]).toMatchObject({ path, code });
  });
});

describe('parseArguments of the stream cursor tools', () => {
  it.each(mutationFixtures)('intelligent_ui_patch accepts %s', (_file, mutation) => {
    const args = INTELLIGENT_UI_TOOL_BY_NAME.intelligent_ui_patch.parseArguments({ ...cursor, mutation });
    expect(args).toEqual({ ...cursor, mutation });
    expect(Object.isFrozen(args)).toBe(true);
    expect(Object.isFrozen(args.mutation)).toBe(true);
  });

  it.each(['intelligent_ui_complete', 'intelligent_ui_cancel'] as const)('%s accepts a cursor', (name) => {
    const args = INTELLIGENT_UI_TOOL_BY_NAME[name].parseArguments(cursor);
    expect(args).toEqual(cursor);
    expect(Object.isFrozen(args)).toBe(true);
  });

  const remove = { type: 'remove', nodeId: 'loading' };
  it.each([
    ['no mutation', cursor, 'mutation', 'missing_property'],
    ['a string mutation', { ...cursor, mutation: JSON.stringify(remove) }, 'mutation', 'invalid_type'],
    [
      'an unknown mutation type',
      { ...cursor, mutation: { type: 'replace', nodeId: 'a' } },
      'mutation.type',
      'invalid_value',
    ],
    [
      'a mutation with a path',
      { ...cursor, mutation: { ...remove, path: '/root' } },
      'mutation',
      'unknown_property',
    ],
    [
      'a bad node id',
      { ...cursor, mutation: { type: 'remove', nodeId: '__proto__' } },
      'mutation.nodeId',
      'invalid_value',
    ],
    ['generation 0', { ...cursor, generation: 0, mutation: remove }, 'generation', 'number_out_of_range'],
    [
      'a negative revision',
      { ...cursor, baseRevision: -1, mutation: remove },
      'baseRevision',
      'number_out_of_range',
    ],
    ['a string revision', { ...cursor, baseRevision: '1', mutation: remove }, 'baseRevision', 'invalid_type'],
    [
      'an empty call id',
      { ...cursor, sourceCallId: '', mutation: remove },
      'sourceCallId',
      'string_too_short',
    ],
    [
      'a long call id',
      { ...cursor, sourceCallId: 'c'.repeat(257), mutation: remove },
      'sourceCallId',
      'string_too_long',
    ],
    [
      'a missing generation',
      { sourceCallId: 'c', baseRevision: 0, mutation: remove },
      'generation',
      'missing_property',
    ],
    ['an extra seq', { ...cursor, seq: 3, mutation: remove }, '$', 'unknown_property'],
  ])('intelligent_ui_patch rejects %s as UIStreamError', (_name, input, path, code) => {
    const error = thrown(() => INTELLIGENT_UI_TOOL_BY_NAME.intelligent_ui_patch.parseArguments(input));
    expect(error).toBeInstanceOf(UIStreamError);
    expect(issuesOf(error)[0]).toMatchObject({ path, code });
  });

  it('bounds a mutation by the stream event budget', () => {
    const node = { id: 'big', type: 'Markdown', props: { text: 'x'.repeat(UI_LIMITS.maxMarkdownLength) } };
    const column = {
      id: 'col',
      type: 'Column',
      props: {},
      children: Array.from({ length: 5 }, (_, index) => ({ ...node, id: `big${index}` })),
    };
    const error = thrown(() =>
      INTELLIGENT_UI_TOOL_BY_NAME.intelligent_ui_patch.parseArguments({
        ...cursor,
        mutation: { type: 'add', parentId: 'root', index: 0, node: column },
      }),
    );
    expect(error).toBeInstanceOf(UIStreamError);
    expect(issuesOf(error)[0]).toMatchObject({ path: 'mutation', code: 'too_large' });
  });

  it.each(['intelligent_ui_complete', 'intelligent_ui_cancel'] as const)(
    '%s rejects a mutation parameter',
    (name) => {
      const error = thrown(() =>
        INTELLIGENT_UI_TOOL_BY_NAME[name].parseArguments({ ...cursor, mutation: remove }),
      );
      expect(error).toBeInstanceOf(UIStreamError);
      expect(issuesOf(error)[0]).toMatchObject({ path: '$', code: 'unknown_property' });
    },
  );
});

// Whatever a model sends, parseArguments returns or throws one of the documented errors, nothing else.
describe('parseArguments on arbitrary input', () => {
  const documented = [LineUpProtocolError, UISchemaError, UIStreamError];
  it.each(INTELLIGENT_UI_TOOL_NAMES)('%s only throws its documented errors', (name) => {
    const tool = INTELLIGENT_UI_TOOL_BY_NAME[name];
    const wrapped = fc.oneof(
      fc.jsonValue(),
      fc.record({ document: fc.jsonValue() }),
      fc.record({
        sourceCallId: fc.oneof(fc.string(), fc.jsonValue()),
        generation: fc.oneof(fc.integer(), fc.jsonValue()),
        baseRevision: fc.oneof(fc.integer({ min: -1, max: 300 }), fc.jsonValue()),
        mutation: fc.jsonValue(),
      }),
    );
    fc.assert(
      fc.property(wrapped, (input) => {
        try {
          tool.parseArguments(input);
        } catch (error) {
          expect(documented.some((ErrorClass) => error instanceof ErrorClass)).toBe(true);
        }
      }),
    );
  });
});
