/**
 * The language of a document's own text, for the `lang` attribute (so a screen reader reads a Chinese document
 * as Chinese). The DSL carries no language, so without a host-given `lang` the renderer guesses from the script
 * of the document's static text: Han without kana is Chinese, kana is Japanese, Hangul Korean; anything else
 * leaves `lang` to the page.
 */
import type { UIDocument, UINode } from '@lineup/shared';

/** Characters sampled at most: enough to tell the script, bounded for large documents. */
const SAMPLE_LIMIT = 2_000;

/** Props that hold prose (not bind names, ids or enum values). */
const TEXT_PROPS = ['title', 'text', 'label', 'submitLabel', 'message'] as const;

function sampleText(document: UIDocument): string {
  let sample = document.title;
  const visit = (node: UINode): void => {
    if (sample.length >= SAMPLE_LIMIT) return;
    const props = node.props as Record<string, unknown>;
    for (const key of TEXT_PROPS) if (typeof props[key] === 'string') sample += ` ${props[key]}`;
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(document.root);
  return sample.slice(0, SAMPLE_LIMIT);
}

/** A BCP 47 tag for the document's text, or `undefined` when it looks like the page's (Latin and others). */
export function guessDocumentLanguage(document: UIDocument): string | undefined {
  const sample = sampleText(document);
  const count = (pattern: RegExp) => sample.match(pattern)?.length ?? 0;
  const kana = count(/[\p{Script=Hiragana}\p{Script=Katakana}]/gu);
  const hangul = count(/\p{Script=Hangul}/gu);
  const han = count(/\p{Script=Han}/gu);
  const latin = count(/\p{Script=Latin}/gu);
  // A CJK character carries about a word; a Latin word is about five letters.
  if (kana > 0 && (kana + han) * 5 >= latin) return 'ja';
  if (hangul * 3 >= latin && hangul > 0) return 'ko';
  if (han > 0 && han * 5 >= latin) return 'zh';
  return undefined;
}
