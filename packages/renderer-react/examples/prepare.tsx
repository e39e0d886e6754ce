import { prepareRenderer } from '@lineup/renderer-react';

// Once, when the page has loaded and is idle: the renderer's one-time costs (the engine's number formatting
// data, the Markdown parser's first run) are paid then, not by the agent's first document.
export function prepareWhenIdle(locale: string): void {
  if (typeof requestIdleCallback === 'function')
    requestIdleCallback(() => prepareRenderer({ locale }), { timeout: 2_000 });
  else prepareRenderer({ locale });
}
