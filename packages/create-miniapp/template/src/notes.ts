// The app's state: its notes, in memory. The tool's handler adds to it (src/tools.ts); the page shows it
// (src/main.ts).
const notes: string[] = [];
const listeners = new Set<() => void>();

export function addNote(text: string): number {
  notes.push(text);
  for (const listener of listeners) listener();
  return notes.length;
}

export function allNotes(): readonly string[] {
  return notes;
}

export function onNotesChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
