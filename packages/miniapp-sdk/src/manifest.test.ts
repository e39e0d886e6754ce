import { LineUpProtocolError } from '@lineup/shared';
import { parseMiniAppManifest } from '@lineup/shared/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAgentTools } from './define.js';
import { generateManifest, manifestText } from './manifest.js';

const tools = defineAgentTools({
  appScope: 'notes',
  tools: {
    copy: {
      contractVersion: '1.0',
      description: 'Copies the notes.',
      input: z.strictObject({}),
      output: z.strictObject({ copied: z.boolean() }),
      callModel: 'command',
      timeoutMs: 5_000,
      activation: 'app_ready',
      risk: 'user_confirmation',
      permissions: ['clipboard.write'],
      handler: () => ({ copied: true }),
    },
  },
});

describe('generateManifest', () => {
  it('assembles the app declarations and the tool descriptors, validated by the runtime parser', () => {
    const manifest = generateManifest(
      {
        id: 'com.example.notes',
        name: 'Notes',
        version: '1.2.0',
        permissions: ['clipboard.write'],
        surfaces: [{ id: 'board', entry: 'surfaces/board.html', events: ['pick'] }],
      },
      tools,
    );
    expect(manifest).toMatchObject({
      manifest_version: 1,
      id: 'com.example.notes',
      app_scope: 'notes',
      entry: 'index.html',
      permissions: ['clipboard.write'],
      tools: [expect.objectContaining({ method: 'copy' })],
    });
    const text = manifestText(manifest);
    expect(text.endsWith('}\n')).toBe(true);
    expect(parseMiniAppManifest(JSON.parse(text))).toEqual(manifest);
  });

  it('refuses a tool permission the app does not declare, and an unsafe entry path', () => {
    const missing = () =>
      generateManifest({ id: 'com.example.notes', name: 'Notes', version: '1.2.0' }, tools);
    expect(missing).toThrow(LineUpProtocolError);
    try {
      missing();
    } catch (error) {
      expect((error as LineUpProtocolError).issues[0]?.path).toBe('tools[0].permissions[0]');
    }
    expect(() =>
      generateManifest(
        {
          id: 'com.example.notes',
          name: 'Notes',
          version: '1.2.0',
          permissions: ['clipboard.write'],
          entry: '../index.html',
        },
        tools,
      ),
    ).toThrow(LineUpProtocolError);
  });

  it('writes the origins the page connects to as connect_domains, and refuses one that is not an origin', () => {
    const info = {
      id: 'com.example.notes',
      name: 'Notes',
      version: '1.2.0',
      permissions: ['clipboard.write'],
    };
    expect(generateManifest(info, tools)).not.toHaveProperty('connect_domains');
    expect(
      generateManifest(
        { ...info, connectDomains: ['https://api.example.com', 'wss://live.example.com'] },
        tools,
      ).connect_domains,
    ).toEqual(['https://api.example.com', 'wss://live.example.com']);
    for (const domain of ["'self'", 'https://api.example.com/v1', 'http://api.example.com', '*']) {
      let issue: unknown;
      try {
        generateManifest({ ...info, connectDomains: [domain] }, tools);
      } catch (error) {
        issue = (error as LineUpProtocolError).issues[0];
      }
      expect(issue, domain).toMatchObject({ path: 'connect_domains[0]', code: 'invalid_value' });
    }
  });
});
