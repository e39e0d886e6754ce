/**
 * docs/protocol.md cannot rot: every ```json block in it is an example preceded by a marker
 * (`<!-- example: <kind> key=value … -->`) naming the real parser that must accept it, and every example passes
 * that parser; every marker kind has a validator and an example (DESIGN.md "Write the full catalogue, with one
 * example per message"; CONVENTIONS.md 17). Also the example reader itself.
 */
import { describe, expect, it } from 'vitest';
import {
  DOCUMENT,
  type Example,
  examples,
  isKnownType,
  label,
  readDocument,
  sectionType,
  writtenDirection,
} from '../../test/protocol-docs.js';
import {
  parseUIActionQuery,
  parseUIActionReceipt,
  parseUIActionReceiptList,
  parseUIActionReserveRequest,
  parseUIActionResult,
  parseUICapabilityCatalog,
  parseUICapabilityDescriptor,
  parseUIDocumentRef,
} from '../actions/protocol.js';
import { findIntelligentUITool } from '../agent/tools.js';
import { parseMiniAppMessageFromFrame, parseMiniAppMessageToFrame } from '../bridge/miniapp.js';
import {
  parseSurfaceMcpMessage,
  parseSurfaceMessageFromFrame,
  parseSurfaceMessageToFrame,
  parseSurfacePageMessage,
} from '../bridge/surface.js';
import { parseSurfaceKeyMessage, parseSurfaceStorageMessage } from '../bridge/surface-view.js';
import { parseDocument } from '../dsl/document.js';
import { acceptCheckpoint } from '../stream/stream.js';
import { parseEnvelope, readEnvelopeText } from './envelope.js';
import {
  LINEUP_DIRECTIONS,
  LINEUP_MESSAGE_TYPES,
  type LineUpMessage,
  type LineUpMessageType,
} from './envelope-schemas.js';
import { parseMcpServerManifest } from './mcp/server.js';
import { parseAgentToolDescriptor } from './tools/descriptor.js';
import { parseMiniAppManifest } from './tools/manifest.js';

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
  // Applied in order to the documented checkpoint's stream: see "the stream examples" in docs.story.test.ts.
  'stream-mutation': () => {},
  'intelligent-ui-tool'(example) {
    const tool = findIntelligentUITool(requireAttribute(example, 'name'));
    expect(tool, `${label(example)}: a tool of INTELLIGENT_UI_TOOL_NAMES`).toBeDefined();
    tool!.parseArguments(example.value);
  },
};
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
