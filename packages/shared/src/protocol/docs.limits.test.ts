/**
 * docs/protocol.md cannot rot: every number in its limits tables is the exported constant, and every entry of
 * every protocol limit object is listed, once (CONVENTIONS.md 17).
 */
import { describe, expect, it } from 'vitest';
import { DOCUMENT, sectionText } from '../../test/protocol-docs.js';
import { UI_ACTION_PROTOCOL_LIMITS } from '../actions/protocol.js';
import { BRIDGE_LIMITS } from '../bridge/channel.js';
import { MINIAPP_CHANNEL_LIMITS } from '../bridge/miniapp.js';
import {
  MCP_VIEW_CHANNEL_LIMITS,
  MINIAPP_PAGE_CHANNEL_LIMITS,
  SURFACE_CHANNEL_LIMITS,
} from '../bridge/surface.js';
import { AGENT_TOOL_LIMITS, TOOL_CONSENT_LIMITS } from '../limits/tool-limits.js';
import {
  MIN_HOST_DOCUMENT_BYTES,
  UI_LIMITS,
  UI_PROTOCOL_LIMITS,
  UI_SCHEMA_LIMITS,
} from '../limits/ui-limits.js';
import { UI_STREAM_LIMITS } from '../stream/checkpoint.js';
import { MCP_SERVER_LIMITS } from './mcp/server.js';
import { VIEW_CONTEXT_LIMITS } from './messages/chat.js';
import { LINEUP_WIRE_LIMITS } from './messages/limits.js';
import { MINIAPP_MANIFEST_LIMITS } from './tools/manifest.js';

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
