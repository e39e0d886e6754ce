import { describe, expect, it } from 'vitest';
import { DEFAULT_STORE, deviceUrl, readCommand, UsageError } from './config.js';

describe('lineup-agent command line', () => {
  it('serve: defaults, flags (both spellings), and the environment', () => {
    expect(readCommand(['serve'], {})).toEqual({
      command: 'serve',
      store: DEFAULT_STORE,
      port: 8787,
      host: '127.0.0.1',
      path: '/agent',
      mode: 'scripted',
    });
    expect(
      readCommand(
        ['serve', '--port', '0', '--host=0.0.0.0', '--path', '/lineup', '--store', 'postgres://u@h/db'],
        {},
      ),
    ).toMatchObject({ port: 0, host: '0.0.0.0', path: '/lineup', store: 'postgres://u@h/db' });
    expect(readCommand(['serve'], { PORT: '9000', HOST: '::1', LINEUP_AGENT_STORE: '/data' })).toMatchObject({
      port: 9000,
      host: '::1',
      store: '/data',
    });
    // A flag wins over the environment.
    expect(readCommand(['serve', '--port', '1'], { PORT: '2' })).toMatchObject({ port: 1 });
  });

  it('llm mode needs OPENAI_MODEL, and reads the base URL and key', () => {
    expect(() => readCommand(['serve', '--mode', 'llm'], {})).toThrow(/llm mode needs OPENAI_MODEL/);
    expect(readCommand(['serve', '--mode', 'llm'], { OPENAI_MODEL: 'm' })).toMatchObject({
      mode: 'llm',
      llm: { baseUrl: 'https://api.openai.com/v1', model: 'm' },
    });
    expect(
      readCommand(['serve'], {
        LINEUP_AGENT_MODE: 'llm',
        OPENAI_MODEL: 'm',
        OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
        OPENAI_API_KEY: 'k',
      }),
    ).toMatchObject({ llm: { baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'k', model: 'm' } });
  });

  it.each([
    [['serve', '--mode', 'smart'], /--mode must be scripted or llm/],
    [['serve', '--port', '70000'], /Invalid port "70000"/],
    [['serve', '--port', '-1'], /Invalid port/],
    [['serve', '--port', '8o'], /Invalid port/],
    [['serve', '--port'], /--port needs a value/],
    [['serve', '--label', 'x'], /Unknown option --label for serve/],
    [['serve', '-p', '1'], /Unknown option "-p"/],
    [['serve', 'extra'], /Unexpected argument "extra"/],
    [['serve', '--path', 'agent'], /--path must start with \//],
    [['serve', '--path', '/a?b'], /--path must start with \//],
    [['serve', '--store', ' '], /--store needs a folder or a postgres:\/\/ URL/],
    [['token'], /takes issue or revoke/],
    [['token', 'issue'], /takes one device id/],
    [['token', 'issue', 'a', 'b'], /takes one device id/],
    [['frobnicate'], /Unknown command "frobnicate"/],
  ])('%j is refused with a message for the person', (argv, message) => {
    expect(() => readCommand(argv, {})).toThrow(UsageError);
    expect(() => readCommand(argv, {})).toThrow(message);
  });

  it('token and devices commands', () => {
    expect(readCommand(['token', 'issue', 'ada-laptop', '--label', 'Ada'], {})).toEqual({
      command: 'token-issue',
      store: DEFAULT_STORE,
      deviceId: 'ada-laptop',
      label: 'Ada',
    });
    expect(readCommand(['token', 'revoke', 'ada-laptop', '--store', 'x'], {})).toEqual({
      command: 'token-revoke',
      store: 'x',
      deviceId: 'ada-laptop',
    });
    expect(readCommand(['devices'], { LINEUP_AGENT_STORE: 'y' })).toEqual({ command: 'devices', store: 'y' });
    expect(readCommand([], {})).toEqual({ command: 'help' });
    expect(readCommand(['--help'], {})).toEqual({ command: 'help' });
    expect(readCommand(['--version'], {})).toEqual({ command: 'version' });
  });

  it('the device URL carries the token as ?token=', () => {
    expect(deviceUrl('ws://127.0.0.1:8787/agent', 'lat_abc')).toBe('ws://127.0.0.1:8787/agent?token=lat_abc');
  });
});
