/**
 * prepareAgentClient: the one-time cost of reading a page's first large agent message, paid ahead when the page
 * is idle.
 */
import { readEnvelopeText } from '@lineup/shared/protocol';

/** Cards of the sample message's document (about 29 KB of JSON) and how often it is read (measured, README). */
const SAMPLE_CARDS = 17;
const SAMPLE_RUNS = 4;

let prepared = false;

/**
 * The JSON text of an agent's `lineup.v1.ui.document` message shaped like a real one: nested nodes with ids,
 * props and children, a table's rows, Markdown with escapes and non-ASCII text, numbers of every form. It need
 * not be a valid document (the envelope does not judge the document; `parseDocument` does, and
 * `prepareRenderer` of `@lineup/renderer-react` prepares that): the envelope reading walks it as JSON.
 */
export function sampleMessageText(cards: number): string {
  const children: unknown[] = [];
  for (let card = 0; card < cards; card++) {
    const rows: unknown[] = [];
    for (let row = 0; row < 12; row++)
      rows.push({
        name: `Item ${card}.${row} — “kept”`,
        price: 100 + row * 7.25,
        stock: row % 3 === 0,
        note: null,
      });
    children.push({
      id: `card-${card}`,
      type: 'Card',
      props: { title: `Sample ${card}`, gap: 'sm' },
      children: [
        { id: `heading-${card}`, type: 'Heading', props: { text: `Sample heading ${card}`, level: 3 } },
        {
          id: `markdown-${card}`,
          type: 'Markdown',
          props: {
            text: `Some **notes** for ${card}:\n\n- one\t"quoted"\n- two \\ 二\n\n> ${'text '.repeat(40)}`,
          },
        },
        {
          id: `slider-${card}`,
          type: 'Slider',
          props: { label: 'Amount', value: { bind: `amount${card}` }, min: -1.5e3, max: 2e3, step: 0.5 },
        },
        {
          id: `table-${card}`,
          type: 'Table',
          props: {
            columns: [
              { key: 'name', label: 'Name' },
              { key: 'price', label: 'Price', format: { style: 'currency', currency: 'EUR' } },
              { key: 'stock', label: 'In stock' },
            ],
            rows,
          },
        },
      ],
    });
  }
  return JSON.stringify({
    v: 1,
    id: 'msg_prepare',
    type: 'lineup.v1.ui.document',
    conversation_id: 'conv_prepare',
    sender: { kind: 'agent', id: 'agent_prepare' },
    payload: {
      document: {
        version: '1.1',
        id: 'prepare',
        title: 'Prepared',
        root: { id: 'root', type: 'Column', props: { gap: 'md' }, children },
      },
    },
  });
}

/**
 * Pays ahead what a page's first large agent message costs the first time it is read, whatever the message:
 * `readEnvelopeText` — the scan of the JSON text against the envelope's budget before `JSON.parse`, the parse,
 * and the envelope's checks and frozen copy — runs four times over a 29 KB sample message, as code that has run
 * before rather than for the first time on the agent's message. Call it once when the page is idle after it
 * loaded, such as in `requestIdleCallback`, beside `prepareRenderer` (`@lineup/renderer-react`); it takes 20–60 ms
 * (median about 30 ms) the first time in a freshly loaded Chromium page on a 2-core machine, and nothing after. It reads no storage, sends nothing and changes
 * nothing an `AgentClient` does.
 */
export function prepareAgentClient(): void {
  if (prepared) return;
  prepared = true;
  const text = sampleMessageText(SAMPLE_CARDS);
  for (let run = 0; run < SAMPLE_RUNS; run++) {
    const read = readEnvelopeText(text, { direction: 'agent_to_client' });
    // The sample must be read whole to prepare anything: a refusal stops at the first issue.
    if (read.kind !== 'message')
      throw new Error(`prepareAgentClient: the sample message was not read (${read.kind}).`);
  }
}
