import { expect, test } from 'vitest';
import tools from './tools.js';

// A handler runs as the runtime runs it: the arguments checked against the input schema, the result against the
// output schema.
const context = { signal: new AbortController().signal };

test('add keeps a note and returns the count', async () => {
  expect(await tools.handle('add', { text: 'Buy milk' }, context)).toEqual({
    status: 'ok',
    result: { count: 1 },
  });
});

test('add refuses arguments without text, naming the field', async () => {
  const outcome = await tools.handle('add', {}, context);
  expect(outcome).toMatchObject({ status: 'error', code: 'invalid_arguments' });
  expect(outcome.status === 'error' ? outcome.message : '').toContain('text');
});
