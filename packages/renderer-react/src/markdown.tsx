/**
 * The Markdown component's boundary (seed 002 §5 "Markdown 的实际边界"): CommonMark plus GitHub's strikethrough,
 * raw HTML skipped, only the elements of `UI_MARKDOWN_ALLOWED_ELEMENTS` made, everything else unwrapped into its
 * text. Links keep their text but are not clickable; images, iframes and media never load; code is shown, never
 * run.
 *
 * The parser is `markdown-it` (CommonMark 0.31), its tokens turned into React elements here. The output is the
 * one `react-markdown` gave with `skipHtml`, the allowlist and `unwrapDisallowed` (the renderer's parser until
 * 0.x): the same elements, attributes and text, line endings included, checked against it on a corpus and on
 * generated Markdown (markdown.differential.test.tsx). `react-markdown` parsed the maximum document's 66 blocks
 * in about 160 ms on a fresh page, this in about 30 ms (the renderer README's "Speed").
 *
 * Speed: the rendered elements are cached by (heading level, text) in a bounded cache, so a stream frame or a
 * second view of the same text does not parse it again, and the component is memoized on its props, so a change
 * of local state does not even re-render it.
 */
import { UI_MARKDOWN_ALLOWED_ELEMENTS } from '@lineup/shared';
import MarkdownIt, { type Delimiter, type StateInline as InlineState, type Token } from 'markdown-it';
import { createElement, Fragment, memo, type ReactElement, type ReactNode } from 'react';
import { type HeadingLevel, nextHeadingLevel } from './outline.js';

/** What a token sequence is turned into before React: an element, text, or a skipped HTML block's place. */
type Piece = string | Element | typeof SKIPPED;
interface Element {
  readonly tag: string;
  readonly props: Record<string, string | number> | null;
  readonly children: Piece[];
}

/** Where a raw HTML block was: it takes a place among its siblings (and their line endings), then is removed. */
const SKIPPED = Symbol('skipped HTML');

const ALLOWED: ReadonlySet<string> = new Set(UI_MARKDOWN_ALLOWED_ELEMENTS);

const TILDE = 0x7e;
/** Delimiter markers for runs of one and two tildes: pairs only match runs of the same length (GFM). */
const ONE_TILDE = -TILDE;

/**
 * GFM strikethrough (`~one~`, `~~two~~`): runs of one or two tildes, opened and closed by runs of the same
 * length under CommonMark's flanking rules; a longer run is text.
 */
function strikethroughTokenize(state: InlineState, silent: boolean): boolean {
  if (silent || state.src.charCodeAt(state.pos) !== TILDE) return false;
  const scanned = state.scanDelims(state.pos, true);
  const token = state.push('text', '', 0);
  token.content = state.src.slice(state.pos, state.pos + scanned.length);
  if (scanned.length <= 2)
    state.delimiters.push({
      marker: scanned.length === 1 ? ONE_TILDE : TILDE,
      length: 0,
      token: state.tokens.length - 1,
      end: -1,
      open: scanned.can_open,
      close: scanned.can_close,
    });
  state.pos += scanned.length;
  return true;
}

/**
 * Emphasis (`*`, `_`) as markdown-it tokenizes it, but with a tilde beside a run counting as GFM has it (micromark's
 * "attention markers"): a run followed by `~` may open, one preceded by `~` may close.
 */
function emphasisTokenize(state: InlineState, silent: boolean): boolean {
  const marker = state.src.charCodeAt(state.pos);
  if (silent || (marker !== 0x5f && marker !== 0x2a)) return false;
  // With words splittable, markdown-it's open and close are CommonMark's left and right flanking.
  const { can_open: left, can_close: right, length } = state.scanDelims(state.pos, true);
  const previous = state.pos > 0 ? state.src.charCodeAt(state.pos - 1) : 0x20;
  const next = state.pos + length < state.posMax ? state.src.charCodeAt(state.pos + length) : 0x20;
  const open = left || next === TILDE;
  const close = right || previous === TILDE;
  const { isWhiteSpace, isPunctChar, isMdAsciiPunct } = state.md.utils;
  const sided = (code: number) =>
    isWhiteSpace(code) || isMdAsciiPunct(code) || isPunctChar(String.fromCharCode(code));
  const canOpen = marker === 0x2a ? open : open && (sided(previous) || !close);
  const canClose = marker === 0x2a ? close : close && (sided(next) || !open);
  for (let i = 0; i < length; i++) {
    const token = state.push('text', '', 0);
    token.content = String.fromCharCode(marker);
    state.delimiters.push({
      marker,
      length,
      token: state.tokens.length - 1,
      end: -1,
      open: canOpen,
      close: canClose,
    });
  }
  state.pos += length;
  return true;
}

