/** The view log's bounds: entries kept, text cut and counted, levels and loggers checked (a view is untrusted). */
import { describe, expect, it } from 'vitest';
import { VIEW_LOG_ENTRY_CHARS, VIEW_LOG_LIMIT, ViewLog } from './view-log.ts';

const SOURCE = { server: 'Clock', tool: 'get-time' };

describe('ViewLog', () => {
  it('keeps an entry as the view sent it: level, logger, text, the server and tool', () => {
    const log = new ViewLog(() => 1_000);
    let heard = 0;
    log.subscribe(() => {
      heard += 1;
    });
    log.add(SOURCE, { level: 'warning', logger: 'clock', data: 'late by 2 s' });
    log.add(SOURCE, { level: 'debug', data: { tick: 3, nested: [1, 2] } });
    expect(log.entries).toEqual([
      {
        id: 1,
        at: 1_000,
        server: 'Clock',
        tool: 'get-time',
        level: 'warning',
        logger: 'clock',
        text: 'late by 2 s',
        omitted: 0,
      },
      {
        id: 2,
        at: 1_000,
        server: 'Clock',
        tool: 'get-time',
        level: 'debug',
        text: '{"tick":3,"nested":[1,2]}',
        omitted: 0,
      },
    ]);
    expect(heard).toBe(2);
  });

  it.each<[string, unknown, unknown, string, string | undefined]>([
    ['an unknown level is info', 'shout', undefined, 'info', undefined],
    ['a level of another type is info', 7, 'x', 'info', 'x'],
    ['a logger that is not a string is left out', 'error', { name: 'x' }, 'error', undefined],
    ['an empty logger is left out', 'error', '', 'error', undefined],
    ['a long logger is cut to 128 characters', 'error', 'l'.repeat(500), 'error', 'l'.repeat(128)],
  ])('%s', (_name, level, logger, keptLevel, keptLogger) => {
    const log = new ViewLog();
    log.add(SOURCE, { level, logger, data: 'x' });
    expect(log.entries[0]?.level).toBe(keptLevel);
    expect(log.entries[0]?.logger).toBe(keptLogger);
  });

  it(`cuts a text past ${VIEW_LOG_ENTRY_CHARS} characters and counts what it left out`, () => {
    const log = new ViewLog();
    log.add(SOURCE, { level: 'info', data: 'a'.repeat(VIEW_LOG_ENTRY_CHARS + 37) });
    expect(log.entries[0]?.text).toHaveLength(VIEW_LOG_ENTRY_CHARS);
    expect(log.entries[0]?.omitted).toBe(37);
  });

  it('keeps data that JSON cannot write as its string (a cycle, a bigint)', () => {
    const log = new ViewLog();
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    log.add(SOURCE, { data: cycle });
    log.add(SOURCE, { data: 10n });
    log.add(SOURCE, {});
    expect(log.entries.map((entry) => entry.text)).toEqual(['[object Object]', '10', 'undefined']);
  });

  it(`keeps the newest ${VIEW_LOG_LIMIT} and counts the ones that went`, () => {
    const log = new ViewLog();
    for (let index = 0; index < VIEW_LOG_LIMIT + 5; index += 1) log.add(SOURCE, { data: `line ${index}` });
    expect(log.entries).toHaveLength(VIEW_LOG_LIMIT);
    expect(log.entries[0]?.text).toBe('line 5');
    expect(log.entries.at(-1)?.text).toBe(`line ${VIEW_LOG_LIMIT + 4}`);
    expect(log.dropped).toBe(5);
  });
});
