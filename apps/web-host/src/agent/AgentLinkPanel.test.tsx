import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AgentLinkPanel } from './AgentLinkPanel.tsx';
import { AgentLinkGate, type AgentPlan, RememberedAgents } from './agent-link.ts';
import { RememberedAgentsList } from './RememberedAgentsList.tsx';

const LINK: AgentPlan = {
  kind: 'link',
  url: 'ws://127.0.0.1:8787/agent?room=1',
  origin: 'ws://127.0.0.1:8787',
  remembered: false,
};

const gateOf = (plan: AgentPlan, remembered = new RememberedAgents(null)) =>
  new AgentLinkGate(plan, remembered);

describe('AgentLinkPanel', () => {
  it('asks in a labelled region: the origin, the full address, what the agent would get, two buttons', () => {
    const html = renderToStaticMarkup(<AgentLinkPanel gate={gateOf(LINK)} />);
    expect(html).toMatch(
      /<section tabindex="-1" class="host__agent-link host__agent-link--asking" aria-labelledby="agent-link-title" aria-describedby="agent-link-sees"/,
    );
    expect(html).toContain(
      '<h2 id="agent-link-title" class="host__agent-link-title">Connect to the agent named in this link?</h2>',
    );
    expect(html).toContain('>ws://127.0.0.1:8787</code>');
    expect(html).toContain('>ws://127.0.0.1:8787/agent?room=1</code>');
    expect(html).toContain(
      '<p id="agent-link-sees" class="host__agent-link-sees">If you connect, this agent sees the tools of every app installed here, and can ask to run them.</p>',
    );
    // Not armed yet: a press meant for something else cannot answer it.
    expect(html).toContain('<button type="button" disabled="">Don’t connect</button>');
    expect(html).toContain(
      '<button type="button" class="host__agent-link-connect" disabled="">Connect</button>',
    );
  });

  it('shows nothing for the demo agent or the host’s own agent', () => {
    expect(renderToStaticMarkup(<AgentLinkPanel gate={gateOf({ kind: 'demo' })} />)).toBe('');
    expect(
      renderToStaticMarkup(
        <AgentLinkPanel
          gate={gateOf({ kind: 'configured', url: 'wss://a.example/', origin: 'wss://a.example' })}
        />,
      ),
    ).toBe('');
  });

  it('after "Connect", says where the agent came from, with a way to forget it', () => {
    const gate = gateOf(LINK);
    gate.connect();
    const html = renderToStaticMarkup(<AgentLinkPanel gate={gate} />);
    expect(html).toContain(
      'The agent at ws://127.0.0.1:8787 comes from this page’s link; you allowed it in this browser.',
    );
    // The stand-in storage keeps nothing, and the note says so.
    expect(html).toContain('This browser could not remember the choice');
    expect(html).toContain('<button type="button">Forget this agent</button>');
  });
});

describe('RememberedAgentsList', () => {
  it('lists each remembered origin with a Forget button named after it', () => {
    const remembered = new RememberedAgents(null);
    remembered.remember('ws://127.0.0.1:8787');
    remembered.remember('wss://agent.example.com');
    const html = renderToStaticMarkup(<RememberedAgentsList gate={gateOf({ kind: 'demo' }, remembered)} />);
    expect(html).toContain('<h3 id="agent-origins-title" tabindex="-1">Agents allowed from links</h3>');
    expect(html).toContain('<button type="button" aria-label="Forget ws://127.0.0.1:8787">Forget</button>');
    expect(html).toContain(
      '<button type="button" aria-label="Forget wss://agent.example.com">Forget</button>',
    );
  });

  it('says when none is remembered', () => {
    const html = renderToStaticMarkup(<RememberedAgentsList gate={gateOf({ kind: 'demo' })} />);
    expect(html).toContain('No agent from a link is remembered in this browser.');
    expect(html).not.toContain('<button');
  });
});
