/**
 * What the conversation's live region says: new interfaces are announced by name, politely; the ones read back at
 * load are not new.
 */
import { useEffect, useRef, useState } from 'react';
import type { ConversationText } from '../i18n/conversation.ts';
import { entryName, INTERFACE_KINDS } from './interface-entries.ts';
import type { ConversationModel, Entry } from './model.ts';

/** The announcement of the interfaces that arrived last in `shownModel` (`null` while it is read back). */
export function useInterfaceAnnouncement(
  entries: readonly Entry[],
  shownModel: ConversationModel | null,
  text: ConversationText,
): string {
  const [announcement, setAnnouncement] = useState('');
  const announced = useRef<{ model: ConversationModel; lastKey: number } | null>(null);
  useEffect(() => {
    if (shownModel === null) return;
    const lastKey = entries.at(-1)?.key ?? 0;
    if (announced.current?.model !== shownModel) {
      announced.current = { model: shownModel, lastKey };
      return;
    }
    // Keys grow and new entries are appended: the fresh ones are the tail after the last key known.
    const known = announced.current.lastKey;
    let start = entries.length;
    while (start > 0 && (entries[start - 1]?.key ?? 0) > known) start--;
    const fresh = entries.slice(start);
    announced.current.lastKey = Math.max(known, lastKey);
    const interfaces = fresh.filter((entry) => INTERFACE_KINDS.has(entry.kind));
    if (interfaces.length > 0)
      setAnnouncement(interfaces.map((entry) => text.newInterface(entryName(text, entry))).join(' '));
  }, [entries, shownModel, text]);
  return announcement;
}
