/**
 * The host's DSL capabilities: each binds a declared wire capability, the catalog derives their risks, and the file
 * reader's adapters count lines and refuse what they cannot read with a stable code.
 */
import 'fake-indexeddb/auto';
import {
  ActionRunner,
  AppRegistry,
  CapabilityError,
  CapabilityRuntime,
  ConversationStore,
  openRuntimeDatabase,
} from '@lineup/runtime';
import { describe, expect, it } from 'vitest';
import { countLines, WEB_DSL_CAPABILITIES } from './dsl-capabilities.ts';
import { PICK_FILE_MAX_BYTES, WEB_CAPABILITIES } from './web-capabilities.ts';

const readFile = WEB_DSL_CAPABILITIES.find((binding) => binding.id === 'read_file');

describe('countLines', () => {
  it.each([
    ['', 0],
    ['one', 1],
    ['one\n', 1],
    ['one\ntwo', 2],
    ['one\ntwo\n', 2],
    ['one\r\ntwo\r\n', 2],
    ['one\rtwo', 2],
    ['\n', 1],
    ['\n\n', 2],
    ['番茄\n✓', 2],
  ])('%j has %i lines', (text, lines) => {
    expect(countLines(text)).toBe(lines);
  });
});

describe('WEB_DSL_CAPABILITIES', () => {
  it('bind declared wire capabilities only, and the catalog shows them with derived risks', async () => {
    const declared = new Set(WEB_CAPABILITIES.map((capability) => capability.name));
    for (const binding of WEB_DSL_CAPABILITIES) expect(declared).toContain(binding.capability);
    const db = await openRuntimeDatabase('dsl-capabilities-test');
    await new AppRegistry(db).declareCapabilities(WEB_CAPABILITIES);
    const runner = new ActionRunner(db, {
      documents: new ConversationStore(db),
      capabilities: new CapabilityRuntime(db, { handlers: {} }),
      bindings: WEB_DSL_CAPABILITIES,
    });
    expect((await runner.catalog()).map((item) => [item.id, item.risk, item.resultFields])).toEqual([
      ['read_file', 'write', ['totalLines', 'name', 'size']],
      ['copy_text', 'write', ['written']],
      ['save_text', 'write', ['saved', 'bytes']],
    ]);
  });

  it('read_file asks for the largest text the picker returns, and counts its lines', () => {
    expect(readFile?.toArguments?.({ file_path: 'README.md', limit: 20 })).toEqual({
      max_bytes: PICK_FILE_MAX_BYTES,
    });
    expect(readFile?.toResult?.({ name: 'a.txt', type: 'text/plain', size: 8, text: 'a\nb\nc\n' })).toEqual({
      totalLines: 3,
      name: 'a.txt',
      size: 8,
    });
  });

  it('read_file refuses a file too large or not text with a stable code', () => {
    const code = (output: Record<string, unknown>) => {
      try {
        readFile?.toResult?.(output);
      } catch (error) {
        return error instanceof CapabilityError ? error.code : 'other';
      }
      return 'none';
    };
    expect(code({ name: 'big', type: 'text/plain', size: 99_999, text_omitted: 'too_large' })).toBe(
      'file_too_large',
    );
    expect(code({ name: 'img', type: 'image/png', size: 10, text_omitted: 'not_text' })).toBe('not_text');
  });
});
