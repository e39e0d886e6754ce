/**
 * The host's text tables: each screen's table has the same keys in both languages (the Chinese table's type is the
 * English one's, which the compiler checks; this also covers nested tables typed as records), and the tables put
 * together at the top of `HostText` share no key, so none hides another's text.
 */
import { describe, expect, it } from 'vitest';
import { APP_CENTER_TEXT } from './app-center.ts';
import { CONSENT_TEXT } from './consent.ts';
import { CONSOLE_TEXT } from './console.ts';
import { CONVERSATION_TEXT } from './conversation.ts';
import { HOST_TEXT } from './host-text.ts';
import { SHELL_TEXT } from './shell.ts';
import { WORKSPACE_TEXT } from './workspace.ts';

/** Every key path of a table; entry labels are by their English form, so English has none. */
function keyPaths(table: object, prefix = ''): string[] {
  return Object.entries(table).flatMap(([key, value]) => {
    const path = `${prefix}${key}`;
    if (path === 'labels') return [path];
    return typeof value === 'object' && value !== null ? [path, ...keyPaths(value, `${path}.`)] : [path];
  });
}

const TABLES = {
  shell: SHELL_TEXT,
  workspace: WORKSPACE_TEXT,
  conversation: CONVERSATION_TEXT,
  consent: CONSENT_TEXT,
  appCenter: APP_CENTER_TEXT,
  console: CONSOLE_TEXT,
};

describe('host text tables', () => {
  it.each(Object.entries(TABLES))('%s has the same keys in English and Chinese', (_name, table) => {
    expect(keyPaths(table.zh).sort()).toEqual(keyPaths(table.en).sort());
  });

  it('the tables at the top of the host text share no key', () => {
    const keys = [SHELL_TEXT, WORKSPACE_TEXT, CONVERSATION_TEXT].flatMap((table) => Object.keys(table.en));
    expect(new Set(keys).size).toBe(keys.length);
    expect(Object.keys(HOST_TEXT.en).sort()).toEqual(Object.keys(HOST_TEXT.zh).sort());
  });
});
