/**
 * docs/protocol.md cannot rot: every ```json block in it is an example preceded by a marker
 * (`<!-- example: <kind> key=value … -->`) naming the real parser that must accept it, every `lineup.v1`
 * message type has exactly one example in its own section with the direction the catalogue states, every
 * message type of both iframe channels and every action-protocol shape has its example, the examples tell
 * one consistent story (the receipt's hash is the request's, the stream's mutations lead to the documented
 * checkpoint), and every number in the limits tables is the exported constant (DESIGN.md "Write the full
 * catalogue, with one example per message"; CONVENTIONS.md 17).
 */
import { describe, expect, it } from 'vitest';
import protocolDoc from '../../docs/protocol.md?raw';
import {
  computeParameterHash,
  parseUIActionQuery,
  parseUIActionReceipt,
  parseUIActionReceiptList,
  parseUIActionReserveRequest,
  parseUIActionResult,
  parseUICapabilityCatalog,
  parseUICapabilityDescriptor,
  parseUIDocumentRef,
  UI_ACTION_PROTOCOL_LIMITS,
} from '../actions/protocol.js';
import { findIntelligentUITool, INTELLIGENT_UI_TOOL_NAMES } from '../agent/tools.js';
import { BRIDGE_LIMITS } from '../bridge/channel.js';
import {
  MINIAPP_CHANNEL_LIMITS,
  MiniAppMessageFromFrameSchema,
  MiniAppMessageToFrameSchema,
  parseMiniAppMessageFromFrame,
  parseMiniAppMessageToFrame,
} from '../bridge/miniapp.js';
import {
  MCP_VIEW_CHANNEL_LIMITS,
  MINIAPP_PAGE_CHANNEL_LIMITS,
  parseSurfaceMcpMessage,
  parseSurfaceMessageFromFrame,
  parseSurfaceMessageToFrame,
  parseSurfacePageMessage,
  SURFACE_CHANNEL_LIMITS,
  SurfaceMessageFromFrameSchema,
  SurfaceMessageToFrameSchema,
} from '../bridge/surface.js';
import { parseSurfaceKeyMessage, parseSurfaceStorageMessage } from '../bridge/surface-view.js';
import { resolveUIAction } from '../dsl/actions.js';
import { parseDocument } from '../dsl/document.js';
import { initialState } from '../dsl/state.js';
import { AGENT_TOOL_LIMITS, TOOL_CONSENT_LIMITS } from '../limits/tool-limits.js';
import {
  MIN_HOST_DOCUMENT_BYTES,
  UI_LIMITS,
  UI_PROTOCOL_LIMITS,
  UI_SCHEMA_LIMITS,
} from '../limits/ui-limits.js';
import { UI_STREAM_LIMITS, UI_STREAM_MUTATION_TYPES } from '../stream/checkpoint.js';
import { acceptCheckpoint, advanceUIStream, startUIStream, type UIStreamState } from '../stream/stream.js';
import { LINEUP_CONNECTION_REFUSALS } from './binding.js';
import { parseEnvelope, readEnvelopeText } from './envelope.js';
import {
  LINEUP_DIRECTIONS,
  LINEUP_MESSAGE_TYPES,
  LINEUP_UNSUPPORTED_REASONS,
  type LineUpMessage,
  type LineUpMessageDirection,
  type LineUpMessageType,
} from './envelope-schemas.js';
import { MCP_SERVER_LIMITS, parseMcpServerManifest } from './mcp/server.js';
import { VIEW_CONTEXT_LIMITS } from './messages/chat.js';
import { LINEUP_WIRE_LIMITS } from './messages/limits.js';
import { TOOL_ERROR_CODES } from './messages/tool.js';
import { parseAgentToolDescriptor, toAgentToolInventoryEntry } from './tools/descriptor.js';
import { MINIAPP_MANIFEST_LIMITS, parseMiniAppManifest } from './tools/manifest.js';

// biome-ignore lint/suspicious/noExplicitAny: examples are arbitrary JSON read from the document.
type J = any;

// ---------------------------------------------------------------------------------------------------------
// Reading the document

interface Heading {
  readonly level: number;
  readonly text: string;
  readonly line: number;
}

interface Example {
  readonly kind: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly value: J;
  /** 1-based line of the opening fence, for messages. */
  readonly line: number;
  /** The nearest heading above the example. */
  readonly heading: Heading | undefined;
  /** The nearest level-3 heading above the example, and the text of its section. */
  readonly section: { readonly heading: Heading; readonly text: string } | undefined;
}