function strikethroughPairs(state: InlineState, delimiters: readonly Delimiter[]): void {
  for (const start of delimiters) {
    if ((start.marker !== TILDE && start.marker !== ONE_TILDE) || start.end === -1) continue;
    const end = delimiters[start.end]!;
    for (const [index, type, nesting] of [
      [start.token, 's_open', 1],
      [end.token, 's_close', -1],
    ] as const) {
      const token = state.tokens[index]!;
      token.type = type;
      token.tag = 'del';
      token.nesting = nesting;
      token.content = '';
    }
  }
}

function strikethroughPostProcess(state: InlineState): boolean {
  strikethroughPairs(state, state.delimiters);
  for (const meta of state.tokens_meta) if (meta?.delimiters) strikethroughPairs(state, meta.delimiters);
  return false;
}

/**
 * CommonMark with raw HTML recognised (so it can be skipped, never shown as markup), no typographic
 * replacements, no linkify. Blocks nest as deep as a Markdown text can (16,384 characters): markdown-it drops
 * what lies deeper than `maxNesting`, so the bound is never reached (a stack overflow comes first, as it did with
 * react-markdown, and the node shows its error).
 */
const parser = new MarkdownIt('commonmark', { html: true, maxNesting: 20_000 });

/**
 * Inline syntax is parsed with a bound of its own: markdown-it recurses once per bracket while it looks for the
 * end of a link's or an image's label, and past the bound it reads a bracket as text (nothing is dropped), so
 * `[[[[…` of any length is text rather than a stack overflow. Emphasis does not recurse here.
 */
const INLINE_MAX_NESTING = 64;
parser.core.ruler.at('inline', (state) => {
  const options = state.md.options;
  const blockNesting = options.maxNesting;
  options.maxNesting = INLINE_MAX_NESTING;
  try {
    for (const token of state.tokens)
      if (token.type === 'inline') state.md.inline.parse(token.content, state.md, state.env, token.children!);
  } finally {
    options.maxNesting = blockNesting;
  }
});
// Every link is unwrapped into its text whatever its URL (none is ever made an element), so a `javascript:` link
// is a link too: its text is shown, like any other link's, not its Markdown source.
parser.validateLink = () => true;
parser.inline.ruler.at('emphasis', emphasisTokenize);
parser.inline.ruler.push('gfm_strikethrough', strikethroughTokenize);
parser.inline.ruler2.after('balance_pairs', 'gfm_strikethrough', strikethroughPostProcess);

/** `wrap` of mdast-util-to-hast: a line ending between pieces, and around them when `loose`. */
function wrap(pieces: Piece[], loose: boolean): Piece[] {
  const result: Piece[] = loose ? ['\n'] : [];
  pieces.forEach((piece, index) => {
    if (index > 0) result.push('\n');
    result.push(piece);
  });
  if (loose && pieces.length > 0) result.push('\n');
  return result;
}

/** Spaces and tabs around line endings removed (trim-lines, as mdast-util-to-hast does to text). */
function trimLines(text: string): string {
  return text.includes('\n') ? text.replace(/[ \t]*\n[ \t]*/g, '\n') : text;
}

/** Builds the pieces of `tokens` (one block or inline sequence) from `index` up to the closing token. */
class Builder {
  #previousHeading: number;
  readonly #base: HeadingLevel;

  constructor(base: HeadingLevel) {
    this.#base = base;
    this.#previousHeading = base;
  }

