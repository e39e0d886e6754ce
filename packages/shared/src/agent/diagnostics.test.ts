import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import compoundInterest from '../../fixtures/compound-interest.json' with { type: 'json' };
import fileReader from '../../fixtures/file-reader.json' with { type: 'json' };
import productComparison from '../../fixtures/product-comparison.json' with { type: 'json' };
import { parseDocument } from '../dsl/document.js';
import {
  LineUpProtocolError,
  UIActionError,
  UIExpressionError,
  UISchemaError,
  UIStateError,
  UIStreamError,
} from '../errors/errors.js';
import { createIssue, UI_ISSUE_CODES, type UIIssue } from '../errors/issues.js';
import { UI_SCHEMA_LIMITS } from '../limits/ui-limits.js';
import { advanceUIStream, startUIStream } from '../stream/stream.js';
import {
  formatIssuesForModel,
  intelligentUIStreamToolResult,
  intelligentUIToolResult,
} from './diagnostics.js';
import { INTELLIGENT_UI_TOOL_BY_NAME } from './tools.js';

const issues = (count: number): UIIssue[] =>
  Array.from({ length: count }, (_, index) =>
    createIssue(
      ['root', 'children', index, 'props'],
      'unknown_property',
      'Unknown property; this object is closed.',
    ),
  );

/** The issue lines (`- path: code — message`) of a formatted diagnostic. */
const issueLines = (text: string) =>
  text.split('\n').filter((line) => line.startsWith('- ') && !line.startsWith('- …'));

describe('formatIssuesForModel', () => {
  it('formats each issue as `path: code — message`', () => {
    const text = formatIssuesForModel(new UISchemaError(issues(2)));
    expect(text.split('\n')).toEqual([
      'The UI document was rejected (2 issues). Nothing was shown or changed. Fix every issue listed and call the tool again.',
      '- root.children[0].props: unknown_property — Unknown property; this object is closed.',
      '- root.children[1].props: unknown_property — Unknown property; this object is closed.',
    ]);
  });

  // seed 002 §8: a host shows a model at most 10 issues.
  it.each([1, 9, 10, 11, 19, 20])('shows at most %i → 10 issues and counts the rest', (count) => {
    const text = formatIssuesForModel(new UISchemaError(issues(count)));
    const shown = Math.min(count, UI_SCHEMA_LIMITS.maxToolIssues);
    expect(issueLines(text)).toHaveLength(shown);
    if (count > shown) {
      const more = count >= UI_SCHEMA_LIMITS.maxIssues ? `${count - shown} or more` : `${count - shown}`;
      expect(text).toContain(`- … ${more} further issue`);
    } else {
      expect(text).not.toContain('…');
    }
  });

  it.each([
    ['UISchemaError', new UISchemaError(issues(1)), 'The UI document was rejected'],
    ['UIStreamError', new UIStreamError(issues(1)), 'The UI stream call was rejected'],
    ['LineUpProtocolError', new LineUpProtocolError(issues(1)), 'The tool arguments were rejected'],
    ['UIStateError', new UIStateError(issues(1)), 'The state update was rejected'],
    ['UIActionError', new UIActionError(issues(1)), 'The UI action was rejected'],
    ['UIExpressionError', new UIExpressionError('Division by zero.', 'args[1]'), 'The expression failed'],
  ])('names what a %s rejected', (_name, error, subject) => {
    expect(formatIssuesForModel(error).startsWith(subject)).toBe(true);
  });

  it('reports an expression error at its path', () => {
    expect(formatIssuesForModel(new UIExpressionError('Division by zero.', 'args[1]'))).toContain(
      '- args[1]: evaluation_failed — Division by zero.',
    );
  });

  it.each([
    ['a plain Error', new Error('ENOENT /home/user/.secret token=abc')],
    ['a TypeError', new TypeError('Cannot read properties of undefined (reading "secret")')],
    ['a string', 'secret string'],
    ['an object with issues', { issues: [{ path: 'secret', code: 'x', message: 'secret' }] }],
    ['undefined', undefined],
  ])('turns %s into one fixed sentence without echoing it', (_name, error) => {
    const text = formatIssuesForModel(error);
    expect(text).toBe(
      'The tool call failed on the host; nothing was shown to the user. Do not retry the same call unchanged.',
    );
  });

  it('bounds every part of an issue, whoever built it', () => {
    const forged = {
      path: 'p'.repeat(5_000),
      code: 'not_a_code',
      message: 'm'.repeat(5_000),
    } as unknown as UIIssue;
    const error = new UISchemaError([]);
    Object.defineProperty(error, 'issues', { value: [forged] });
    const [line] = issueLines(formatIssuesForModel(error));
    expect(line).toContain(': invalid_value — ');
    expect(line!.length).toBeLessThanOrEqual(
      2 +
        UI_SCHEMA_LIMITS.maxIssuePathLength +
        ': invalid_value — '.length +
        UI_SCHEMA_LIMITS.maxIssueMessageLength,
    );
  });

  it('stays bounded for any issues', () => {
    const issue = fc.record({
      path: fc.string({ maxLength: 1_000 }),
      code: fc.constantFrom(...UI_ISSUE_CODES),
      message: fc.string({ maxLength: 1_000 }),
    });
    fc.assert(
      fc.property(fc.array(issue, { maxLength: 40 }), (list) => {
        const text = formatIssuesForModel(
          new UIStreamError(list.map((i) => createIssue([], i.code, i.message, i.path))),
        );
        expect(issueLines(text).length).toBeLessThanOrEqual(UI_SCHEMA_LIMITS.maxToolIssues);
        expect(text.length).toBeLessThan(
          400 +
            UI_SCHEMA_LIMITS.maxToolIssues *
              (UI_SCHEMA_LIMITS.maxIssuePathLength + UI_SCHEMA_LIMITS.maxIssueMessageLength + 40),
        );
      }),
    );
  });

  it('formats what parseArguments throws', () => {
    const tool = INTELLIGENT_UI_TOOL_BY_NAME.intelligent_ui;
    try {
      tool.parseArguments({
        document: {
          ...compoundInterest,
          root: { id: 'x', type: 'Text', props: { text: { state: 'principal' } } },
        },
      });
      expect.unreachable();
    } catch (error) {
      expect(formatIssuesForModel(error)).toContain('- document.root.props.text: ');
    }
  });
});

