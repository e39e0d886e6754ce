import { prepareRenderer } from '@lineup/renderer-react';

// Once, when the page has loaded and is idle: the renderer's one-time costs (the engine's number formatting
// data, the Markdown parser's first run, the document checks, every component type's first render) are paid
// then, not by the agent's first document. Resolves when all of it is done.
export function prepareWhenIdle(locale: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const prepare = () => prepareRenderer({ locale }).then(resolve, reject);
    if (typeof requestIdleCallback === 'function') requestIdleCallback(prepare, { timeout: 2_000 });
    else prepare();
  });
}
