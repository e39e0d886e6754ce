/**
 * The parsers of this checkout's build against another build of the package, paired in one run: build
 * (`pnpm --filter @lineup/shared build`), then
 * `LINEUP_BASELINE=/path/to/old/packages/shared/dist pnpm --filter @lineup/shared bench bench/baseline`.
 * Both sides run compiled `dist/` code. Each group prints both medians and the ratio; a refactor must not make
 * a parser slower. Skipped without `LINEUP_BASELINE`.
 */
import { bench, describe } from 'vitest';
import { buildMaxDocument } from './max-document.js';

declare global {
  interface ImportMeta {
    readonly env: Readonly<Record<string, string | undefined>>;
  }
}

type Build = {
  readonly shared: typeof import('../src/index.js');
  readonly protocol: typeof import('../src/protocol/index.js');
};

async function load(dir: string): Promise<Build> {
  return {
    shared: await import(/* @vite-ignore */ `${dir}/index.js`),
    protocol: await import(/* @vite-ignore */ `${dir}/protocol/index.js`),
  };
}

const baselineDir = import.meta.env.LINEUP_BASELINE;
const baseline = baselineDir === undefined ? undefined : await load(baselineDir);
const current = baselineDir === undefined ? undefined : await load('../dist');

const maxDocument = buildMaxDocument();
const envelope = {
  v: 1,
  id: 'msg_ui_01',
  type: 'lineup.v1.ui.document',
  conversation_id: 'conv_01',
  sender: { kind: 'agent', id: 'agent_hermes_main' },
  payload: { document: maxDocument },
};
const envelopeText = JSON.stringify(envelope);
if (current !== undefined && current.protocol.parseEnvelopeText(envelopeText).kind !== 'message')
  throw new Error('the envelope is refused');

/** Long enough for a few hundred samples of a 10 ms parse, so the medians settle. */
const OPTIONS = { time: 3_000, warmupTime: 500 };

const group = baseline === undefined ? describe.skip : describe;

group('parseDocument, maximum-size document: baseline build vs this checkout', () => {
  // The input is a plain object, so every call validates it in full (only a returned document is cached).
  bench(
    'baseline build',
    () => {
      baseline?.shared.parseDocument(maxDocument);
    },
    OPTIONS,
  );
  bench(
    'this checkout',
    () => {
      current?.shared.parseDocument(maxDocument);
    },
    OPTIONS,
  );
});

group('parseEnvelopeText, a ui.document message: baseline build vs this checkout', () => {
  bench(
    'baseline build',
    () => {
      baseline?.protocol.parseEnvelopeText(envelopeText);
    },
    OPTIONS,
  );
  bench(
    'this checkout',
    () => {
      current?.protocol.parseEnvelopeText(envelopeText);
    },
    OPTIONS,
  );
});
