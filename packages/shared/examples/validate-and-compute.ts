import {
  dispatchLocalAction,
  evaluateDerived,
  initialState,
  parseDocument,
  resolveDocumentValue,
  UISchemaError,
  UIStateError,
  updateState,
} from '@lineup/shared';
import calculator from '@lineup/shared/fixtures/compound-interest.json' with { type: 'json' };

// Validate the untrusted, already decoded JSON once; everything else works on the frozen result.
const document = parseDocument(calculator);
let state = initialState(document);
state = updateState(document, state, 'rate', 5.5);

const derived = evaluateDerived(document, state);
console.log(derived.total); // 17081.44…: 10000 × 1.055^10

// Only the derived fields this value uses are computed.
console.log(resolveDocumentValue(document, state, { expr: { derived: 'gain' } }));

// Rejected changes throw and leave the state as it was: rate has step 0.5.
try {
  updateState(document, state, 'rate', 5.25);
} catch (error) {
  if (error instanceof UIStateError) console.log(error.issues[0]?.code); // 'step_mismatch'
}

state = dispatchLocalAction(document, state, { type: 'reset' });
console.log(state.rate); // 5

// Invalid documents fail with located, machine-readable issues.
try {
  parseDocument({ ...calculator, version: '2.0' });
} catch (error) {
  if (error instanceof UISchemaError) console.log(error.issues); // [{ path: 'version', code: 'unsupported_version', … }]
}
