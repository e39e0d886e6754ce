import type { ClientInventoryPayload } from '@lineup/shared/protocol';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AgentConnection } from '../agent/connection.ts';
import { AgentConsole, ConsoleView } from './AgentConsole.tsx';

const INVENTORY = {
  revision: 'inv_1',
  standard_components: [],
  applications: [],
  capabilities: [],
  tools: [
    {
      name: 'pomodoro.start',
      app_scope: 'pomodoro',
      method: 'start',
      contract_version: '1.0',
      description: 'Starts a timed focus session.',
      input_schema: {
        type: 'object',
        properties: {
          minutes: { type: 'integer', minimum: 1, maximum: 180 },
          label: { type: 'string', minLength: 1, maxLength: 64 },
        },
        required: ['minutes'],
        additionalProperties: false,
      },
      output_schema: {},
      call_model: 'operation',
      idempotency: 'call_id',
      timeout_ms: 11_100_000,
      activation: 'foreground_required',
      risk: 'display_only',
    },
  ],
} satisfies ClientInventoryPayload;

/** The parts of the connection the console reads, without a transport. */
function connection(remoteUrl: string | null, status: AgentConnection['status'] = 'open'): AgentConnection {
  return {
    agent: remoteUrl === null ? { send: () => {} } : null,
    remoteUrl,
    status,
    conversationId: 'conv_web_host',
    onStatus: () => () => {},
    onMessage: () => () => {},
  } as unknown as AgentConnection;
}

describe('AgentConsole', () => {
  it('is a labelled region, collapsed behind an expandable button until opened', () => {
    const html = renderToStaticMarkup(<AgentConsole />);
    expect(html).toMatch(/<section[^>]*aria-labelledby="console-title"/);
    expect(html).toContain('<h2 id="console-title">Agent console</h2>');
    expect(html).toMatch(
      /<button type="button" aria-expanded="false" aria-controls="console-body">Show<\/button>/,
    );
    expect(html).toMatch(/<div id="console-body"[^>]*hidden=""/);
  });
});

describe('ConsoleView', () => {
  it('labels every field of the generated form and the message log', () => {
    const html = renderToStaticMarkup(
      <ConsoleView connection={connection(null)} initialInventory={INVENTORY} />,
    );
    const labelled = [...html.matchAll(/<label for="([^"]+)"/g)].map((match) => match[1]);
    const controls = [...html.matchAll(/<(?:input|select|textarea)[^>]* id="([^"]+)"/g)].map(
      (match) => match[1],
    );
    expect(controls.length).toBeGreaterThanOrEqual(5); // tool, minutes, label, wait, filter
    for (const id of controls) expect(labelled).toContain(id);
    expect(html).toContain('<option value="pomodoro.start" selected="">pomodoro.start</option>');
    expect(html).toMatch(/minutes<span class="host__console-required"> \(required\)<\/span><\/label>/);
    expect(html).toContain('integer · 1–180');
    expect(html).toContain('text · 1–64 characters');
    expect(html).toMatch(/role="log" aria-labelledby="console-log-title"/);
    expect(html).toMatch(/<button type="submit">Call tool<\/button>/);
    expect(html).not.toContain('role="alert"');
  });

  it('turns the caller off, and says why, when a remote agent is connected', () => {
    const html = renderToStaticMarkup(
      <ConsoleView connection={connection('ws://agent.example/lineup')} initialInventory={INVENTORY} />,
    );
    expect(html).toContain('A remote agent is connected (ws://agent.example/lineup)');
    expect(html).toMatch(/<fieldset class="host__console-fieldset" disabled="">/);
    expect(html).toMatch(/<button type="submit" disabled="">Call tool<\/button>/);
    expect(html).toMatch(/role="log"/);
  });

  it('turns the caller off, and says the page has no agent, while an agent link waits for the user', () => {
    const held = { ...connection('ws://127.0.0.1:8787/agent', 'idle'), held: true } as AgentConnection;
    const html = renderToStaticMarkup(<ConsoleView connection={held} initialInventory={INVENTORY} />);
    expect(html).toContain('This page has no agent');
    expect(html).not.toContain('A remote agent is connected');
    expect(html).toMatch(/<button type="submit" disabled="">Call tool<\/button>/);
  });

  it('holds the call back while the agent connection is not open', () => {
    const html = renderToStaticMarkup(
      <ConsoleView connection={connection(null, 'connecting')} initialInventory={INVENTORY} />,
    );
    expect(html).toContain('The agent connection is not open');
    expect(html).toMatch(/<button type="submit" disabled="">Call tool<\/button>/);
  });

  it('says so when the inventory publishes no tool', () => {
    const { tools: _tools, ...withoutTools } = INVENTORY;
    const html = renderToStaticMarkup(
      <ConsoleView connection={connection(null)} initialInventory={withoutTools} />,
    );
    expect(html).toContain('The current inventory publishes no Agent Tool.');
    expect(html).not.toContain('Call tool');
  });
});
