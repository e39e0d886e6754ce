/**
 * The heading outline of a rendered document. The host says at which level the document's title sits
 * (`headingLevel`, default 2); every heading inside sits below it, in document order, and never skips a level
 * on the way down (a Heading of level 3 right after the title becomes the title's level + 1). Markdown headings
 * are shifted below the heading that precedes their block. Levels stop at 6, the last HTML heading level.
 */
import type { UIDocument, UINode } from '@lineup/shared';

/** An HTML heading level. */
export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

export const HEADING_LEVELS: readonly HeadingLevel[] = [1, 2, 3, 4, 5, 6];

/** The document title's level when the host sets none. */
export const DEFAULT_HEADING_LEVEL: HeadingLevel = 2;

export interface DocumentOutline {
  readonly titleLevel: HeadingLevel;
  /** The HTML level of each Heading node, by node id. */
  readonly headings: ReadonlyMap<string, HeadingLevel>;
  /** For each Markdown node, the level its headings sit below (the heading before it, or the title). */
  readonly markdownBase: ReadonlyMap<string, HeadingLevel>;
}

export function toHeadingLevel(level: number): HeadingLevel {
  return Math.min(6, Math.max(1, Math.trunc(level))) as HeadingLevel;
}

/**
 * The next heading's level: `requested` steps below `base` (1 = right below), but at most one level deeper than
 * the heading before it, and at most 6.
 */
export function nextHeadingLevel(base: number, requested: number, previous: number): HeadingLevel {
  return toHeadingLevel(Math.min(base + requested, previous + 1));
}

export function documentOutline(document: UIDocument, titleLevel: HeadingLevel): DocumentOutline {
  const headings = new Map<string, HeadingLevel>();
  const markdownBase = new Map<string, HeadingLevel>();
  let previous: number = titleLevel;
  const visit = (node: UINode): void => {
    if (node.type === 'Heading') {
      const level = nextHeadingLevel(titleLevel, node.props.level ?? 2, previous);
      headings.set(node.id, level);
      previous = level;
    } else if (node.type === 'Markdown') {
      markdownBase.set(node.id, toHeadingLevel(previous));
    }
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(document.root);
  return { titleLevel, headings, markdownBase };
}
