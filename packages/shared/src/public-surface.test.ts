import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import * as entry from './index.js';

// The public surface is pinned: adding, removing or renaming an export or an entry point fails here, so an
// API change is always deliberate and comes with a changeset (VERSIONING.md).
describe('@lineup/shared public surface', () => {
  it('exports exactly the pinned entry points', () => {
    expect(Object.keys(packageJson.exports)).toEqual([
      '.',
      './ui.schema.json',
      './fixtures/*.json',
      './package.json',
    ]);
  });

  it('exports exactly the pinned names from "."', () => {
    expect(Object.keys(entry).sort()).toEqual([
      'ExprSchema',
      'MIN_HOST_DOCUMENT_BYTES',
      'ResultFormatSchema',
      'ScalarSchema',
      'StateDeclarationSchema',
      'UIActionDefinitionSchema',
      'UIActionError',
      'UIActionSchema',
      'UIDocumentSchema',
      'UIDocumentV10Schema',
      'UIDocumentV11Schema',
      'UIExpressionError',
      'UIIdentifierSchema',
      'UILocalActionSchema',
      'UISchemaError',
      'UIStateError',
      'UI_ACTION_KINDS',
      'UI_BADGE_TONES',
      'UI_BUTTON_VARIANTS',
      'UI_CHART_KINDS',
      'UI_COMPONENTS',
      'UI_COMPONENT_TYPES',
      'UI_DEFAULT_PROGRESS_MAX',
      'UI_DEFAULT_RESULT_DIGITS',
      'UI_DOCUMENT_MODES',
      'UI_DOCUMENT_SCHEMA_ID',
      'UI_DOCUMENT_VERSIONS',
      'UI_EXPRESSION_OPERATORS',
      'UI_FORBIDDEN_IDENTIFIERS',
      'UI_GAPS',
      'UI_GRID_COLUMNS',
      'UI_HEADING_LEVELS',
      'UI_IDENTIFIER_PATTERN',
      'UI_INPUT_COMPONENTS',
      'UI_ISSUE_CODES',
      'UI_LAYOUT_COMPONENTS',
      'UI_LIMITS',
      'UI_LOCAL_ACTION_TYPES',
      'UI_MARKDOWN_ALLOWED_ELEMENTS',
      'UI_OPERATORS',
      'UI_PROTOCOL_LIMITS',
      'UI_RESULT_CURRENCIES',
      'UI_RESULT_STYLES',
      'UI_SCHEMA_LIMITS',
      'ValueSchema',
      'applyActionResult',
      'assertSafeJSON',
      'assertValidState',
      'canonicalJSONString',
      'dispatchLocalAction',
      'documentJsonSchema',
      'evaluateDerived',
      'evaluateExpression',
      'hashCanonicalJSON',
      'initialState',
      'isUIIdentifier',
      'parseDocument',
      'resolveDocumentValue',
      'resolveUIAction',
      'resolveValue',
      'restoreState',
      'updateState',
    ]);
  });
});
