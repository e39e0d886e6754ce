/**
 * The validator against the official JSON Schema Test Suite (vendored in test/json-schema-test-suite, see its
 * README): every case of every vendored file, in both dialects a carried schema may declare. A group whose
 * schema the runtime refuses at install (outside the admitted vocabulary, or a reference that leaves the
 * document) must be listed in EXPECTED_REFUSALS with the reason; a case the validator gets wrong must be listed
 * in EXPECTED_FAILURES with why. Both lists are exact: a new failure fails, and so does a listed one that passes.
 */
import { describe, expect, it } from 'vitest';
import { SchemaUnusableError } from './schema-check.js';
import { assertUsableSchema, matchesSchema } from './schema-validator.js';

interface SuiteCase {
  readonly description: string;
  readonly data: unknown;
  readonly valid: boolean;
}
interface SuiteGroup {
  readonly description: string;
  readonly schema: object | boolean;
  readonly tests: readonly SuiteCase[];
}

// As text, parsed here: a JSON module would turn a `"__proto__"` key into a prototype.
const FILES = import.meta.glob<string>('../../test/json-schema-test-suite/*/*.json', {
  eager: true,
  query: '?raw',
  import: 'default',
});

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/** Why a group's schema is refused: the refusal is the runtime's rule, not a validator fault. */
const REMOTE =
  'unresolved_reference: its $ref leaves the document (a remote schema or the meta-schema); nothing is fetched';
const DYNAMIC_SCOPE =
  'unsupported_dynamic_reference: $dynamicRef across embedded resources (nested $id), whose dynamic scope is not followed';

/** `<dialect>/<file>: <group>` → the reason (its code first) the runtime refuses its schema at install. */
const EXPECTED_REFUSALS: Readonly<Record<string, string>> = {
  'draft2020-12/defs.json: validate definition against metaschema': REMOTE,
  'draft2020-12/dynamicRef.json: A $dynamicRef resolves to the first $dynamicAnchor still in scope that is encountered when the schema is evaluated':
    DYNAMIC_SCOPE,
  'draft2020-12/dynamicRef.json: A $dynamicRef without anchor in fragment behaves identical to $ref':
    DYNAMIC_SCOPE,
  "draft2020-12/dynamicRef.json: A $dynamicRef with intermediate scopes that don't include a matching $dynamicAnchor does not affect dynamic scope resolution":
    DYNAMIC_SCOPE,
  'draft2020-12/dynamicRef.json: An $anchor with the same name as a $dynamicAnchor is not used for dynamic scope resolution':
    DYNAMIC_SCOPE,
  'draft2020-12/dynamicRef.json: A $dynamicRef without a matching $dynamicAnchor in the same schema resource behaves like a normal $ref to $anchor':
    DYNAMIC_SCOPE,
  'draft2020-12/dynamicRef.json: A $dynamicRef with a non-matching $dynamicAnchor in the same schema resource behaves like a normal $ref to $anchor':
    DYNAMIC_SCOPE,
  'draft2020-12/dynamicRef.json: A $dynamicRef that initially resolves to a schema with a matching $dynamicAnchor resolves to the first $dynamicAnchor in the dynamic scope':
    DYNAMIC_SCOPE,
  'draft2020-12/dynamicRef.json: A $dynamicRef that initially resolves to a schema without a matching $dynamicAnchor behaves like a normal $ref to $anchor':
    DYNAMIC_SCOPE,
  'draft2020-12/dynamicRef.json: multiple dynamic paths to the $dynamicRef keyword': DYNAMIC_SCOPE,
  'draft2020-12/dynamicRef.json: after leaving a dynamic scope, it is not used by a $dynamicRef':
    DYNAMIC_SCOPE,
  'draft2020-12/dynamicRef.json: strict-tree schema, guards against misspelled properties': REMOTE,
  'draft2020-12/dynamicRef.json: tests for implementation dynamic anchor and reference link': REMOTE,
  'draft2020-12/dynamicRef.json: $ref and $dynamicAnchor are independent of order - $defs first': REMOTE,
  'draft2020-12/dynamicRef.json: $ref and $dynamicAnchor are independent of order - $ref first': REMOTE,
  'draft2020-12/dynamicRef.json: $ref to $dynamicRef finds detached $dynamicAnchor': REMOTE,
  'draft2020-12/dynamicRef.json: $dynamicRef skips over intermediate resources - direct reference':
    DYNAMIC_SCOPE,
  'draft2020-12/dynamicRef.json: $dynamicRef avoids the root of each schema, but scopes are still registered':
    DYNAMIC_SCOPE,
  'draft2020-12/ref.json: remote ref, containing refs itself': REMOTE,
  'draft2020-12/unevaluatedItems.json: unevaluatedItems with $dynamicRef': DYNAMIC_SCOPE,
  'draft2020-12/unevaluatedProperties.json: unevaluatedProperties with $dynamicRef': DYNAMIC_SCOPE,
  'draft7/definitions.json: validate definition against metaschema': REMOTE,
  'draft7/ref.json: remote ref, containing refs itself': REMOTE,
};

