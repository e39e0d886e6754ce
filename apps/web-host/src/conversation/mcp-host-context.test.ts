/**
 * The host context a view gets (`ui/initialize`): every field this host fills, with what the browser says of the
 * device's input read from the window it is given.
 */
import { describe, expect, it } from 'vitest';
import { deviceCapabilities, MCP_HOST_INFO, mcpHostContext } from './mcp-host-context.ts';

/** A window whose media queries and touch points are what a test says. */
function windowWith(matching: readonly string[], maxTouchPoints = 0): Window {
  return {
    matchMedia: (query: string) => ({ matches: matching.includes(query) }) as MediaQueryList,
    navigator: { maxTouchPoints } as Navigator,
  } as unknown as Window;
}

describe('deviceCapabilities', () => {
  it.each<[string, Window, { touch: boolean; hover: boolean }]>([
    ['a desktop with a mouse', windowWith(['(hover: hover)']), { touch: false, hover: true }],
    ['a phone', windowWith(['(any-pointer: coarse)'], 5), { touch: true, hover: false }],
    ['a laptop with a touch screen', windowWith(['(hover: hover)'], 10), { touch: true, hover: true }],
    [
      'a coarse pointer without touch points',
      windowWith(['(any-pointer: coarse)']),
      { touch: true, hover: false },
    ],
    ['a window that cannot say', {} as Window, { touch: false, hover: false }],
  ])('%s', (_name, view, expected) => {
    expect(deviceCapabilities(view)).toEqual(expected);
  });
});

describe('mcpHostContext', () => {
  it('fills every host-context field this host supports', () => {
    const context = mcpHostContext({
      theme: 'dark',
      language: 'zh',
      width: 612.4,
      maxHeight: 900,
      tool: { name: 'show', description: 'Shows it.', inputSchema: { properties: {} } },
      view: windowWith(['(hover: hover)']),
    });
    expect(Object.keys(context).sort()).toEqual(
      [
        'availableDisplayModes',
        'containerDimensions',
        'deviceCapabilities',
        'displayMode',
        'locale',
        'platform',
        'safeAreaInsets',
        'styles',
        'theme',
        'timeZone',
        'toolInfo',
        'userAgent',
      ].sort(),
    );
    expect(context).toMatchObject({
      theme: 'dark',
      locale: 'zh-CN',
      displayMode: 'inline',
      availableDisplayModes: ['inline', 'fullscreen'],
      platform: 'web',
      userAgent: `${MCP_HOST_INFO.name}/${MCP_HOST_INFO.version}`,
      deviceCapabilities: { touch: false, hover: true },
      safeAreaInsets: { top: 0, right: 0, bottom: 0, left: 0 },
      containerDimensions: { width: 612, maxHeight: 900 },
      toolInfo: { tool: { name: 'show', inputSchema: { type: 'object', properties: {} } } },
    });
    expect(context.timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(context.styles.variables['--color-background-primary']).toBe('#1d1e24');
  });
});
