import { IntelligentUIView, type RendererTheme } from '@lineup/renderer-react';
import '@lineup/renderer-react/styles.css';
import comparison from '@lineup/shared/fixtures/product-comparison.json' with { type: 'json' };
import type { CSSProperties } from 'react';
import { createRoot } from 'react-dom/client';

// The host's page holds agent interfaces in a section under an h2, has a light/dark switch of its own and a
// brand accent. The document's title becomes an h3 and its headings follow below it; `theme` pins light or
// dark ('auto', the default, follows the user's prefers-color-scheme); --lu-theme-* variables set on any
// ancestor recolour every document inside.
const brand = { '--lu-theme-accent': '#0b6e4f', '--lu-theme-radius': '4px' } as CSSProperties;

export function showInSection(container: HTMLElement, theme: RendererTheme) {
  const root = createRoot(container);
  root.render(
    <section aria-labelledby="answers" style={brand}>
      <h2 id="answers">Answers</h2>
      <IntelligentUIView document={comparison} headingLevel={3} theme={theme} lang="zh-CN" />
    </section>,
  );
  return root;
}
