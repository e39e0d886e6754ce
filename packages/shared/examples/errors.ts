import { isLineUpError, LINEUP_ERROR_CODES, parseDocument } from '@lineup/shared';
import { parseEnvelopeText } from '@lineup/shared/protocol';

/** One handler for every LineUp error: a stable code, and located issues when it is about some input. */
function explain(error: unknown): string {
  if (!isLineUpError(error)) throw error; // not ours: a bug, let it surface
  const first = error.issues[0];
  return first === undefined ? error.code : `${error.code} at ${first.path}: ${first.code}`;
}

try {
  parseDocument({ version: '1.0', id: 'x', mode: 'text', title: 'T', state: {}, derived: {}, root: {} });
} catch (error) {
  console.log(explain(error)); // 'ui_schema_invalid at mode: invalid_value'
}

try {
  parseEnvelopeText('{"v":1}');
} catch (error) {
  console.log(explain(error)); // 'protocol_invalid at id: missing_property'
}

console.log(LINEUP_ERROR_CODES.UIStateError); // 'ui_state_rejected'
