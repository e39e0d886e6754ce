import type { FrameLocator, Page } from '@playwright/test';

/**
 * The MCP App servers of the e2e corpus: example servers that the ext-apps project publishes on the npm registry
 * (pinned dev dependencies of this app), started over Streamable HTTP by Playwright (`playwright.config.ts`), each on
 * its own port of 127.0.0.1. Nobody here wrote them.
 */
export const MCP_CORPUS = [
  { package: '@modelcontextprotocol/server-basic-vanillajs', bin: 'mcp-server-basic-vanillajs', port: 3411 },
  { package: '@modelcontextprotocol/server-basic-react', bin: 'mcp-server-basic-react', port: 3412 },
] as const;

/** A corpus server's Streamable HTTP URL. */
export const mcpUrl = (port: number) => `http://127.0.0.1:${port}/mcp`;

/** The view's own document (the frame inside the Surface wrapper) of the latest MCP view in the conversation. */
export function viewFrame(page: Page): FrameLocator {
  return page.locator('.host__mcp-view iframe').last().contentFrame().locator('iframe').contentFrame();
}