interface ReadDocument {
  readonly examples: readonly Example[];
  readonly headings: readonly Heading[];
  /** Problems of the document's own structure: a json block without marker, a marker without block. */
  readonly problems: readonly string[];
  readonly lines: readonly string[];
}

const MARKER = /^<!--\s*example:\s*(.*?)\s*-->$/;
const FENCE = /^(`{3,}|~{3,})\s*([\w-]*)\s*$/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*$/;

function parseMarker(text: string): { kind: string; attributes: Record<string, string> } {
  const [kind = '', ...pairs] = text.split(/\s+/);
  const attributes: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`marker attribute without "=": ${pair}`);
    attributes[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return { kind, attributes };
}

/** The text from a heading to the next heading of the same or a higher level. */
function sectionText(lines: readonly string[], headings: readonly Heading[], heading: Heading): string {
  const next = headings.find((other) => other.line > heading.line && other.level <= heading.level);
  return lines.slice(heading.line - 1, next === undefined ? lines.length : next.line - 1).join('\n');
}

function readDocument(markdown: string): ReadDocument {
  const lines = markdown.split(/\r?\n/);
  const headings: Heading[] = [];
  const problems: string[] = [];
  const pending: { kind: string; attributes: Record<string, string>; line: number; headingIndex: number }[] =
    [];
  const raw: {
    kind: string;
    attributes: Record<string, string>;
    text: string;
    line: number;
    headingCount: number;
  }[] = [];
  let marker: (typeof pending)[number] | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const fence = FENCE.exec(line);
    if (fence) {
      const [, ticks, language] = fence;
      const start = index;
      const body: string[] = [];
      index++;
      while (index < lines.length && !lines[index]!.startsWith(ticks!)) body.push(lines[index++]!);
      if (index >= lines.length) problems.push(`line ${start + 1}: code block never closed`);
      if (language === 'json') {
        if (marker === undefined) problems.push(`line ${start + 1}: json block without an example marker`);
        else {
          raw.push({
            kind: marker.kind,
            attributes: marker.attributes,
            text: body.join('\n'),
            line: start + 1,
            headingCount: headings.length,
          });
        }
      } else if (marker !== undefined) {
        problems.push(`line ${marker.line}: example marker followed by a ${language || 'plain'} block`);
      }
      marker = undefined;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      if (marker !== undefined) problems.push(`line ${marker.line}: example marker without a json block`);
      marker = undefined;
      headings.push({ level: heading[1]!.length, text: heading[2]!, line: index + 1 });
      continue;
    }
    const found = MARKER.exec(line.trim());
    if (found) {
      if (marker !== undefined) problems.push(`line ${marker.line}: example marker without a json block`);
      marker = { ...parseMarker(found[1]!), line: index + 1, headingIndex: headings.length };
      continue;
    }
    if (line.trim() !== '' && marker !== undefined) {
      problems.push(`line ${marker.line}: example marker not directly followed by its json block`);
      marker = undefined;
    }
  }
  if (marker !== undefined) problems.push(`line ${marker.line}: example marker without a json block`);

  const examples = raw.map((entry): Example => {
    const above = headings.slice(0, entry.headingCount);
    const heading = above[above.length - 1];
    const sectionHeading = [...above].reverse().find((candidate) => candidate.level <= 3);
    let value: J;
    try {
      value = JSON.parse(entry.text);
    } catch (error) {
      throw new Error(
        `docs/protocol.md line ${entry.line}: the example is not valid JSON (${String(error)})`,
      );
    }
    return {
      kind: entry.kind,
      attributes: entry.attributes,
      value,
      line: entry.line,
      heading,
      section:
        sectionHeading?.level === 3
          ? { heading: sectionHeading, text: sectionText(lines, headings, sectionHeading) }
          : undefined,
    };
  });
  return { examples, headings, problems, lines };
}

const DOCUMENT = readDocument(protocolDoc);
const { examples } = DOCUMENT;

const examplesOf = (kind: string) => examples.filter((example) => example.kind === kind);

function only(kind: string, where?: (example: Example) => boolean): Example {
  const found = examplesOf(kind).filter(where ?? (() => true));
  if (found.length !== 1) throw new Error(`expected exactly one "${kind}" example, found ${found.length}`);
  return found[0]!;
}

const label = (example: Example) =>
  `line ${example.line}: ${example.kind}${Object.entries(example.attributes)
    .map(([key, value]) => ` ${key}=${value}`)
    .join('')}`;

// ---------------------------------------------------------------------------------------------------------
// Directions as the document writes them

const DIRECTION_WORDS: Readonly<Record<string, LineUpMessageDirection>> = {
  'agent → client': 'agent_to_client',
  'client → agent': 'client_to_agent',
  'either way': 'either',
};

const MESSAGE_HEADING = /^`(lineup\.v1\.[A-Za-z0-9._:-]+)`$/;
const DIRECTION_LINE = /^\*\*Direction:\*\* (.+?)\s*$/m;

function sectionType(example: Example): string | undefined {
  const heading = example.section?.heading.text;
  return heading === undefined ? undefined : MESSAGE_HEADING.exec(heading)?.[1];
}

function writtenDirection(example: Example): LineUpMessageDirection | undefined {
  const words = example.section && DIRECTION_LINE.exec(example.section.text)?.[1];
  return words === undefined ? undefined : DIRECTION_WORDS[words];
}

const isKnownType = (type: string): type is LineUpMessageType => Object.hasOwn(LINEUP_MESSAGE_TYPES, type);

// ---------------------------------------------------------------------------------------------------------
// Validators, by marker kind

function requireAttribute(example: Example, name: string): string {
  const value = example.attributes[name];
  if (value === undefined) throw new Error(`${label(example)}: the marker needs ${name}=…`);
  return value;
}

const VALIDATORS: Readonly<Record<string, (example: Example) => void>> = {
  envelope(example) {
    const type = sectionType(example);
    expect(type, `${label(example)}: an envelope example sits under a "### \`type\`" heading`).toBeDefined();
    expect(isKnownType(type!), `${label(example)}: ${type} is in LINEUP_MESSAGE_TYPES`).toBe(true);
    const { direction } = LINEUP_MESSAGE_TYPES[type as LineUpMessageType];
    expect(writtenDirection(example), `${label(example)}: the written direction of ${type}`).toBe(direction);
    const parsed = parseEnvelope(example.value);
    expect(parsed.kind).toBe('message');
    const message = (parsed as { message: LineUpMessage }).message;
    expect(message.type).toBe(type);
    // The receiver's own direction check accepts it too.
    for (const receiver of LINEUP_DIRECTIONS) {
      if (direction === 'either' || direction === receiver)
        parseEnvelope(example.value, { direction: receiver });
    }
    // The consumer-level validators the envelope defers to (messages/document.ts).
    if (message.type === 'lineup.v1.ui.document') parseDocument(message.payload.document);
    if (message.type === 'lineup.v1.ui.checkpoint') acceptCheckpoint(null, message.payload.checkpoint);
  },
  'envelope-unsupported'(example) {
    const reason = requireAttribute(example, 'reason');
    const parsed = parseEnvelope(example.value);
    expect(parsed).toEqual({
      kind: 'unsupported',
      reason,
      id: example.value.id,
      type: example.value.type,
      conversation_id: example.value.conversation_id,
      sender: example.value.sender,
    });
  },
  'envelope-refused'(example) {
    // A message the client refuses: readEnvelopeText says where and why, and reads its header for the answer.
    const read = readEnvelopeText(JSON.stringify(example.value), { direction: 'agent_to_client' });
    expect(read.kind, label(example)).toBe('invalid');
    if (read.kind !== 'invalid') return;
    expect(read.error.issues[0]).toMatchObject({
      path: requireAttribute(example, 'path'),
      code: requireAttribute(example, 'code'),
    });
  },
  'envelope-answer'(example) {
    // An answer the client sends (client → agent): a valid message.
    const parsed = parseEnvelope(example.value, { direction: 'client_to_agent' });
    expect(parsed.kind, label(example)).toBe('message');
  },
  'surface-from-frame': (example) =>
    void parseSurfaceMessageFromFrame(example.value, requireAttribute(example, 'instance')),
  'surface-to-frame': (example) =>
    void parseSurfaceMessageToFrame(example.value, requireAttribute(example, 'instance')),
  'surface-view-start'(example) {
    const message = parseSurfaceMessageToFrame(example.value, requireAttribute(example, 'instance'));
    expect(message).toMatchObject({ type: 'start', protocol: 'mcp_app' });
  },
  'surface-mcp': (example) =>
    void parseSurfaceMcpMessage(example.value, requireAttribute(example, 'instance')),
  'surface-key': (example) =>
    void parseSurfaceKeyMessage(example.value, requireAttribute(example, 'instance')),
  'surface-storage': (example) =>
    void parseSurfaceStorageMessage(example.value, requireAttribute(example, 'instance')),
  'surface-page-start'(example) {
    const message = parseSurfaceMessageToFrame(example.value, requireAttribute(example, 'instance'));
    expect(message).toMatchObject({ type: 'start', protocol: 'miniapp' });
  },
  'surface-page'(example) {
    const { message } = parseSurfacePageMessage(example.value, requireAttribute(example, 'instance'));
    void parseMiniAppMessageFromFrame(message, requireAttribute(example, 'instance'));
  },
  'mcp-manifest': (example) => void parseMcpServerManifest(example.value),
  'miniapp-from-frame': (example) =>
    void parseMiniAppMessageFromFrame(example.value, requireAttribute(example, 'instance')),
  'miniapp-to-frame': (example) =>
    void parseMiniAppMessageToFrame(example.value, requireAttribute(example, 'instance')),
  'tool-descriptor': (example) => void parseAgentToolDescriptor(example.value),
  manifest: (example) => void parseMiniAppManifest(example.value),
  'document-ref': (example) => void parseUIDocumentRef(example.value),
  'action-reserve-request': (example) => void parseUIActionReserveRequest(example.value),
  'action-query': (example) => void parseUIActionQuery(example.value),
  'action-result': (example) => void parseUIActionResult(example.value),
  'action-receipt': (example) => void parseUIActionReceipt(example.value),
  'capability-descriptor': (example) => void parseUICapabilityDescriptor(example.value),
  'action-receipt-list': (example) => void parseUIActionReceiptList(example.value),
  'capability-catalog': (example) => void parseUICapabilityCatalog(example.value),
  checkpoint: (example) => void acceptCheckpoint(null, example.value),
  // Applied in order to the documented checkpoint's stream: see "the stream examples" below.
  'stream-mutation': () => {},
  'intelligent-ui-tool'(example) {
    const tool = findIntelligentUITool(requireAttribute(example, 'name'));
    expect(tool, `${label(example)}: a tool of INTELLIGENT_UI_TOOL_NAMES`).toBeDefined();
    tool!.parseArguments(example.value);
  },
};

/** The discriminator values of a channel's union (zod 4 records them per discriminated property). */
function channelTypes(schema: unknown): string[] {
  const values = (schema as { _zod: { propValues: Record<string, Set<unknown>> } })._zod.propValues.type;
  return [...(values ?? [])].map(String).sort();
}

// ---------------------------------------------------------------------------------------------------------
// Tests

describe('the example reader', () => {
  const block = (language: string, body = '{}') => `\`\`\`${language}\n${body}\n\`\`\``;
  const ROWS: [rule: string, markdown: string, problem: RegExp | null][] = [
    ['a marked json block', `<!-- example: manifest -->\n\n${block('json')}`, null],
    ['a json block without marker', `Text.\n\n${block('json')}`, /json block without an example marker/],
    ['a marker before a ts block', `<!-- example: manifest -->\n${block('ts')}`, /followed by a ts block/],
    ['a marker before prose', '<!-- example: manifest -->\nText.', /not directly followed/],
    ['a marker before a heading', '<!-- example: manifest -->\n## Next', /without a json block/],
    ['a marker at the end', 'Text.\n<!-- example: manifest -->', /without a json block/],
    ['two markers in a row', `<!-- example: a -->\n<!-- example: b -->\n${block('json')}`, /without a json/],
    ['a block never closed', `<!-- example: manifest -->\n\`\`\`json\n{}`, /never closed/],
  ];

  it.each(ROWS)('%s', (_, markdown, problem) => {
    const read = readDocument(markdown);
    if (problem === null) {
      expect(read.problems).toEqual([]);
      expect(read.examples.map((example) => example.kind)).toEqual(['manifest']);
    } else {
      expect(
        read.problems.some((text) => problem.test(text)),
        read.problems.join('; '),
      ).toBe(true);
    }
  });

  it('reads marker attributes and the section of an example', () => {
    const read = readDocument(
      `### \`lineup.v1.ui.close\`\n\n**Direction:** agent → client\n\n<!-- example: envelope a=1 b=x.y -->\n\n${block('json')}`,
    );
    const [example] = read.examples;
    expect(example?.attributes).toEqual({ a: '1', b: 'x.y' });
    expect(example && sectionType(example)).toBe('lineup.v1.ui.close');
    expect(example && writtenDirection(example)).toBe('agent_to_client');
  });
});

