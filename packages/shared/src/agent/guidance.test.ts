import { describe, expect, it } from 'vitest';
import { UI_EXPRESSION_OPERATORS, UI_OPERATORS } from '../dsl/catalog.js';
import {
  UI_COMPONENT_TYPES,
  UI_COMPONENTS,
  UI_INPUT_COMPONENTS,
  UI_LAYOUT_COMPONENTS,
} from '../dsl/components.js';
import { parseDocument } from '../dsl/document.js';
import { UI_LIMITS, UI_PROTOCOL_LIMITS, UI_SCHEMA_LIMITS } from '../limits/ui-limits.js';
import { INTELLIGENT_UI_PROMPT_EXAMPLE, intelligentUIPromptSection } from './guidance.js';
import { INTELLIGENT_UI_STREAM_TOOL_NAMES, INTELLIGENT_UI_TOOL_NAMES } from './tools.js';

const ALL = { tools: INTELLIGENT_UI_TOOL_NAMES };
const DOCUMENT_ONLY = { tools: ['intelligent_ui'] };
const WITH_ACTIONS = {
  tools: INTELLIGENT_UI_TOOL_NAMES,
  actions: {
    capabilities: [
      {
        id: 'read_file',
        title: 'Read a file',
        description: 'Reads a text file.\nPublic result: totalLines.',
      },
      { id: 'write_file', title: 'Write a file' },
    ],
  },
};

/** The `### …` headings of a section. */
const headings = (text: string) => text.split('\n').filter((line) => line.startsWith('###'));

/** The component list entry of `type`. */
const componentRow = (text: string, type: string) =>
  text.split('\n').find((line) => line.startsWith(`- \`${type}\` \``)) ?? '';