describe('intelligentUIToolResult', () => {
  it('gives the model a short receipt and keeps the document for the metadata', () => {
    const document = parseDocument(compoundInterest);
    const result = intelligentUIToolResult(document);
    expect(result.presentationMeta.document).toBe(document);
    expect(result.render).toBe(
      'Shown to the user: UI document `compact-interest` (DSL 1.0, interactive_ui, 8 components, 3 state fields, 2 derived fields). The user edits values locally; those edits do not reach you.',
    );
    expect(Object.isFrozen(result)).toBe(true);
    expect(Object.isFrozen(result.presentationMeta)).toBe(true);
  });

  it('counts actions of a 1.1 document and says they run on a click', () => {
    const { render } = intelligentUIToolResult(parseDocument(fileReader));
    expect(render).toContain('DSL 1.1');
    expect(render).toContain('1 action)');
    expect(render).toContain('Actions run only when the user clicks');
  });

  it('does not mention edits for a structured_ui document', () => {
    const { render } = intelligentUIToolResult(parseDocument(productComparison));
    expect(render).toContain('structured_ui');
    expect(render).not.toContain('edits');
  });

  it('never contains the document content', () => {
    const document = parseDocument(compoundInterest);
    const { render } = intelligentUIToolResult(document);
    expect(render).not.toContain(document.title);
    expect(render.length).toBeLessThan(400);
  });

  it('validates a document that did not come from parseDocument', () => {
    expect(() => intelligentUIToolResult({ ...compoundInterest, version: '9' } as never)).toThrow(
      UISchemaError,
    );
  });
});

describe('intelligentUIStreamToolResult', () => {
  const initial = { ...compoundInterest, id: 'streamed' };

  it('states the cursors of the next call (seed 004 §5)', () => {
    const opened = startUIStream(initial, 'call_01', 7);
    const result = intelligentUIStreamToolResult(opened.checkpoint);
    expect(result.render).toBe(
      'Opened streamed UI `streamed` (sourceCallId "call_01", generation 7, revision 0, seq 1). Next call: sourceCallId "call_01", generation 7, baseRevision 0.',
    );
    expect(result.presentationMeta.checkpoint).toBe(opened.checkpoint);
    expect(Object.isFrozen(result)).toBe(true);

    const patched = advanceUIStream(opened, {
      type: 'remove',
      nodeId: compoundInterest.root.children[0]!.id,
    });
    expect(intelligentUIStreamToolResult(patched.checkpoint).render).toBe(
      'Removed a node from streamed UI `streamed` (sourceCallId "call_01", generation 7, revision 1, seq 2). Next call: sourceCallId "call_01", generation 7, baseRevision 1.',
    );
  });

  it.each([
    ['complete', 'Completed streamed UI'],
    ['cancel', 'Cancelled streamed UI'],
    ['error', 'ended with an error'],
  ] as const)('says the generation is over after %s', (type, outcome) => {
    const ended = advanceUIStream(startUIStream(initial, 'call_02', 1), { type });
    const { render } = intelligentUIStreamToolResult(ended.checkpoint);
    expect(render).toContain(outcome);
    expect(render).toContain('revision 0, seq 2');
    expect(render).toContain('This generation is over');
    expect(render).not.toContain('Next call');
  });
});
