/**
 * The entries that are interfaces (DSL documents, streams, Surfaces, MCP views): which kinds they are and the heading
 * level they render at; and every entry's accessible name, which tells two interfaces apart by their titles.
 */
import { type ConversationText, labelText } from '../i18n/conversation.ts';
import type { Entry } from './model.ts';

/** Interfaces sit in the conversation, under its h2: their titles are h3 (and their headings below). */
export const INTERFACE_HEADING_LEVEL = 3;

/** Entries that are interfaces: announced when they arrive, and where focus goes after Deliver. */
export const INTERFACE_KINDS: ReadonlySet<Entry['kind']> = new Set([
  'document',
  'checkpoints',
  'stream',
  'surface',
  'mcp_view',
]);

/** The title a document entry shows, if it has one. */
function entryTitle(entry: Entry): string | undefined {
  const document =
    entry.kind === 'document'
      ? (entry.document as { title?: unknown } | null)
      : entry.kind === 'checkpoints'
        ? entry.stream.document
        : null;
  return typeof document?.title === 'string' ? document.title : undefined;
}

/** An entry's accessible name: its label and, for an interface, its title, so two entries differ by name. */
export function entryName(text: ConversationText, entry: Entry): string {
  const label = labelText(text, entry.label);
  const title = entryTitle(entry);
  return title === undefined || title === label ? label : `${label}: ${title}`;
}