/** `<dialect>/<file>: <group> / <case>` → why the validator gets it wrong. */
const EXPECTED_FAILURES: Readonly<Record<string, string>> = {
  'draft2020-12/ref.json: order of evaluation: $id and $anchor and $ref / data is valid against first definition':
    "the interpreter also files an embedded resource's $anchor under the enclosing resource, where the later one wins",
  'draft7/ref.json: $ref prevents a sibling $id from changing the base uri / $ref resolves to /definitions/base_foo, data does not validate':
    'draft-07 ignores every sibling of $ref, $id included; the interpreter lets the sibling $id set the base URI',
  'draft7/ref.json: $ref prevents a sibling $id from changing the base uri / $ref resolves to /definitions/base_foo, data validates':
    'draft-07 ignores every sibling of $ref, $id included; the interpreter lets the sibling $id set the base URI',
};

interface Row {
  readonly key: string;
  readonly schema: object | boolean;
  readonly data: unknown;
  readonly valid: boolean;
  readonly groupKey: string;
}

const groups: { readonly key: string; readonly schema: object | boolean }[] = [];
const rows: Row[] = [];
for (const [path, text] of Object.entries(FILES).sort(([a], [b]) => (a < b ? -1 : 1))) {
  const [dialect, name] = path.split('/').slice(-2) as [string, string];
  for (const group of JSON.parse(text) as SuiteGroup[]) {
    // A draft-7 file's schemas declare their dialect as a carried schema does.
    const schema =
      dialect === 'draft7' && typeof group.schema === 'object' && !('$schema' in group.schema)
        ? { $schema: DRAFT_07, ...group.schema }
        : group.schema;
    const groupKey = `${dialect}/${name}: ${group.description}`;
    groups.push({ key: groupKey, schema });
    for (const test of group.tests)
      rows.push({
        key: `${groupKey} / ${test.description}`,
        schema,
        data: test.data,
        valid: test.valid,
        groupKey,
      });
  }
}

function refusal(schema: object | boolean): string | null {
  try {
    assertUsableSchema(schema);
    return null;
  } catch (error) {
    if (error instanceof SchemaUnusableError) return error.reason;
    throw error;
  }
}

describe('JSON Schema Test Suite', () => {
  it('lists only groups and cases that exist', () => {
    const groupKeys = new Set(groups.map((group) => group.key));
    const rowKeys = new Set(rows.map((row) => row.key));
    expect(Object.keys(EXPECTED_REFUSALS).filter((key) => !groupKeys.has(key))).toEqual([]);
    expect(Object.keys(EXPECTED_FAILURES).filter((key) => !rowKeys.has(key))).toEqual([]);
  });

  it.each(groups)('$key', ({ key, schema }) => {
    expect(refusal(schema), 'refused at install').toBe(EXPECTED_REFUSALS[key]?.split(':')[0] ?? null);
  });

  it.each(rows.filter((row) => EXPECTED_REFUSALS[row.groupKey] === undefined))('$key', (row) => {
    const expected = EXPECTED_FAILURES[row.key] === undefined ? row.valid : !row.valid;
    expect(matchesSchema(row.schema, row.data)).toBe(expected);
  });
});
