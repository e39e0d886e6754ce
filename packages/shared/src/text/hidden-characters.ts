/**
 * Characters that render as nothing yet reach a model that reads the text: a tool description can carry
 * instructions the user never sees (tool poisoning). Three kinds, as the MCP security guidance and the Unicode
 * standard name them:
 * - `zero_width` — U+200B–U+200F (zero-width space, non-joiner, joiner, the left-to-right and right-to-left marks),
 *   U+2060–U+2064 (word joiner and the invisible operators), U+FEFF (zero-width no-break space), U+061C (Arabic
 *   letter mark);
 * - `bidi_control` — U+202A–U+202E (embeddings and overrides) and U+2066–U+2069 (isolates): they reorder what is
 *   shown, so the text on screen is not the text in the string;
 * - `tag` — U+E0000–U+E007F: an invisible copy of ASCII (U+E0041 is a hidden "A"), the "ASCII smuggling" carrier.
 *
 * LineUp does not refuse such text — the zero-width joiner builds emoji and the marks belong to right-to-left
 * scripts — but shows it with every such character made visible (`revealHiddenCharacters`) and flags it
 * (`findHiddenCharacters`), wherever a person decides about it.
 */

export const HIDDEN_CHARACTER_KINDS = ['zero_width', 'bidi_control', 'tag'] as const;
export type HiddenCharacterKind = (typeof HIDDEN_CHARACTER_KINDS)[number];

/** One hidden character: where it is (UTF-16 index), its code point and its kind. */
export interface HiddenCharacter {
  readonly index: number;
  readonly codePoint: number;
  readonly kind: HiddenCharacterKind;
}

/** The kind of `codePoint`, or undefined for a character that shows. */
export function hiddenCharacterKind(codePoint: number): HiddenCharacterKind | undefined {
  if (
    (codePoint >= 0x200b && codePoint <= 0x200f) ||
    (codePoint >= 0x2060 && codePoint <= 0x2064) ||
    codePoint === 0xfeff ||
    codePoint === 0x061c
  )
    return 'zero_width';
  if ((codePoint >= 0x202a && codePoint <= 0x202e) || (codePoint >= 0x2066 && codePoint <= 0x2069))
    return 'bidi_control';
  if (codePoint >= 0xe0000 && codePoint <= 0xe007f) return 'tag';
  return undefined;
}

/** A quick test that skips the scan for the common text without any (all of them lie past U+061B). */
const MAYBE_HIDDEN =
  /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|\udb40[\udc00-\udc7f]/;

/** Every hidden character of `text`, in order. */
export function findHiddenCharacters(text: string): HiddenCharacter[] {
  if (!MAYBE_HIDDEN.test(text)) return [];
  const found: HiddenCharacter[] = [];
  let index = 0;
  for (const character of text) {
    const codePoint = character.codePointAt(0) as number;
    const kind = hiddenCharacterKind(codePoint);
    if (kind !== undefined) found.push({ index, codePoint, kind });
    index += character.length;
  }
  return found;
}

const hex = (codePoint: number) => codePoint.toString(16).toUpperCase().padStart(4, '0');

/**
 * `text` with each hidden character made visible: `⟦U+200B⟧` for a zero-width or bidi character, and a run of tag
 * characters as the ASCII it hides, `⟦tags: ignore the user⟧` (a tag outside printable ASCII as `\u{E0001}`). Text
 * without hidden characters comes back unchanged.
 */
export function revealHiddenCharacters(text: string): string {
  if (!MAYBE_HIDDEN.test(text)) return text;
  let out = '';
  let tags = '';
  const flushTags = () => {
    if (tags !== '') out += `⟦tags: ${tags}⟧`;
    tags = '';
  };
  for (const character of text) {
    const codePoint = character.codePointAt(0) as number;
    const kind = hiddenCharacterKind(codePoint);
    if (kind === 'tag') {
      const ascii = codePoint - 0xe0000;
      tags += ascii >= 0x20 && ascii <= 0x7e ? String.fromCharCode(ascii) : `\\u{${hex(codePoint)}}`;
      continue;
    }
    flushTags();
    out += kind === undefined ? character : `⟦U+${hex(codePoint)}⟧`;
  }
  flushTags();
  return out;
}
