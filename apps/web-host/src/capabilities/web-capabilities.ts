/**
 * The Web Reference Host's capabilities (seed 000 §5.2–§5.3): what an agent may ask this page to do on the user's
 * device with `app.call`, each run only after the user's consent (the runtime asks by risk; see consent.ts).
 *
 * - `app.open_url` — opens an http(s) page in a new tab, without giving it this page (`noopener`).
 * - `clipboard.write` — puts text on the clipboard.
 * - `device.pick_file` — the user picks a file; its name, type and size come back, and its text when it is at
 *   most `max_bytes` (never cut: a larger file says `text_omitted`).
 * - `artifact.save` — downloads agent-provided text or JSON as a file the user keeps.
 *
 * Each handler throws `CapabilityError` with a stable code when the browser refuses; the agent never sees the
 * browser's own message.
 */
import { type CapabilityDeclaration, CapabilityError, type CapabilityHandler } from '@lineup/runtime';

/** The largest file text `device.pick_file` returns (bytes of the file); the result stays under 64 KiB. */
export const PICK_FILE_MAX_BYTES = 16_384;

const strict = (properties: Record<string, unknown>, required: string[]) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

type Declaration = CapabilityDeclaration;

export const WEB_CAPABILITIES: readonly Declaration[] = [
  {
    name: 'app.open_url',
    version: '1.0',
    risk: 'user_confirmation',
    description: 'Opens a web page in a new browser tab. The page does not get access to this one.',
    input_schema: strict({ url: { type: 'string', maxLength: 2048, pattern: '^https?://[^\\s]+$' } }, [
      'url',
    ]),
    output_schema: strict({ opened: { type: 'boolean' } }, ['opened']),
  },
  {
    name: 'clipboard.write',
    version: '1.0',
    risk: 'user_confirmation',
    description: 'Copies text to your clipboard, replacing what is there.',
    input_schema: strict({ text: { type: 'string', minLength: 1, maxLength: 16384 } }, ['text']),
    output_schema: strict({ written: { type: 'boolean' } }, ['written']),
  },
  {
    name: 'device.pick_file',
    version: '1.0',
    risk: 'system_permission',
    description:
      'Asks you to pick one file from your device. Its name, type and size are shared, and its text when it is small.',
    input_schema: strict(
      {
        accept: { type: 'string', maxLength: 256, pattern: '^[A-Za-z0-9.+/*,_-]*$' },
        max_bytes: { type: 'integer', minimum: 1, maximum: PICK_FILE_MAX_BYTES },
      },
      [],
    ),
    output_schema: strict(
      {
        name: { type: 'string' },
        type: { type: 'string' },
        size: { type: 'integer', minimum: 0 },
        text: { type: 'string' },
        text_omitted: { enum: ['too_large', 'not_text'] },
      },
      ['name', 'type', 'size'],
    ),
  },
  {
    name: 'artifact.save',
    version: '1.0',
    risk: 'user_confirmation',
    description: 'Saves a file the agent wrote to your downloads.',
    input_schema: strict(
      {
        filename: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9][A-Za-z0-9 ._-]*$' },
        content: { type: 'string', maxLength: 32768 },
        media_type: { enum: ['text/plain', 'text/markdown', 'text/csv', 'application/json'] },
      },
      ['filename', 'content', 'media_type'],
    ),
    output_schema: strict({ saved: { type: 'boolean' }, bytes: { type: 'integer', minimum: 0 } }, [
      'saved',
      'bytes',
    ]),
  },
] as Declaration[];

/** What the handlers use of the page (a test passes its own). */
export interface WebCapabilityEnvironment {
  readonly window: Window;
  readonly document: Document;
}

export function webCapabilityHandlers(
  env: WebCapabilityEnvironment = { window, document },
): Record<string, CapabilityHandler> {
  return {
    'app.open_url': (args) => {
      const url = new URL(String(args.url));
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CapabilityError('unsupported_url');
      // The browser opens a tab only right after a press (the consent dialog's "Allow"). Without one — a call the
      // user let run without asking — it would block the tab silently, so the agent is told instead.
      if (env.window.navigator.userActivation?.isActive === false) throw new CapabilityError('popup_blocked');
      // With noopener, window.open returns null even when the tab opened: the browser gives no other proof.
      env.window.open(url.href, '_blank', 'noopener,noreferrer');
      return { opened: true };
    },
    'clipboard.write': async (args) => {
      const clipboard = env.window.navigator.clipboard;
      if (clipboard === undefined) throw new CapabilityError('clipboard_unavailable');
      try {
        await clipboard.writeText(String(args.text));
      } catch {
        throw new CapabilityError('clipboard_refused');
      }
      return { written: true };
    },
    'device.pick_file': async (args) => {
      const file = await pickFile(env.document, typeof args.accept === 'string' ? args.accept : '');
      const limit = typeof args.max_bytes === 'number' ? args.max_bytes : PICK_FILE_MAX_BYTES;
      const base = { name: file.name.slice(0, 256), type: file.type.slice(0, 128), size: file.size };
      if (file.size > limit) return { ...base, text_omitted: 'too_large' };
      const bytes = new Uint8Array(await file.arrayBuffer());
      try {
        return { ...base, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
      } catch {
        return { ...base, text_omitted: 'not_text' };
      }
    },
    'artifact.save': (args) => {
      const content = String(args.content);
      const blob = new Blob([content], { type: `${String(args.media_type)};charset=utf-8` });
      const url = URL.createObjectURL(blob);
      const link = env.document.createElement('a');
      link.href = url;
      link.download = String(args.filename);
      link.rel = 'noopener';
      env.document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      return { saved: true, bytes: blob.size };
    },
  };
}

/** Opens the browser's file chooser; rejects `no_file_picked` when the user closes it without a file. */
function pickFile(document: Document, accept: string): Promise<File> {
  return new Promise((resolve, reject) => {
    const input = document.createElement('input');
    input.type = 'file';
    if (accept !== '') input.accept = accept;
    input.hidden = true;
    input.dataset.lineupPickFile = '';
    const done = () => input.remove();
    input.addEventListener('change', () => {
      const file = input.files?.[0];
      done();
      if (file === undefined) reject(new CapabilityError('no_file_picked'));
      else resolve(file);
    });
    input.addEventListener('cancel', () => {
      done();
      reject(new CapabilityError('no_file_picked'));
    });
    document.body.append(input);
    input.click();
  });
}
