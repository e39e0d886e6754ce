/**
 * What a model reads after an Intelligent UI tool call. A rejected call gets at most
 * `UI_SCHEMA_LIMITS.maxToolIssues` located issues (seed 002 §8: "Host 对工具可见的诊断再限制到 10 项"); a
 * successful `intelligent_ui` call gets a short receipt, while the validated document travels beside it for
 * persistence and the client (seed 004 §2: `output.render` for the model, `presentationMeta` for the rest).
 */
import { UI_DOCUMENT_VERSIONS } from '../dsl/catalog.js';
import { documentIndex } from '../dsl/document.js';
import type { UIDocument } from '../dsl/types.js';
import {
  LineUpProtocolError,
  UIActionError,
  UIExpressionError,
  UISchemaError,
  UIStateError,
  UIStreamError,
} from '../errors/errors.js';
import { UI_ISSUE_CODES, type UIIssue, type UIIssueCode } from '../errors/issues.js';
import { UI_SCHEMA_LIMITS } from '../limits/ui-limits.js';
import type { UIStreamCheckpoint } from '../stream/checkpoint.js';

const KNOWN_CODES: ReadonlySet<string> = new Set(UI_ISSUE_CODES);

/** What each error class says was rejected, in the model's words. */
function subjectOf(error: Error): string {
  if (error instanceof UISchemaError) return 'The UI document was rejected';
  if (error instanceof UIStreamError) return 'The UI stream call was rejected';
  if (error instanceof LineUpProtocolError) return 'The tool arguments were rejected';
  if (error instanceof UIStateError) return 'The state update was rejected';
  if (error instanceof UIActionError) return 'The UI action was rejected';
  return 'The expression failed';
}

function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** One issue as `path: code — message`; every part is bounded again, whoever built the issue. */
function formatIssue(issue: UIIssue): string {
  const code: UIIssueCode = KNOWN_CODES.has(issue.code) ? issue.code : 'invalid_value';
  const path = bounded(issue.path, UI_SCHEMA_LIMITS.maxIssuePathLength);
  const message = bounded(issue.message, UI_SCHEMA_LIMITS.maxIssueMessageLength);
  return `${path}: ${code} — ${message}`;
}

function issuesOf(error: unknown): readonly UIIssue[] | undefined {
  if (
    error instanceof UISchemaError ||
    error instanceof UIStreamError ||
    error instanceof LineUpProtocolError ||
    error instanceof UIStateError ||
    error instanceof UIActionError
  ) {
    return error.issues;
  }
  if (error instanceof UIExpressionError) {
    return [{ path: error.path, code: 'evaluation_failed', message: error.message }];
  }
  return undefined;
}

/**
 * The text a host returns to the model for a rejected Intelligent UI tool call: a one-line summary, then at
 * most `UI_SCHEMA_LIMITS.maxToolIssues` issues, each `path: code — message`, each part bounded. Errors of
 * other kinds become one fixed sentence: their message may carry host internals or the sender's input, and
 * neither belongs in the model's context.
 */
export function formatIssuesForModel(error: unknown): string {
  const issues = issuesOf(error);
  if (issues === undefined || !(error instanceof Error)) {
    return 'The tool call failed on the host; nothing was shown to the user. Do not retry the same call unchanged.';
  }
  const shown = issues.slice(0, UI_SCHEMA_LIMITS.maxToolIssues);
  // An error keeps at most `maxIssues`; when it is full there may have been more than it kept.
  const hidden = issues.length - shown.length;
  const more =
    hidden <= 0
      ? ''
      : `\n- … ${hidden}${issues.length >= UI_SCHEMA_LIMITS.maxIssues ? ' or more' : ''} further issue${hidden === 1 ? '' : 's'} not shown; fix these first.`;
  const count =
    shown.length === 0
      ? ''
      : ` (${issues.length}${hidden > 0 ? '+' : ''} issue${issues.length === 1 ? '' : 's'})`;
  const lines = shown.map((issue) => `- ${formatIssue(issue)}`).join('\n');
  return `${subjectOf(error)}${count}. Nothing was shown or changed. Fix every issue listed and call the tool again.${lines ? `\n${lines}` : ''}${more}`;
}

