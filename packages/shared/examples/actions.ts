import { applyActionResult, initialState, parseDocument, resolveUIAction, updateState } from '@lineup/shared';
import reader from '@lineup/shared/fixtures/file-reader.json' with { type: 'json' };

const document = parseDocument(reader);
let state = updateState(document, initialState(document), 'path', 'docs/protocol.md');

// What the click would submit, re-derived from the document and the state: nothing runs, nothing is granted.
const action = resolveUIAction(document, state, 'read_info');
console.log(action); // { kind: 'tool', actionId: 'read_info', capabilityId: 'read_file', arguments: { file_path: 'docs/protocol.md', limit: 20 } }

// After the host executed it and filtered a trusted receipt, map the public result into state: all or nothing.
state = applyActionResult(document, state, 'read_info', { totalLines: 212 });
console.log(state.lines); // 212
