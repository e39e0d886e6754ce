import { describe, expect, it } from 'vitest';
import {
  hostDecision,
  type ToolConsentFacts,
  type ToolPolicyDecision,
  type ToolPolicyRule,
  toolConsentPolicy,
  toolPolicyRuleProblem,
} from './policy.js';

const miniapp = (risk: ToolConsentFacts['risk']): ToolConsentFacts => ({
  name: 'notes.edit',
  risk,
  kind: 'miniapp',
});
const mcp = (claims: Partial<ToolConsentFacts> = {}): ToolConsentFacts => ({
  name: 'files.remove',
  risk: claims.readOnly === true ? 'display_only' : 'user_confirmation',
  kind: 'mcp_server',
  trusted: false,
  readOnly: false,
  destructive: false,
  ...claims,
});
const rule = (decision: ToolPolicyDecision, extra: Partial<ToolPolicyRule> = {}): ToolPolicyRule => ({
  tools: '*',
  decision,
  ...extra,
});

describe('the default of a risk (seed 000 §5, seed 003 §2.3)', () => {
  it.each([
    ['display_only', 'allow', false, false],
    ['user_confirmation', 'ask', true, false],
    ['system_permission', 'ask', false, false],
    ['restricted', 'deny', false, false],
  ] as const)('%s: %s (rememberable %s)', (risk, decision, rememberable, extraStep) => {
    expect(toolConsentPolicy(miniapp(risk))).toEqual({
      decision,
      source: 'default',
      rememberable,
      extraStep,
    });
  });

  it.each([
    ['an untrusted server, read-only claim', mcp({ readOnly: true }), 'ask', true],
    ['an untrusted server, no claim', mcp(), 'ask', true],
    ['an untrusted server, destructive claim', mcp({ destructive: true }), 'ask', false],
    ['a trusted server, read-only claim', mcp({ readOnly: true, trusted: true }), 'allow', false],
    ['a trusted server, no claim', mcp({ trusted: true }), 'ask', true],
    ['a trusted server, destructive claim', mcp({ destructive: true, trusted: true }), 'ask', false],
    [
      'a trusted server, read-only and destructive claims',
      mcp({ readOnly: true, destructive: true, trusted: true }),
      'ask',
      false,
    ],
  ] as const)('MCP, %s: %s', (_name, facts, decision, rememberable) => {
    expect(toolConsentPolicy(facts)).toMatchObject({ decision, rememberable, source: 'default' });
  });
});

describe('the host floor, the user choice, the default', () => {
  it.each([
    // risk, host, user → decision, source
    ['user_confirmation', 'allow', undefined, 'allow', 'host'],
    ['user_confirmation', 'deny', undefined, 'deny', 'host'],
    ['user_confirmation', 'deny', 'allow', 'deny', 'host'],
    ['user_confirmation', 'ask', 'allow', 'ask', 'host'],
    ['user_confirmation', 'allow', 'deny', 'deny', 'user'],
    ['user_confirmation', 'allow', 'ask', 'ask', 'user'],
    ['user_confirmation', undefined, 'allow', 'allow', 'user'],
    ['user_confirmation', undefined, 'deny', 'deny', 'user'],
    ['display_only', undefined, 'ask', 'ask', 'user'],
    ['display_only', 'deny', undefined, 'deny', 'host'],
    // Never without a question, whoever allows.
    ['system_permission', 'allow', undefined, 'ask', 'host'],
    ['system_permission', undefined, 'allow', 'ask', 'user'],
    // Restricted: denied unless a rule or the user enables it; then asked with a second step.
    ['restricted', undefined, undefined, 'deny', 'default'],
    ['restricted', 'ask', undefined, 'ask', 'host'],
    ['restricted', 'allow', undefined, 'ask', 'host'],
    ['restricted', undefined, 'allow', 'ask', 'user'],
    ['restricted', 'deny', 'allow', 'deny', 'host'],
  ] as const)('%s, host %s, user %s → %s by %s', (risk, host, user, decision, source) => {
    const policy = toolConsentPolicy(miniapp(risk), host === undefined ? [] : [rule(host)], user);
    expect(policy).toMatchObject({ decision, source });
    if (decision === 'ask') {
      expect(policy.rememberable).toBe(risk === 'user_confirmation' || risk === 'display_only');
      expect(policy.extraStep).toBe(risk === 'restricted');
    }
  });

  it('a destructive MCP tool asks every time, whoever allows it', () => {
    expect(toolConsentPolicy(mcp({ destructive: true }), [rule('allow')], 'allow')).toMatchObject({
      decision: 'ask',
      rememberable: false,
    });
  });

  it('among matching rules deny wins, then ask; rules match by name, app scope, risk and kind', () => {
    const facts = miniapp('user_confirmation');
    expect(hostDecision([rule('allow'), rule('deny', { tools: 'notes.*' }), rule('ask')], facts)).toBe(
      'deny',
    );
    expect(hostDecision([rule('allow'), rule('ask', { tools: 'notes.edit' })], facts)).toBe('ask');
    expect(hostDecision([rule('deny', { tools: 'notes.delete' })], facts)).toBeUndefined();
    expect(hostDecision([rule('deny', { tools: 'note.*' })], facts)).toBeUndefined();
    expect(hostDecision([rule('deny', { risk: 'restricted' })], facts)).toBeUndefined();
    expect(hostDecision([rule('deny', { kind: 'mcp_server' })], facts)).toBeUndefined();
    expect(hostDecision([rule('deny', { kind: 'miniapp', risk: 'user_confirmation' })], facts)).toBe('deny');
  });
});

describe('host rules are checked', () => {
  it.each([
    [{ tools: '*', decision: 'allow' }, undefined],
    [{ tools: 'notes.*', decision: 'deny', risk: 'restricted', kind: 'miniapp' }, undefined],
    [{ tools: 'notes.deleteAll', decision: 'ask' }, undefined],
    [null, 'A tool policy rule is an object.'],
    [{ tools: 'notes', decision: 'allow' }, 'A rule names its tools'],
    [{ tools: 'Notes.*', decision: 'allow' }, 'A rule names its tools'],
    [{ tools: '*', decision: 'maybe' }, 'A rule decision is allow, ask or deny.'],
    [{ tools: '*', decision: 'allow', risk: 'low' }, 'A rule risk is'],
    [{ tools: '*', decision: 'allow', kind: 'plugin' }, 'A rule kind is miniapp or mcp_server.'],
    [{ tools: '*', decision: 'allow', extra: 1 }, 'A tool policy rule has no field extra.'],
  ])('%j', (input, problem) => {
    const found = toolPolicyRuleProblem(input);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });
});