describe('docs/protocol.md: structure', () => {
  it('has a marker before every json block and a json block after every marker', () => {
    expect(DOCUMENT.problems).toEqual([]);
    expect(examples.length).toBeGreaterThan(0);
  });

  it('uses only marker kinds with a validator', () => {
    const unknown = examples.filter((example) => !Object.hasOwn(VALIDATORS, example.kind)).map(label);
    expect(unknown).toEqual([]);
  });

  it('has an example of every marker kind', () => {
    const used = new Set(examples.map((example) => example.kind));
    expect(Object.keys(VALIDATORS).filter((kind) => !used.has(kind))).toEqual([]);
  });
});

describe('docs/protocol.md: every example passes its real parser', () => {
  it.each(examples.map((example) => [label(example), example] as const))('%s', (_, example) => {
    VALIDATORS[example.kind]!(example);
  });
});

describe('docs/protocol.md: the lineup.v1 catalogue', () => {
  const envelopes = examplesOf('envelope');

  it('documents every message type with exactly one example', () => {
    const counts = new Map<string, number>();
    for (const example of envelopes) {
      const type = sectionType(example) ?? '(none)';
      counts.set(type, (counts.get(type) ?? 0) + 1);
    }
    const types = Object.keys(LINEUP_MESSAGE_TYPES).sort();
    expect([...counts.keys()].sort()).toEqual(types);
    for (const type of types) expect(counts.get(type), type).toBe(1);
  });

  it('gives every message type its own section stating its direction', () => {
    for (const [type, { direction }] of Object.entries(LINEUP_MESSAGE_TYPES)) {
      const heading = DOCUMENT.headings.find((candidate) => candidate.text === `\`${type}\``);
      expect(heading?.level, type).toBe(3);
      const words = DIRECTION_LINE.exec(sectionText(DOCUMENT.lines, DOCUMENT.headings, heading!))?.[1];
      expect(words === undefined ? undefined : DIRECTION_WORDS[words], type).toBe(direction);
    }
  });

  it('lists every message type with its direction in the catalogue table', () => {
    const rows = new Map<string, string>();
    for (const line of DOCUMENT.lines) {
      const row = /^\|\s*`(lineup\.v1\.[^`]+)`\s*\|\s*([^|]+?)\s*\|/.exec(line);
      if (row) rows.set(row[1]!, row[2]!);
    }
    expect([...rows.keys()].sort()).toEqual(Object.keys(LINEUP_MESSAGE_TYPES).sort());
    for (const [type, { direction }] of Object.entries(LINEUP_MESSAGE_TYPES)) {
      expect(DIRECTION_WORDS[rows.get(type)!], type).toBe(direction);
    }
  });

  it('documents an unknown type answered unsupported, and the answer to it', () => {
    const unknown = only('envelope-unsupported');
    expect(unknown.value.type).toBe('lineup.v1.ui.frobnicate');
    expect(isKnownType(unknown.value.type)).toBe(false);
    const answer = only('envelope', (example) => sectionType(example) === 'lineup.v1.unsupported').value;
    expect(answer.payload).toEqual({
      message_id: unknown.value.id,
      message_type: unknown.value.type,
      reason: unknown.attributes.reason,
    });
    expect(answer.target).toEqual(unknown.value.sender);
    expect(answer.conversation_id).toBe(unknown.value.conversation_id);
  });
});

describe('docs/protocol.md: what the client answers', () => {
  it('answers the refused call with its own result, naming where it is invalid', () => {
    const [refused] = examplesOf('envelope-refused');
    const answer = examplesOf('envelope-answer').find(
      (example) => example.value.type === 'lineup.v1.tool.result',
    );
    expect(refused).toBeDefined();
    expect(answer?.value.payload).toMatchObject({
      call_id: refused!.value.payload.call_id,
      outcome: 'error',
      error: {
        code: 'invalid_message',
        issues: [{ path: refused!.attributes.path, code: refused!.attributes.code }],
      },
    });
    expect(answer?.value.conversation_id).toBe(refused!.value.conversation_id);
  });

  it('documents every connection refusal with its code', () => {
    for (const [refusal, { code }] of Object.entries(LINEUP_CONNECTION_REFUSALS))
      expect(
        DOCUMENT.lines.some((line) => line.includes(`\`${refusal}\``) && line.includes(`| ${code} |`)),
        refusal,
      ).toBe(true);
  });

  it('documents every unsupported reason and every tool error code', () => {
    const text = DOCUMENT.lines.join('\n');
    for (const reason of LINEUP_UNSUPPORTED_REASONS) expect(text, reason).toContain(`\`${reason}\``);
    for (const code of TOOL_ERROR_CODES) expect(text, code).toContain(`\`${code}\``);
  });
});

