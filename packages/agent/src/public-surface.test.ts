import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import * as aiSdk from './ai-sdk.js';
import * as entry from './index.js';

// The public surface is pinned: adding, removing or renaming an export or an entry point fails here, so an API
// change is always deliberate (and has a changeset).
describe('@lineup/agent public surface', () => {
  it('exports exactly the pinned entry points and the lineup-agent command', () => {
    expect(Object.keys(packageJson.exports)).toEqual(['.', './ai-sdk', './package.json']);
    expect(Object.keys(packageJson.publishConfig.exports)).toEqual(['.', './ai-sdk', './package.json']);
    expect(packageJson.bin).toEqual({ 'lineup-agent': './dist/cli.js' });
  });

  it('exports exactly the pinned names from "."', () => {
    expect(Object.keys(entry).sort()).toMatchInlineSnapshot(`
      [
        "AGENT_HOST_LIMITS",
        "AgentStore",
        "AgentStoreError",
        "ChatModelError",
        "DEFAULT_INSTRUCTIONS",
        "INTELLIGENT_UI_CHAT_TOOLS",
        "INTERRUPTED_TURN_TEXT",
        "LINEUP_ACK_PROTOCOL",
        "LINEUP_PROTOCOL",
        "MIGRATIONS",
        "Ownership",
        "PGLITE_LOCK_FILE",
        "RecentIds",
        "SchemaVersionError",
        "StoreBusyError",
        "StreamRecords",
        "StreamRefusal",
        "TOKEN_PROTOCOL_PREFIX",
        "buildToolTable",
        "chatCompletionsBrain",
        "createChatCompletionsModel",
        "createLLMAgent",
        "envelopeSender",
        "functionNameOf",
        "lineUpIdFrom",
        "migrate",
        "openDatabase",
        "openPGlite",
        "openPostgres",
        "pgliteDatabase",
        "scriptedBrain",
        "startAgentHost",
        "streamRefusalText",
      ]
    `);
  });

  it('exports exactly the pinned names from "./ai-sdk", and "ai" stays an optional peer', () => {
    expect(Object.keys(aiSdk).sort()).toEqual([
      'aiSdkBrain',
      'aiSdkChatModel',
      'lineUpToolSet',
      'toModelMessages',
    ]);
    expect(packageJson.peerDependencies).toEqual({ ai: '^6.0.0' });
    expect(packageJson.peerDependenciesMeta).toEqual({ ai: { optional: true } });
    expect(Object.keys(packageJson.dependencies)).not.toContain('ai');
  });
});