  /** Block tokens from `start` until a token closing the current level; returns the pieces and the next index. */
  blocks(tokens: readonly Token[], start: number): [Piece[], number] {
    const pieces: Piece[] = [];
    let index = start;
    while (index < tokens.length) {
      const token = tokens[index]!;
      if (token.nesting === -1) return [pieces, index];
      index++;
      switch (token.type) {
        case 'paragraph_open': {
          const [children, next] = this.#inlineBlock(tokens, index);
          index = next;
          pieces.push({ tag: 'p', props: token.hidden ? { tight: 1 } : null, children });
          break;
        }
        case 'heading_open': {
          const requested = Number(token.tag.slice(1));
          const depth = nextHeadingLevel(this.#base, requested, this.#previousHeading);
          this.#previousHeading = depth;
          const [children, next] = this.#inlineBlock(tokens, index);
          index = next;
          pieces.push({ tag: `h${depth}`, props: null, children });
          break;
        }
        case 'blockquote_open': {
          const [children, close] = this.blocks(tokens, index);
          index = close + 1;
          pieces.push({ tag: 'blockquote', props: null, children: wrap(children, true) });
          break;
        }
        case 'bullet_list_open':
        case 'ordered_list_open': {
          const items: Piece[] = [];
          const start = token.attrGet('start');
          // A list is loose unless markdown-it hid its items' paragraphs (CommonMark's tightness).
          let listTight: boolean | undefined;
          while (tokens[index]?.type === 'list_item_open') {
            const [children, close] = this.blocks(tokens, index + 1);
            index = close + 1;
            items.push({ tag: 'li', props: null, children });
            for (const child of children)
              if (typeof child === 'object' && child.tag === 'p') listTight = child.props !== null;
          }
          index++; // list close
          const loose = listTight === false;
          for (const item of items) listItem(item as Element, loose);
          pieces.push({
            tag: token.type === 'bullet_list_open' ? 'ul' : 'ol',
            props: start !== null && Number(start) !== 1 ? { start: Number(start) } : null,
            children: wrap(items, true),
          });
          break;
        }
        case 'code_block':
        case 'fence': {
          const value = token.content.endsWith('\n') ? token.content.slice(0, -1) : token.content;
          const language =
            token.type === 'fence' ? parser.utils.unescapeAll(token.info).trim().split(/\s+/)[0] : '';
          pieces.push({
            tag: 'pre',
            props: null,
            children: [
              {
                tag: 'code',
                props: language ? { className: `language-${language}` } : null,
                children: value ? [`${value}\n`] : [''],
              },
            ],
          });
          break;
        }
        case 'hr':
          pieces.push({ tag: 'hr', props: null, children: [] });
          break;
        case 'html_block':
          pieces.push(SKIPPED);
          break;
        default:
          break;
      }
    }
    return [pieces, index];
  }

  /** The content of a paragraph or heading whose open token precedes `index`; the index after its close. */
  #inlineBlock(tokens: readonly Token[], index: number): [Piece[], number] {
    const inline = tokens[index]!;
    if (inline.type !== 'inline') return [[], index + 1];
    return [this.inline(inline.children ?? []), index + 2];
  }

  /** Inline tokens to pieces; `*_open` … `*_close` nest. */
  inline(tokens: readonly Token[]): Piece[] {
    const stack: Piece[][] = [[]];
    const opened: Token[] = [];
    let afterBreak = false;
    for (const token of tokens) {
      const pieces = stack[stack.length - 1]!;
      const wasBreak = afterBreak;
      afterBreak = false;
      switch (token.type) {
        case 'text':
          // mdast-util-to-hast trims the start of what follows a hard break.
          pieces.push(wasBreak ? token.content.replace(/^[ \t]+/, '') : token.content);
          break;
        case 'softbreak':
          pieces.push('\n');
          break;
        case 'hardbreak':
          pieces.push({ tag: 'br', props: null, children: [] }, '\n');
          afterBreak = true;
          break;
        case 'code_inline':
          pieces.push({ tag: 'code', props: null, children: [token.content] });
          break;
        case 'image':
          // An image is unwrapped, and has no children: nothing of it is shown.
          pieces.push({ tag: 'img', props: null, children: [] });
          break;
        case 'html_inline':
          pieces.push(SKIPPED);
          break;
        default:
          if (token.nesting === 1) {
            opened.push(token);
            stack.push([]);
          } else if (token.nesting === -1) {
            const open = opened.pop()!;
            const children = stack.pop()!;
            const tag = open.type === 'link_open' ? 'a' : open.tag;
            stack[stack.length - 1]!.push({ tag, props: null, children });
          }
      }
    }
    return joinText(stack[0]!);
  }
}