describe('docs/protocol.md: the iframe channels', () => {
  const typesOf = (kind: string) =>
    examplesOf(kind)
      .map((example) => String(example.value.type))
      .sort();

  it.each([
    ['surface-from-frame', SurfaceMessageFromFrameSchema],
    ['surface-to-frame', SurfaceMessageToFrameSchema],
    ['miniapp-from-frame', MiniAppMessageFromFrameSchema],
    ['miniapp-to-frame', MiniAppMessageToFrameSchema],
  ] as const)('%s: one example of every message type', (kind, schema) => {
    const expected = channelTypes(schema);
    expect(expected.length).toBeGreaterThan(0);
    expect(typesOf(kind)).toEqual(expected);
  });
});

describe('docs/protocol.md: the examples tell one story', () => {
  it('the inventory publishes the documented tool descriptor', () => {
    const descriptor = parseAgentToolDescriptor(only('tool-descriptor').value);
    const inventory = only('envelope', (e) => sectionType(e) === 'lineup.v1.client.inventory').value;
    expect(inventory.payload.tools).toEqual([toAgentToolInventoryEntry(descriptor)]);
    const manifest = parseMiniAppManifest(only('manifest').value);
    expect(manifest.tools).toContainEqual(descriptor);
    const call = only('envelope', (e) => sectionType(e) === 'lineup.v1.tool.call').value;
    expect(call.payload.tool).toBe(inventory.payload.tools[0].name);
    expect(call.payload.inventory_revision).toBe(inventory.payload.revision);
  });

  it("the receipt's parameterHash binds the documented reserve request", () => {
    const request = parseUIActionReserveRequest(only('action-reserve-request').value);
    const receipt = parseUIActionReceipt(only('action-receipt').value);
    expect(receipt.parameterHash).toBe(computeParameterHash(request));
    expect(receipt.requestId).toBe(request.requestId);
    expect(receipt.documentRef).toEqual(request.documentRef);
    expect(receipt.documentRef).toEqual(parseUIDocumentRef(only('document-ref').value));
    expect(receipt.result).toEqual(parseUIActionResult(only('action-result').value));
  });

  it('the reserve request names an action of the documented 1.1 document', () => {
    const request = only('action-reserve-request').value;
    const message = only('envelope', (e) => sectionType(e) === 'lineup.v1.ui.document').value;
    const document = parseDocument(message.payload.document);
    expect(document.id).toBe(request.documentRef.uiId);
    expect(document.version === '1.1' && Object.keys(document.actions)).toContain(request.actionId);
  });

  it('ui.action clicks an agent action of the documented document, and ui.action_result answers it', () => {
    const action = only('envelope', (e) => sectionType(e) === 'lineup.v1.ui.action').value;
    const click = action.payload;
    const message = only('envelope', (e) => sectionType(e) === 'lineup.v1.ui.document').value;
    const document = parseDocument(message.payload.document);
    const reference = parseUIDocumentRef(only('document-ref').value);
    expect(click.document).toEqual({
      source_call_id: reference.sourceCallId,
      ui_id: reference.uiId,
      generation: reference.generation,
      revision: reference.revision,
    });
    expect(document.id).toBe(click.document.ui_id);
    // The prompt is what the action computes in the document's initial state.
    expect(resolveUIAction(document, initialState(document), click.action_id)).toEqual({
      kind: 'agent',
      actionId: click.action_id,
      prompt: click.prompt,
    });
    const answer = only('envelope', (e) => sectionType(e) === 'lineup.v1.ui.action_result').value;
    expect(answer.payload.operation_id).toBe(click.operation_id);
    expect(answer.conversation_id).toBe(action.conversation_id);
  });

  it('the three mutations lead from the documented checkpoint to the documented complete frame', () => {
    const opening = only('checkpoint').value;
    const mutations = examplesOf('stream-mutation').map((example) => example.value);
    expect(mutations.map((mutation) => mutation.type)).toEqual([...UI_STREAM_MUTATION_TYPES]);
    let state: UIStreamState = startUIStream(opening.snapshot, opening.sourceCallId, opening.generation);
    expect(state.checkpoint).toEqual(opening);
    for (const mutation of mutations) state = advanceUIStream(state, mutation);
    const message = only('envelope', (e) => sectionType(e) === 'lineup.v1.ui.checkpoint').value;
    const completed = acceptCheckpoint(state, message.payload.checkpoint);
    expect(completed.status).toBe('completed');
    expect(completed.checkpoint).toEqual(advanceUIStream(state, { type: 'complete' }).checkpoint);
  });

  it('the tool examples use the cursor of the documented stream', () => {
    const opening = only('checkpoint').value;
    for (const name of ['intelligent_ui_patch', 'intelligent_ui_complete']) {
      const example = only('intelligent-ui-tool', (e) => e.attributes.name === name).value;
      expect(example.sourceCallId).toBe(opening.sourceCallId);
      expect(example.generation).toBe(opening.generation);
    }
    expect(INTELLIGENT_UI_TOOL_NAMES.every((name) => protocolDoc.includes(`\`${name}\``))).toBe(true);
  });
});

