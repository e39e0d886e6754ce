/**
 * The Markdown component's boundary (seed 002 §5 "Markdown 的实际边界"): `react-markdown` with `skipHtml`,
 * the element allowlist from `@lineup/shared` and `unwrapDisallowed`. Raw HTML is dropped; links keep their
 * text but are not clickable; images, iframes and media never load; code is shown, never run.
 *
 * Speed: the rendered elements are cached by (heading level, text) in a bounded cache, so a stream frame or a
 * second view of the same text does not parse it again, and the component is memoized on its props, so a change
 * of local state does not even re-render it. A text not seen yet is rendered in the render that mounts its node:
 * a large document's body is already a background render that yields to input between components (document-view),
 * and a second pass only for the Markdown cost a second commit and layout of the whole document.
 */
import { UI_MARKDOWN_ALLOWED_ELEMENTS } from '@lineup/shared';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { memo, type ReactElement } from 'react';
import Markdown from 'react-markdown';
import { type HeadingLevel, nextHeadingLevel } from './outline.js';

const ALLOWED: string[] = [...UI_MARKDOWN_ALLOWED_ELEMENTS];

/** Never produce a URL: a disallowed link or image is unwrapped anyway, this keeps it so if that changes. */
const noUrl = (): string => '';

interface MarkdownTree {
  readonly type: string;
  depth?: number;
  readonly children?: MarkdownTree[];
}

/**
 * A remark plugin: Markdown headings sit below `base` (`#` is base + 1), in order, without skipped levels
 * (outline.ts), at most h6.
 */
function shiftHeadings(base: HeadingLevel) {
  return () => (tree: MarkdownTree) => {
    let previous: number = base;
    const visit = (node: MarkdownTree): void => {
      if (node.type === 'heading' && node.depth !== undefined) {
        node.depth = nextHeadingLevel(base, node.depth, previous);
        previous = node.depth;
      }
      for (const child of node.children ?? []) visit(child);
    };
    visit(tree);
  };
}

/**
 * Of GitHub Flavored Markdown, only strikethrough: `del` is the one GFM element the allowlist names. Tables, task
 * lists, footnotes and literal autolinks are not parsed, so their syntax stays the text it was written as (a
 * table's pipes, a task's `[ ]`) instead of elements that would be unwrapped into run-together text; parsing them
 * was also about a third of the Markdown time. The extensions are built once and shared by every processor
 * (react-markdown makes one per text).
 */
const STRIKETHROUGH = { syntax: gfmStrikethrough(), fromMarkdown: gfmStrikethroughFromMarkdown() };
function remarkStrikethrough(this: { data(): Record<string, unknown> }): void {
  const data = this.data();
  data.micromarkExtensions = [
    ...((data.micromarkExtensions as unknown[] | undefined) ?? []),
    STRIKETHROUGH.syntax,
  ];
  data.fromMarkdownExtensions = [
    ...((data.fromMarkdownExtensions as unknown[] | undefined) ?? []),
    STRIKETHROUGH.fromMarkdown,
  ];
}

const PLUGINS_BY_BASE = new Map<HeadingLevel, NonNullable<Parameters<typeof Markdown>[0]['remarkPlugins']>>();
function remarkPlugins(base: HeadingLevel) {
  let plugins = PLUGINS_BY_BASE.get(base);
  if (plugins === undefined) {
    plugins = [remarkStrikethrough as never, shiftHeadings(base)];
    PLUGINS_BY_BASE.set(base, plugins);
  }
  return plugins;
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

/** Renders `text` (react-markdown's synchronous, hook-free `Markdown`) and caches the elements. */
export function renderMarkdown(text: string, base: HeadingLevel): ReactElement {
  const hit = cached(text, base);
  if (hit !== undefined) return hit;
  const element = Markdown({
    children: text,
    skipHtml: true,
    allowedElements: ALLOWED,
    unwrapDisallowed: true,
    remarkPlugins: remarkPlugins(base),
    urlTransform: noUrl,
  });
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
