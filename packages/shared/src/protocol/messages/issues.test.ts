import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../dsl/document.js';
import { UISchemaError } from '../../errors/errors.js';
import { UI_ISSUE_CODES, type UIIssue } from '../../errors/issues.js';
import { LINEUP_PAYLOAD_SCHEMAS } from '../envelope-schemas.js';
import { LineUpIssueListSchema, wireIssues } from './issues.js';

const issue = (path: string, code: UIIssue['code'] = 'invalid_value', message = 'Not allowed.'): UIIssue => ({
  path,
  code,
  message,
});

describe('wireIssues', () => {
  it('puts paths below the prefix', () => {
    expect(
      wireIssues([issue('$'), issue('root.children[2]'), issue('[0].id')], 'payload.document').map(
        (entry) => entry.path,
      ),
    ).toEqual(['payload.document', 'payload.document.root.children[2]', 'payload.document[0].id']);
    expect(wireIssues([issue('$')])[0]?.path).toBe('$');
  });

  it('shows a key that is not an identifier as [*], and nothing outside printable ASCII', () => {
    const [entry] = wireIssues([issue('payload.state["<img src=x onerror=alert(1)>"].deep["a\\"b"]')]);
    expect(entry?.path).toBe('payload.state[*].deep[*]');
    expect(wireIssues([issue('state.名前…')])[0]?.path).toBe('state.???');
  });

  it('keeps at most 10 issues, and gives one when there are none', () => {
    expect(wireIssues(Array.from({ length: 20 }, (_, index) => issue(`a[${index}]`)))).toHaveLength(10);
    expect(wireIssues([], 'payload')).toEqual([
      { path: 'payload', code: 'invalid_value', message: 'Invalid message.' },
    ]);
  });

  it('always gives a valid issue list, whoever built the issues', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            path: fc.string({ maxLength: 700, unit: 'binary' }),
            code: fc.oneof(fc.constantFrom(...UI_ISSUE_CODES), fc.string()),
            message: fc.string({ maxLength: 400, unit: 'binary' }),
          }),
          { maxLength: 25 },
        ),
        fc.constantFrom('', 'payload', 'payload.document'),
        (issues, prefix) => {
          const result = LineUpIssueListSchema.safeParse(wireIssues(issues as UIIssue[], prefix));
          expect(result.success).toBe(true);
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('carries the located issues of a refused document', () => {
    let error: unknown;
    try {
      parseDocument({ version: '1.0', id: 'd', mode: 'structured_ui', title: 't', state: {}, derived: {} });
    } catch (caught) {
      error = caught;
    }
    if (!(error instanceof UISchemaError)) throw new Error('expected a UISchemaError');
    expect(wireIssues(error.issues, 'payload.document')).toEqual([
      expect.objectContaining({ path: 'payload.document.root', code: 'missing_property' }),
    ]);
  });
});

describe('issues in answers', () => {
  const unsupported = LINEUP_PAYLOAD_SCHEMAS['lineup.v1.unsupported'];
  const issues = wireIssues([issue('payload.call_id', 'missing_property', 'This property is required.')]);

  it('an invalid_message answer carries issues, and only it does', () => {
    expect(unsupported.safeParse({ message_id: 'm', reason: 'invalid_message', issues }).success).toBe(true);
    expect(unsupported.safeParse({ message_id: 'm', reason: 'invalid_message' }).success).toBe(false);
    expect(unsupported.safeParse({ message_id: 'm', reason: 'unknown_type', issues }).success).toBe(false);
    expect(unsupported.safeParse({ message_id: 'm', reason: 'unknown_conversation' }).success).toBe(true);
  });

  it('tool and capability results may carry issues in their error', () => {
    const tool = LINEUP_PAYLOAD_SCHEMAS['lineup.v1.tool.result'];
    const app = LINEUP_PAYLOAD_SCHEMAS['lineup.v1.app.result'];
    expect(
      tool.safeParse({ call_id: 'c', outcome: 'error', error: { code: 'invalid_message', issues } }).success,
    ).toBe(true);
    expect(
      app.safeParse({ call_id: 'c', status: 'failed', error: { code: 'invalid_message', issues } }).success,
    ).toBe(true);
    expect(tool.safeParse({ call_id: 'c', outcome: 'error', error: { code: 'x', issues } }).success).toBe(
      false,
    );
    expect(
      tool.safeParse({ call_id: 'c', outcome: 'error', error: { code: 'invalid_message', issues: [] } })
        .success,
    ).toBe(false);
  });
});
