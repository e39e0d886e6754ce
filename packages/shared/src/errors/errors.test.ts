import { describe, expect, it } from 'vitest';
import {
  isLineUpError,
  LINEUP_ERROR_CODES,
  LineUpError,
  LineUpProtocolError,
  UIActionError,
  UIExpressionError,
  UISchemaError,
  UIStateError,
  UIStreamError,
} from './errors.js';
import { createIssue } from './issues.js';

const issue = createIssue(['root', 'children', 0], 'invalid_type', 'Expected object.');

/** What an error thrown by another copy of the package looks like to this one: same brand, other classes. */
function fromAnotherCopy(): Error {
  class OtherCopyError extends Error {
    readonly code = 'protocol_invalid';
    readonly issues = [issue];
  }
  const error = new OtherCopyError('root.children[0]: Expected object.');
  Object.defineProperty(error, Symbol.for('@lineup/error'), { value: true });
  return error;
}

describe('LineUpError', () => {
  it.each([
    ['UISchemaError', () => new UISchemaError([issue])],
    ['UIStateError', () => new UIStateError([issue])],
    ['UIActionError', () => new UIActionError([issue])],
    ['UIStreamError', () => new UIStreamError([issue])],
    ['LineUpProtocolError', () => new LineUpProtocolError([issue])],
    ['UIExpressionError', () => new UIExpressionError('Division by zero.', 'args[1]')],
  ] as const)('%s is one of the family, with its stable code and issues', (name, make) => {
    const error = make();
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(LineUpError);
    expect(isLineUpError(error)).toBe(true);
    expect(error.name).toBe(name);
    expect(error.code).toBe(LINEUP_ERROR_CODES[name]);
    expect(error.issues.length).toBe(1);
    expect(Object.isFrozen(error.issues)).toBe(true);
  });

  it('an expression error carries its place as an issue', () => {
    const error = new UIExpressionError('Division by zero.', 'args[1]');
    expect(error.issues).toEqual([
      { path: 'args[1]', code: 'evaluation_failed', message: 'Division by zero.' },
    ]);
    expect(error.path).toBe('args[1]');
    expect(error.message).toBe('Division by zero.');
  });

  it('keeps the issues bounded: at most 20, and the message summarizes the first', () => {
    const error = new UISchemaError(Array.from({ length: 50 }, () => issue));
    expect(error.issues).toHaveLength(20);
    expect(error.message).toBe('root.children[0]: Expected object. (and 19 more issues)');
  });

  it('recognizes an error of another copy of the package by its brand', () => {
    const other = fromAnotherCopy();
    expect(isLineUpError(other)).toBe(true);
    expect(other instanceof LineUpError).toBe(true);
    // A particular class is a prototype check: another copy's error is not this copy's LineUpProtocolError.
    expect(other instanceof LineUpProtocolError).toBe(false);
  });

  it.each([
    ['a plain Error', new Error('x')],
    ['an error with code and issues but no brand', Object.assign(new Error('x'), { code: 'x', issues: [] })],
    ['a branded object that is not an Error', { [Symbol.for('@lineup/error')]: true, code: 'x', issues: [] }],
    ['null', null],
    ['a string', 'LineUpProtocolError'],
  ])('does not take %s for one', (_, value) => {
    expect(isLineUpError(value)).toBe(false);
    expect(value instanceof LineUpError).toBe(false);
  });

  it('a class of the family does not claim its siblings', () => {
    expect(new UISchemaError([issue]) instanceof UIStateError).toBe(false);
    expect(new LineUpProtocolError([issue]) instanceof UISchemaError).toBe(false);
  });

  it('a package can extend it with its own codes, and keep a cause', () => {
    class StoreError extends LineUpError<'not_found'> {
      override readonly name = 'StoreError';
    }
    const cause = new Error('disk');
    const error = new StoreError('not_found', 'No such conversation.', { cause });
    expect(isLineUpError(error)).toBe(true);
    expect(error.code).toBe('not_found');
    expect(error.issues).toEqual([]);
    expect(error.cause).toBe(cause);
    expect(error instanceof StoreError).toBe(true);
  });
});
