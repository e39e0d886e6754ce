import { functionNameOf, lineUpIdFrom, RecentIds } from '@lineup/agent';
import { describe, expect, it } from 'vitest';
import { readConfig } from './config.js';

describe('readConfig', () => {
  it('defaults to scripted mode on 127.0.0.1:8787 and reads flags, PORT and pnpm’s `--`', () => {
    expect(readConfig([], {})).toEqual({ mode: 'scripted', port: 8787, host: '127.0.0.1' });
    expect(readConfig(['--', '--mode', 'scripted', '--port=9000'], { PORT: '1234' }).port).toBe(9000);
    expect(readConfig([], { PORT: '1234' }).port).toBe(1234);
  });

  it('needs OPENAI_MODEL in llm mode and defaults the base URL', () => {
    expect(() => readConfig(['--mode', 'llm'], {})).toThrow(/OPENAI_MODEL/);
    expect(readConfig(['--mode=llm'], { OPENAI_MODEL: 'm', OPENAI_API_KEY: 'k' }).llm).toEqual({
      baseUrl: 'https://api.openai.com/v1',
      model: 'm',
      apiKey: 'k',
    });
    expect(() => readConfig(['--mode', 'chat'], {})).toThrow(/scripted or llm/);
    expect(() => readConfig(['--verbose'], {})).toThrow(/Unknown argument/);
  });
});

describe('names and ids', () => {
  it('maps inventory tool names to function names and model call ids to LineUp ids', () => {
    expect(functionNameOf('pomodoro.start')).toBe('pomodoro__start');
    expect(lineUpIdFrom('call abc', () => 'fallback')).toBe('call_abc');
    expect(lineUpIdFrom('', () => 'fallback')).toBe('fallback');
    expect(lineUpIdFrom('x'.repeat(200), () => 'fallback')).toHaveLength(128);
  });
});

describe('RecentIds', () => {
  it('adds an id once, forgets the oldest beyond its limit, and forgets an id on request', () => {
    const ids = new RecentIds(2);
    expect(ids.add('a')).toBe(true);
    expect(ids.add('a')).toBe(false);
    ids.add('b');
    ids.add('c');
    expect(ids.add('a')).toBe(true);
    expect(ids.delete('c')).toBe(true);
    expect(ids.delete('c')).toBe(false);
    expect(ids.add('c')).toBe(true);
  });
});
