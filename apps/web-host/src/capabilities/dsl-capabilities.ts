/**
 * The DSL capabilities of the Web Reference Host (seed 002 §11): what a 1.1 document's `capabilityId` may name.
 * Each is a binding onto one of this host's wire capabilities (web-capabilities.ts): the runtime asks the user by
 * that capability's risk, runs its handler, and makes public only the fields listed here, as scalars.
 *
 * - `read_file` → `device.pick_file`: the seed's file reader. A browser page cannot open a path, so the user picks
 *   the file (the document's `file_path` and `limit` are accepted and not used);
 *   public: `totalLines` (lines of its text; a last line break does not start a new line), `name`, `size`.
 *   A file larger than `PICK_FILE_MAX_BYTES` or not text fails with `file_too_large` / `not_text`.
 * - `copy_text` → `clipboard.write`: public `written`.
 * - `save_text` → `artifact.save` as a text file: public `saved`, `bytes`.
 */
import { CapabilityError, type DslCapabilityBinding } from '@lineup/runtime';
import { PICK_FILE_MAX_BYTES } from './web-capabilities.ts';

const flat = (properties: Record<string, unknown>, required: string[]) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/** Lines of a text: `a\nb` and `a\nb\n` both have 2; an empty text has 0. */
export function countLines(text: string): number {
  if (text === '') return 0;
  const breaks = text.match(/\r\n|\r|\n/g)?.length ?? 0;
  return /(?:\r\n|\r|\n)$/.test(text) ? breaks : breaks + 1;
}

export const WEB_DSL_CAPABILITIES: readonly DslCapabilityBinding[] = [
  {
    id: 'read_file',
    title: 'Read a file you pick',
    description:
      'You pick a text file on your device (a page cannot open a path); its number of lines, name and size are shown. Nothing else of it is shared.',
    capability: 'device.pick_file',
    parameters: flat(
      {
        file_path: { type: 'string', maxLength: 1024 },
        limit: { type: 'integer', minimum: 1, maximum: 1_000_000 },
      },
      [],
    ),
    resultFields: ['totalLines', 'name', 'size'],
    toArguments: () => ({ max_bytes: PICK_FILE_MAX_BYTES }),
    toResult: (output) => {
      if (output.text_omitted === 'too_large') throw new CapabilityError('file_too_large');
      if (typeof output.text !== 'string') throw new CapabilityError('not_text');
      return { totalLines: countLines(output.text), name: output.name, size: output.size };
    },
  },
  {
    id: 'copy_text',
    title: 'Copy text',
    description: 'Copies a text to your clipboard, replacing what is there.',
    capability: 'clipboard.write',
    parameters: flat({ text: { type: 'string', minLength: 1, maxLength: 16_384 } }, ['text']),
    resultFields: ['written'],
  },
  {
    id: 'save_text',
    title: 'Save a text file',
    description: 'Saves a text to your downloads under the given file name.',
    capability: 'artifact.save',
    parameters: flat(
      {
        filename: { type: 'string', minLength: 1, maxLength: 128 },
        content: { type: 'string', maxLength: 32_768 },
      },
      ['filename', 'content'],
    ),
    resultFields: ['saved', 'bytes'],
    toArguments: (args) => ({ filename: args.filename, content: args.content, media_type: 'text/plain' }),
  },
];