describe('docs/protocol.md: the limits tables', () => {
  /** Every limit object whose every entry the tables must list. */
  const COMPLETE: Readonly<Record<string, Readonly<Record<string, number>>>> = {
    LINEUP_WIRE_LIMITS,
    BRIDGE_LIMITS,
    SURFACE_CHANNEL_LIMITS,
    MCP_VIEW_CHANNEL_LIMITS,
    MINIAPP_PAGE_CHANNEL_LIMITS,
    MCP_SERVER_LIMITS,
    MINIAPP_CHANNEL_LIMITS,
    AGENT_TOOL_LIMITS,
    TOOL_CONSENT_LIMITS,
    MINIAPP_MANIFEST_LIMITS,
    UI_PROTOCOL_LIMITS,
    UI_ACTION_PROTOCOL_LIMITS,
    UI_STREAM_LIMITS,
    VIEW_CONTEXT_LIMITS,
  };
  /** Limit objects the tables may quote from without listing all of them. */
  const PARTIAL: Readonly<Record<string, Readonly<Record<string, number>>>> = { UI_LIMITS, UI_SCHEMA_LIMITS };
  const SINGLE: Readonly<Record<string, number>> = { MIN_HOST_DOCUMENT_BYTES };

  const limitsSection = (() => {
    const heading = DOCUMENT.headings.find(
      (candidate) => candidate.level === 2 && candidate.text === 'Limits',
    );
    if (heading === undefined) throw new Error('docs/protocol.md has no "## Limits" section');
    return sectionText(DOCUMENT.lines, DOCUMENT.headings, heading);
  })();

  const rows = limitsSection
    .split('\n')
    .map((line) => /^\|\s*`([A-Z_]+(?:\.[A-Za-z]+)?)`\s*\|\s*([^|]+?)\s*\|/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ name: match[1]!, written: match[2]! }));

  function constant(name: string): number | undefined {
    const [object, key] = name.split('.');
    if (key === undefined) return SINGLE[object!];
    const source = COMPLETE[object!] ?? PARTIAL[object!];
    return source !== undefined && Object.hasOwn(source, key) ? source[key] : undefined;
  }

  it('has rows', () => {
    expect(rows.length).toBeGreaterThan(0);
  });

  it.each(rows.map((row) => [row.name, row] as const))('%s', (name, { written }) => {
    const actual = constant(name);
    expect(actual, `${name} is an exported limit`).toBeDefined();
    expect(Number(written.replaceAll(',', '')), `${name} as written: ${written}`).toBe(actual);
  });

  it('lists every entry of every protocol limit object, once', () => {
    const names = rows.map((row) => row.name);
    expect(new Set(names).size).toBe(names.length);
    for (const [object, values] of Object.entries(COMPLETE)) {
      for (const key of Object.keys(values)) expect(names, `${object}.${key}`).toContain(`${object}.${key}`);
    }
  });
});