/**
 * Adjacent text joined into one run, its line endings without the spaces and tabs around them (a text node of
 * mdast spans soft line breaks; mdast-util-to-hast trims its lines); runs inside elements too.
 */
function joinText(pieces: Piece[]): Piece[] {
  const result: Piece[] = [];
  let run: string | null = null;
  const flush = () => {
    if (run !== null) result.push(trimLines(run));
    run = null;
  };
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      run = (run ?? '') + piece;
      continue;
    }
    flush();
    result.push(piece === SKIPPED ? piece : { ...piece, children: joinText(piece.children) });
  }
  flush();
  return result;
}

/** The list item rules of mdast-util-to-hast: a tight item's paragraphs are unwrapped, line endings between. */
function listItem(item: Element, loose: boolean): void {
  const results = item.children.splice(0);
  const isParagraph = (piece: Piece | undefined) => typeof piece === 'object' && piece.tag === 'p';
  results.forEach((child, index) => {
    if (loose || index !== 0 || !isParagraph(child)) item.children.push('\n');
    if (isParagraph(child) && !loose) item.children.push(...(child as Element).children);
    else item.children.push(child);
  });
  const tail = results[results.length - 1];
  if (tail !== undefined && (loose || !isParagraph(tail))) item.children.push('\n');
}

/**
 * React children of `pieces`: skipped HTML removed, elements outside the allowlist unwrapped into their
 * children, adjacent text joined.
 */
function toReact(pieces: readonly Piece[], out: ReactNode[] = []): ReactNode[] {
  for (const piece of pieces) {
    if (piece === SKIPPED) continue;
    if (typeof piece === 'string') {
      const last = out.length - 1;
      if (typeof out[last] === 'string') out[last] += piece;
      else out.push(piece);
      continue;
    }
    if (!ALLOWED.has(piece.tag)) {
      toReact(piece.children, out);
      continue;
    }
    const props = piece.tag === 'p' ? null : piece.props;
    out.push(createElement(piece.tag, props, ...toReact(piece.children)));
  }
  return out;
}

/** The elements of `text` under the allowlist, its headings below `base`. */
/** Renders `text` without the cache (`prepareRenderer`'s warm-up: it must not take the cache's entries). */
export function renderText(text: string, base: HeadingLevel): ReactElement {
  const [pieces] = new Builder(base).blocks(parser.parse(text, {}), 0);
  return createElement(Fragment, null, ...toReact(wrap(pieces, false)));
}

/** The cache's bounds: entries, and UTF-16 code units of their texts (a few MB at most). */
export const MARKDOWN_CACHE_LIMITS = { entries: 512, characters: 2_000_000 } as const;

const cache = new Map<string, ReactElement>();
let cachedCharacters = 0;

function cacheKey(text: string, base: HeadingLevel): string {
  return `${base}\u0000${text}`;
}

/** The cached rendering of `text`, refreshed as the most recently used; `undefined` when not cached. */
function cached(text: string, base: HeadingLevel): ReactElement | undefined {
  const key = cacheKey(text, base);
  const element = cache.get(key);
  if (element !== undefined) {
    cache.delete(key);
    cache.set(key, element);
  }
  return element;
}

/** Renders `text` and caches the elements. */
export function renderMarkdown(text: string, base: HeadingLevel): ReactElement {
  const hit = cached(text, base);
  if (hit !== undefined) return hit;
  const element = renderText(text, base);
  const key = cacheKey(text, base);
  cache.set(key, element);
  cachedCharacters += key.length;
  // Drop the least recently used entries until both bounds hold.
  for (const [oldest] of cache) {
    if (cache.size <= MARKDOWN_CACHE_LIMITS.entries && cachedCharacters <= MARKDOWN_CACHE_LIMITS.characters)
      break;
    cache.delete(oldest);
    cachedCharacters -= oldest.length;
  }
  return element;
}

/** How many renderings the cache holds (tests). */
export function markdownCacheSize(): number {
  return cache.size;
}

/** One Markdown block; memoized, so it renders again only when its text or heading level changes. */
export const SafeMarkdown = memo(function SafeMarkdown({
  text,
  baseLevel,
}: {
  readonly text: string;
  readonly baseLevel: HeadingLevel;
}) {
  return <div className="lu-markdown">{renderMarkdown(text, baseLevel)}</div>;
});