/** The canonical result of a successful `intelligent_ui` call (seed 004 §2). */
export interface IntelligentUIToolResult {
  /** The brief receipt the model sees; never the document itself. */
  readonly render: string;
  /** The validated, deep-frozen document for the tool result's metadata, persistence and the client. */
  readonly presentationMeta: { readonly document: UIDocument };
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * Builds the result of a successful `intelligent_ui` call from the document `parseArguments` returned. The
 * model gets a receipt with the document's id, version, mode and size, enough to refer to it later, and is
 * told that local edits do not reach it; the document goes to `presentationMeta` only. A document that did
 * not come from `parseDocument` is validated first (throws `UISchemaError`).
 */
export function intelligentUIToolResult(document: UIDocument): IntelligentUIToolResult {
  const { document: validated, index } = documentIndex(document);
  const stateFields = index.fields.size;
  const actions = validated.version === UI_DOCUMENT_VERSIONS[1] ? Object.keys(validated.actions).length : 0;
  const parts = [
    plural(index.nodes.size, 'component'),
    plural(stateFields, 'state field'),
    plural(index.derivedNames.length, 'derived field'),
  ];
  if (validated.version === UI_DOCUMENT_VERSIONS[1]) parts.push(plural(actions, 'action'));
  const interaction =
    validated.mode === 'interactive_ui'
      ? ' The user edits values locally; those edits do not reach you.' +
        (actions > 0
          ? ' Actions run only when the user clicks, and their results come back as receipts.'
          : '')
      : '';
  const render =
    `Shown to the user: UI document \`${validated.id}\` (DSL ${validated.version}, ${validated.mode}, ` +
    `${parts.join(', ')}).${interaction}`;
  return Object.freeze({ render, presentationMeta: Object.freeze({ document: validated }) });
}

/** The result of a successful stream tool call (seed 004 §5). */
export interface IntelligentUIStreamToolResult {
  /** The receipt the model sees: the cursors it must send next, never the snapshot. */
  readonly render: string;
  /** The accepted checkpoint, with its full snapshot, for the tool result's metadata and the client. */
  readonly presentationMeta: { readonly checkpoint: UIStreamCheckpoint };
}

const STREAM_OUTCOME: Readonly<Record<UIStreamCheckpoint['type'], (ui: string) => string>> = {
  snapshot: (ui) => `Opened streamed UI ${ui}`,
  add: (ui) => `Added a node to streamed UI ${ui}`,
  update: (ui) => `Updated a node of streamed UI ${ui}`,
  remove: (ui) => `Removed a node from streamed UI ${ui}`,
  complete: (ui) => `Completed streamed UI ${ui}`,
  cancel: (ui) => `Cancelled streamed UI ${ui}; the user keeps its last valid state`,
  error: (ui) => `Streamed UI ${ui} ended with an error; the user keeps its last valid state`,
};

/**
 * Builds the result of a successful `intelligent_ui_open`, `_patch`, `_complete` or `_cancel` call from the
 * checkpoint the stream accepted (`UIStreamState.checkpoint`). seed 004 §5: the text states sourceCallId,
 * generation, revision and seq, so the model never guesses its cursors from metadata it cannot see; after a
 * terminal frame it says the generation is over instead.
 */
export function intelligentUIStreamToolResult(checkpoint: UIStreamCheckpoint): IntelligentUIStreamToolResult {
  const { sourceCallId, generation, revision, seq, type, uiId } = checkpoint;
  const state = `sourceCallId ${JSON.stringify(sourceCallId)}, generation ${generation}, revision ${revision}, seq ${seq}`;
  const terminal = type === 'complete' || type === 'cancel' || type === 'error';
  const next = terminal
    ? ' This generation is over; to change the UI, call intelligent_ui_open with a complete document.'
    : ` Next call: sourceCallId ${JSON.stringify(sourceCallId)}, generation ${generation}, baseRevision ${revision}.`;
  const render = `${STREAM_OUTCOME[type](`\`${uiId}\``)} (${state}).${next}`;
  return Object.freeze({ render, presentationMeta: Object.freeze({ checkpoint }) });
}
