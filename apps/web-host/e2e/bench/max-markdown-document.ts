/**
 * The maximum-size document of the render benchmark: the shared package's budget document (200 components,
 * 64 state and 64 derived fields, Table rows up to the byte budget) with 66 of its components (every Card's
 * Text, then Badges, then Charts) turned into Markdown blocks, then padded with Markdown paragraphs to exactly
 * 262,144 bytes. `variant` changes every Markdown text, so a run can render texts the renderer has not seen (and
 * cached) before.
 */
import { buildMaxDocument, documentBytes } from '../../../../packages/shared/bench/max-document.ts';

/** Markdown blocks in the benchmark document. */
export const MARKDOWN_BLOCKS = 66;

type JSONValue = string | number | boolean | null | JSONValue[] | { [key: string]: JSONValue };
type Node = { [key: string]: JSONValue };

function markdownText(block: number, variant: number): string {
  return [
    `### Notes ${block}.${variant}`,
    '',
    `Section **${block}** compares *three* options; the cheapest is ~~not~~ always the best (run ${variant}).`,
    '',
    `- price: \`${1000 + block}\``,
    '- battery: long',
    `- rating: ${(block % 50) / 10}`,
    '',
    '> Checked against the latest figures.',
  ].join('\n');
}

const FILLER = 'The figures above were checked against the latest price list and the review notes. ';

/**
 * Appends a paragraph (`\n\n` and ASCII prose: 4 + n bytes as JSON) to Markdown blocks, at most 1,000 bytes
 * each, until the document is exactly at the budget.
 */
function padToBudget(document: { [key: string]: JSONValue }, cards: Node[]): void {
  const markdown = cards.flatMap((card) =>
    (card.children as Node[]).filter((child) => child.type === 'Markdown'),
  );
  let missing = 262_144 - documentBytes(document);
  for (const node of markdown) {
    if (missing === 0) break;
    let chunk = Math.min(missing, 1_000);
    // Leave a remainder a paragraph can carry (at least 5 bytes), or none.
    if (missing - chunk > 0 && missing - chunk < 5) chunk -= 5;
    if (chunk < 5) throw new Error(`Cannot pad the benchmark document by ${missing} bytes.`);
    const props = node.props as Node;
    props.text = `${props.text as string}\n\n${FILLER.repeat(Math.ceil(chunk / FILLER.length)).slice(0, chunk - 4)}`;
    missing -= chunk;
  }
}

export function buildMarkdownMaxDocument(variant = 0): { [key: string]: JSONValue } {
  // Leave room for the Markdown texts, then swap them in for the first cards' Text nodes.
  const room = MARKDOWN_BLOCKS * (JSON.stringify(markdownText(99, variant)).length + 24);
  const document = buildMaxDocument(262_144 - room);
  const cards = (document.root as Node).children as Node[];
  let block = 0;
  for (const type of ['Text', 'Badge', 'Chart'])
    for (const card of cards) {
      if (block === MARKDOWN_BLOCKS) break;
      const children = card.children as Node[];
      const index = children.findIndex((child) => child.type === type);
      if (index < 0) continue;
      children[index] = {
        id: `markdown${block}`,
        type: 'Markdown',
        props: { text: markdownText(block, variant) },
      };
      block++;
    }
  if (block < MARKDOWN_BLOCKS)
    throw new Error('The benchmark document has too few blocks to turn into Markdown.');
  padToBudget(document, cards);
  if (documentBytes(document) !== 262_144)
    throw new Error(`The benchmark document is ${documentBytes(document)} bytes, not 262,144.`);
  return document;
}