describe('intelligentUIPromptSection', () => {
  // seed 004 §2: the section a reviewer reads, diffed on every change.
  it('matches the reviewed snapshot with every tool and host actions', async () => {
    await expect(intelligentUIPromptSection(WITH_ACTIONS)).toMatchFileSnapshot(
      './__snapshots__/prompt-section.md',
    );
  });

  it('matches the reviewed snapshot with intelligent_ui alone', async () => {
    await expect(intelligentUIPromptSection(DOCUMENT_ONLY)).toMatchFileSnapshot(
      './__snapshots__/prompt-section.document-only.md',
    );
  });

  it('is deterministic', () => {
    expect(intelligentUIPromptSection(WITH_ACTIONS)).toBe(intelligentUIPromptSection(WITH_ACTIONS));
  });

  // Cannot drift: every name of the catalog is in the prompt, with its exact props and arity.
  it.each(UI_COMPONENT_TYPES)('documents the %s component with each of its props', (type) => {
    for (const options of [ALL, WITH_ACTIONS]) {
      const row = componentRow(intelligentUIPromptSection(options), type);
      expect(row).not.toBe('');
      const { required, optional } = UI_COMPONENTS[type];
      for (const name of required) expect(row).toMatch(new RegExp(`[{,] ${name}: `));
      for (const name of optional) expect(row).toMatch(new RegExp(`[{,] ${name}\\?: `));
    }
  });

  it.each(UI_EXPRESSION_OPERATORS)('documents the %s operator with its arity', (operator) => {
    const { minArgs, maxArgs } = UI_OPERATORS[operator];
    const arity = minArgs === maxArgs ? `${minArgs}` : `${minArgs}–${maxArgs}`;
    expect(intelligentUIPromptSection(ALL)).toContain(`- \`${operator}\`: ${arity} argument`);
  });

  it('names the layout and input components and the plans', () => {
    const text = intelligentUIPromptSection(ALL);
    for (const name of [...UI_LAYOUT_COMPONENTS, ...UI_INPUT_COMPONENTS])
      expect(text).toContain(`\`${name}\``);
    for (const plan of ['`text`', '`structured_ui`', '`interactive_ui`']) expect(text).toContain(plan);
    expect(text).toContain(`### The ${UI_COMPONENT_TYPES.length} components`);
    expect(text).toContain(`### The ${UI_EXPRESSION_OPERATORS.length} operators`);
  });

  it('states the key limits from the limit tables', () => {
    const text = intelligentUIPromptSection(WITH_ACTIONS);
    for (const fact of [
      '262,144 bytes',
      `${UI_LIMITS.maxComponents} nodes`,
      `${UI_LIMITS.maxDepth} levels`,
      `at most ${UI_LIMITS.maxStateFields} fields`,
      '2,048 nodes',
      `${UI_LIMITS.maxExpressionDepth} levels deep`,
      `up to ${UI_SCHEMA_LIMITS.maxToolIssues} issues`,
      `at most ${UI_PROTOCOL_LIMITS.maxActions} per document`,
      `at most ${UI_PROTOCOL_LIMITS.maxStreamFrames} results`,
    ]) {
      expect(text).toContain(fact);
    }
  });

  it('states a lower host document limit', () => {
    const text = intelligentUIPromptSection({ ...DOCUMENT_ONLY, maxDocumentBytes: 65_536 });
    expect(text).toContain('at most 65,536 bytes of JSON (this host’s limit)');
  });

  // seed 004 §2: "工具被 Agent scope 隐藏时，相应规划章节不输出".
  it('is empty when neither intelligent_ui nor intelligent_ui_open is offered', () => {
    expect(intelligentUIPromptSection({ tools: [] })).toBe('');
    expect(
      intelligentUIPromptSection({ tools: ['read', 'intelligent_ui_patch', 'intelligent_ui_complete'] }),
    ).toBe('');
  });

  it('omits the stream section when the stream tools are hidden', () => {
    const text = intelligentUIPromptSection(DOCUMENT_ONLY);
    expect(headings(text)).not.toContain('### Component streaming');
    for (const name of INTELLIGENT_UI_STREAM_TOOL_NAMES) expect(text).not.toContain(name);
    expect(text).not.toMatch(/sourceCallId|baseRevision/);
  });

  it('omits the intelligent_ui section when only the stream tools are offered', () => {
    const text = intelligentUIPromptSection({ tools: INTELLIGENT_UI_STREAM_TOOL_NAMES });
    expect(headings(text)).toContain('### Component streaming');
    expect(headings(text)).not.toContain('### Calling `intelligent_ui`');
    expect(text).not.toMatch(/`intelligent_ui`/);
    expect(text).toContain('Call `intelligent_ui_open` with `mode: "interactive_ui"`');
  });

  it('mentions only the stream tools that are offered', () => {
    const text = intelligentUIPromptSection({
      tools: ['intelligent_ui', 'intelligent_ui_open', 'intelligent_ui_complete'],
    });
    expect(text).toContain('intelligent_ui_complete');
    expect(text).not.toContain('intelligent_ui_patch');
    expect(text).not.toContain('intelligent_ui_cancel');
    expect(text).not.toContain('`mutation` is one of');
  });

  it('teaches DSL 1.0 only unless the host runs 1.1 actions', () => {
    const text = intelligentUIPromptSection(ALL);
    expect(headings(text)).not.toContain('### Host actions (DSL 1.1)');
    expect(text).not.toMatch(/invoke|capabilityId|"1\.1"/);
    expect(text).toContain('- `version`: `"1.0"`');
  });

  it('teaches 1.1 actions and lists the capabilities when the host runs them', () => {
    const text = intelligentUIPromptSection(WITH_ACTIONS);
    expect(headings(text)).toContain('### Host actions (DSL 1.1)');
    expect(text).toContain('- `version`: `"1.0" | "1.1"`');
    expect(text).toContain('{ "type": "invoke", "actionId": Identifier }');
    expect(text).toContain('- `read_file`: Read a file — Reads a text file. Public result: totalLines.');
    expect(text).toContain('- `write_file`: Write a file');
  });

  it('says when no capability is configured', () => {
    const text = intelligentUIPromptSection({ ...DOCUMENT_ONLY, actions: { capabilities: [] } });
    expect(text).toContain('No capabilities are configured now: use only `agent` actions.');
  });

  it.each([
    [
      'a document limit above the shared one',
      { ...DOCUMENT_ONLY, maxDocumentBytes: UI_LIMITS.maxDocumentBytes + 1 },
      RangeError,
    ],
    ['a document limit below 1,024', { ...DOCUMENT_ONLY, maxDocumentBytes: 1_000 }, RangeError],
    [
      'a capability id that is no identifier',
      { ...DOCUMENT_ONLY, actions: { capabilities: [{ id: '1x', title: 't' }] } },
      TypeError,
    ],
    [
      'too many capabilities',
      {
        ...DOCUMENT_ONLY,
        actions: {
          capabilities: Array.from({ length: UI_PROTOCOL_LIMITS.maxCapabilities + 1 }, (_, index) => ({
            id: `c${index}`,
            title: 't',
          })),
        },
      },
      RangeError,
    ],
  ])('rejects %s', (_name, options, ErrorClass) => {
    expect(() => intelligentUIPromptSection(options)).toThrow(ErrorClass);
  });

  it('shows an example that parseDocument accepts', () => {
    expect(parseDocument(INTELLIGENT_UI_PROMPT_EXAMPLE)).toEqual(INTELLIGENT_UI_PROMPT_EXAMPLE);
    const text = intelligentUIPromptSection(DOCUMENT_ONLY);
    const json = /```json\n([\s\S]*?)\n```/.exec(text)?.[1];
    expect(JSON.parse(json ?? 'null')).toEqual(INTELLIGENT_UI_PROMPT_EXAMPLE);
  });
});
