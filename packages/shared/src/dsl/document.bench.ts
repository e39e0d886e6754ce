/**
 * Speed goals of the DSL (issue: parseDocument within 10× JSON.parse of the same bytes and within 2× an
 * AJV-compiled structural check; a state update with 64 derived fields recomputed under 50 µs median).
 * `pnpm bench` prints each group's medians and the ratios against the first entry of the group.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { bench, describe } from 'vitest';
import { buildDerivedDocument, buildMaxDocument, documentBytes } from '../../bench/max-document.js';
import { parseDocument } from './document.js';
import { documentJsonSchema } from './json-schema.js';
import { initialState, updateState } from './state.js';
import { evaluateDerived } from './values.js';

const maxDocument = buildMaxDocument();
const maxText = JSON.stringify(maxDocument);
const maxBytes = documentBytes(maxDocument);
const ajv = new Ajv2020({ strict: true, allErrors: false });
const validateStructure = ajv.compile(documentJsonSchema as object);
if (!validateStructure(maxDocument)) throw new Error('benchmark document fails the JSON Schema');
parseDocument(maxDocument);

describe(`parseDocument on a maximum-size document (${maxBytes} bytes)`, () => {
  bench('JSON.parse of the same text (baseline)', () => {
    JSON.parse(maxText);
  });
  bench('AJV-compiled documentJsonSchema check', () => {
    validateStructure(maxDocument);
  });
  bench('parseDocument', () => {
    parseDocument(maxDocument);
  });
});

const derivedDocument = parseDocument(buildDerivedDocument());
let state = initialState(derivedDocument);
let tick = 0;

describe('state update with 64 derived fields', () => {
  bench('updateState + evaluateDerived', () => {
    tick = (tick + 1) % 1000;
    state = updateState(derivedDocument, state, 'n0', tick + 1);
    evaluateDerived(derivedDocument, state);
  });
});
