/**
 * docs/protocol.md read for its tests (`protocol/docs.*.test.ts`): every ```json block in it is an example
 * preceded by a marker (`<!-- example: <kind> key=value … -->`); the reader returns the examples with their
 * marker, heading and section, the headings, the lines, and the problems of the document's own structure.
 * Also the directions as the document writes them.
 */
import protocolDoc from '../docs/protocol.md?raw';
import {
  LINEUP_MESSAGE_TYPES,
  type LineUpMessageDirection,
  type LineUpMessageType,
} from '../src/protocol/envelope-schemas.js';

// biome-ignore lint/suspicious/noExplicitAny: examples are arbitrary JSON read from the document.
type J = any;

// ---------------------------------------------------------------------------------------------------------
// Reading the document

interface Heading {
  readonly level: number;
  readonly text: string;
  readonly line: number;
}

export interface Example {
  readonly kind: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly value: J;
  /** 1-based line of the opening fence, for messages. */
  readonly line: number;
  /** The nearest heading above the example. */
  readonly heading: Heading | undefined;
  /** The nearest level-3 heading above the example, and the text of its section. */
  readonly section: { readonly heading: Heading; readonly text: string } | undefined;
}

interface ReadDocument {
  readonly examples: readonly Example[];
  readonly headings: readonly Heading[];
  /** Problems of the document's own structure: a json block without marker, a marker without block. */
  readonly problems: readonly string[];
  readonly lines: readonly string[];
}

const MARKER = /^<!--\s*example:\s*(.*?)\s*-->$/;
const FENCE = /^(`{3,}|~{3,})\s*([\w-]*)\s*$/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*$/;

function parseMarker(text: string): { kind: string; attributes: Record<string, string> } {
  const [kind = '', ...pairs] = text.split(/\s+/);
  const attributes: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`marker attribute without "=": ${pair}`);
    attributes[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return { kind, attributes };
}

/** The text from a heading to the next heading of the same or a higher level. */
export function sectionText(
  lines: readonly string[],
  headings: readonly Heading[],
  heading: Heading,
): string {
  const next = headings.find((other) => other.line > heading.line && other.level <= heading.level);
  return lines.slice(heading.line - 1, next === undefined ? lines.length : next.line - 1).join('\n');
}

export function readDocument(markdown: string): ReadDocument {
  const lines = markdown.split(/\r?\n/);
  const headings: Heading[] = [];
  const problems: string[] = [];
  const pending: { kind: string; attributes: Record<string, string>; line: number; headingIndex: number }[] =
    [];
  const raw: {
    kind: string;
    attributes: Record<string, string>;
    text: string;
    line: number;
    headingCount: number;
  }[] = [];
  let marker: (typeof pending)[number] | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const fence = FENCE.exec(line);
    if (fence) {
      const [, ticks, language] = fence;
      const start = index;
      const body: string[] = [];
      index++;
      while (index < lines.length && !lines[index]!.startsWith(ticks!)) body.push(lines[index++]!);
      if (index >= lines.length) problems.push(`line ${start + 1}: code block never closed`);
      if (language === 'json') {
        if (marker === undefined) problems.push(`line ${start + 1}: json block without an example marker`);
        else {
          raw.push({
            kind: marker.kind,
            attributes: marker.attributes,
            text: body.join('\n'),
            line: start + 1,
            headingCount: headings.length,
          });
        }
      } else if (marker !== undefined) {
        problems.push(`line ${marker.line}: example marker followed by a ${language || 'plain'} block`);
      }
      marker = undefined;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      if (marker !== undefined) problems.push(`line ${marker.line}: example marker without a json block`);
      marker = undefined;
      headings.push({ level: heading[1]!.length, text: heading[2]!, line: index + 1 });
      continue;
    }
    const found = MARKER.exec(line.trim());
    if (found) {
      if (marker !== undefined) problems.push(`line ${marker.line}: example marker without a json block`);
      marker = { ...parseMarker(found[1]!), line: index + 1, headingIndex: headings.length };
      continue;
    }
    if (line.trim() !== '' && marker !== undefined) {
      problems.push(`line ${marker.line}: example marker not directly followed by its json block`);
      marker = undefined;
    }
  }
  if (marker !== undefined) problems.push(`line ${marker.line}: example marker without a json block`);

  const examples = raw.map((entry): Example => {
    const above = headings.slice(0, entry.headingCount);
    const heading = above[above.length - 1];
    const sectionHeading = [...above].reverse().find((candidate) => candidate.level <= 3);
    let value: J;
    try {
      value = JSON.parse(entry.text);
    } catch (error) {
      throw new Error(
        `docs/protocol.md line ${entry.line}: the example is not valid JSON (${String(error)})`,
      );
    }
    return {
      kind: entry.kind,
      attributes: entry.attributes,
      value,
      line: entry.line,
      heading,
      section:
        sectionHeading?.level === 3
          ? { heading: sectionHeading, text: sectionText(lines, headings, sectionHeading) }
          : undefined,
    };
  });
  return { examples, headings, problems, lines };
}

export const DOCUMENT = readDocument(protocolDoc);
export const { examples } = DOCUMENT;

export const examplesOf = (kind: string) => examples.filter((example) => example.kind === kind);

export function only(kind: string, where?: (example: Example) => boolean): Example {
  const found = examplesOf(kind).filter(where ?? (() => true));
  if (found.length !== 1) throw new Error(`expected exactly one "${kind}" example, found ${found.length}`);
  return found[0]!;
}

export const label = (example: Example) =>
  `line ${example.line}: ${example.kind}${Object.entries(example.attributes)
    .map(([key, value]) => ` ${key}=${value}`)
    .join('')}`;

// ---------------------------------------------------------------------------------------------------------
// Directions as the document writes them

export const DIRECTION_WORDS: Readonly<Record<string, LineUpMessageDirection>> = {
  'agent → client': 'agent_to_client',
  'client → agent': 'client_to_agent',
  'either way': 'either',
};

const MESSAGE_HEADING = /^`(lineup\.v1\.[A-Za-z0-9._:-]+)`$/;
export const DIRECTION_LINE = /^\*\*Direction:\*\* (.+?)\s*$/m;

export function sectionType(example: Example): string | undefined {
  const heading = example.section?.heading.text;
  return heading === undefined ? undefined : MESSAGE_HEADING.exec(heading)?.[1];
}

export function writtenDirection(example: Example): LineUpMessageDirection | undefined {
  const words = example.section && DIRECTION_LINE.exec(example.section.text)?.[1];
  return words === undefined ? undefined : DIRECTION_WORDS[words];
}

export const isKnownType = (type: string): type is LineUpMessageType =>
  Object.hasOwn(LINEUP_MESSAGE_TYPES, type);
