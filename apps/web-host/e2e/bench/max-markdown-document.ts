/**
 * The maximum-size document of the render benchmark: the shared package's budget document (200 components,
 * 64 state and 64 derived fields, Table rows up to the byte budget) with 66 of its components (every Card's
 * Text, then Badges, then Charts) turned into Markdown blocks, kept just under 262,144 bytes. `variant` changes every Markdown text, so a run can
 * render texts the renderer has not seen (and cached) before.
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
  if (documentBytes(document) > 262_144) throw new Error('The benchmark document is over the byte budget.');
  return document;
}
