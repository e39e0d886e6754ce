import './zod-config.js';
import { createMiniAppClient } from '@lineup/miniapp-sdk';
import { allNotes, onNotesChanged } from './notes.js';
import tools from './tools.js';

const status = document.getElementById('status') as HTMLParagraphElement;
const list = document.getElementById('notes') as HTMLUListElement;

function render() {
  const notes = allNotes();
  status.textContent =
    notes.length === 0 ? 'No notes yet.' : notes.length === 1 ? '1 note' : `${notes.length} notes`;
  list.replaceChildren(
    ...notes.map((text) => {
      const item = document.createElement('li');
      item.textContent = text;
      return item;
    }),
  );
}
onNotesChanged(render);
render();

// Starts the page: the client announces app_ready to the runtime and runs the tools' handlers when a call comes.
const client = createMiniAppClient({ tools });
client.onLifecycle((phase) => {
  if (phase === 'close') client.close();
});
