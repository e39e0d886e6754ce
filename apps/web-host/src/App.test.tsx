import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { App } from './App.tsx';

describe('App', () => {
  it('renders the conversation region and the MiniApps panel with accessible names', () => {
    const html = renderToStaticMarkup(<App />);
    expect(html).toContain('<h1>LineUp</h1>');
    expect(html).toMatch(/<section[^>]*aria-labelledby="conversation-title"/);
    expect(html).toMatch(/<aside[^>]*aria-labelledby="apps-title"/);
  });
});
