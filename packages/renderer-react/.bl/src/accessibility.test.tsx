/**
 * What a screen reader meets in a rendered document (jsdom): the heading outline under the host's level, names
 * of Cards, Charts and Results, the explanation of a disabled invoke button, the document's language, the
 * theme attribute, badge tones in words, rounded chart numbers, and the state reported at mount. The web host's
 * Playwright suite runs axe-core on the same in Chromium.
 */
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { IntelligentUIView } from './document-view.js';
import { guessDocumentLanguage } from './language.js';
import { markdownCacheSize, renderMarkdown } from './markdown.js';
import { nextHeadingLevel } from './outline.js';

// biome-ignore lint/suspicious/noExplicitAny: documents are edited as plain JSON.
type J = any;

function doc(children: J[], extra: J = {}): J {
  return {
    version: '1.0',
    id: 'a11y-doc',
    mode: 'interactive_ui',
    title: 'Title',
    state: {},
    derived: {},
    root: { id: 'root', type: 'Column', props: {}, children },
    ...extra,
  };
}

/** Every heading of the container as `h<level> text`, in document order. */
const outline = (container: HTMLElement) =>
  [...container.querySelectorAll('h1, h2, h3, h4, h5, h6')].map(
    (heading) => `${heading.tagName.toLowerCase()} ${heading.textContent}`,
  );

describe('headings', () => {
  const document = doc([
    { id: 'a', type: 'Heading', props: { text: 'Deep first', level: 3 } },
    { id: 'md', type: 'Markdown', props: { text: '# Md one\n\n### Md three\n\n## Md two' } },
    { id: 'b', type: 'Heading', props: { text: 'Top', level: 1 } },
    {
      id: 'card',
      type: 'Card',
      props: { title: 'Card' },
      children: [{ id: 'c', type: 'Heading', props: { text: 'In card', level: 2 } }],
    },
  ]);

  it('puts the title at the host level and everything below it in order, without skipped levels', async () => {
    const { container } = render(<IntelligentUIView document={document} headingLevel={3} />);
    await screen.findByText('Md one');
    expect(outline(container)).toEqual([
      'h3 Title',
      'h4 Deep first', // level 3 right after the title: one below it, not three
      'h5 Md one', // Markdown below the heading before it
      'h6 Md three',
      'h6 Md two',
      'h4 Top',
      'h5 In card',
    ]);
  });

  it('defaults to an h2 title', async () => {
    const { container } = render(<IntelligentUIView document={document} />);
    await screen.findByText('Md one');
    expect(outline(container).slice(0, 3)).toEqual(['h2 Title', 'h3 Deep first', 'h4 Md one']);
  });

  it('never goes past h6 and never skips on the way down', () => {
    expect(nextHeadingLevel(6, 1, 6)).toBe(6);
    expect(nextHeadingLevel(2, 3, 2)).toBe(3);
    expect(nextHeadingLevel(2, 1, 5)).toBe(3);
    expect(nextHeadingLevel(2, 2, 3)).toBe(4);
  });
});

describe('names', () => {
  it('names the document by its title, a titled Card as a group (not a region), a Chart once', () => {
    render(
      <IntelligentUIView
        document={doc([
          { id: 'card', type: 'Card', props: { title: 'Plan' }, children: [] },
          {
            id: 'chart',
            type: 'Chart',
            props: { kind: 'bar', label: 'Sales', data: [{ id: 'p', label: 'Q1', value: 1.23456 }] },
          },
        ])}
      />,
    );
    expect(
      screen.getAllByRole('region').map((region) => region.getAttribute('aria-labelledby')),
    ).toHaveLength(1);
    expect(screen.getByRole('region', { name: 'Title' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Plan' })).toBeTruthy();
    const figure = screen.getByRole('figure', { name: 'Sales' });
    // The picture is hidden from assistive technology; the table has no second caption.
    expect(figure.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
    expect(figure.querySelector('caption')).toBeNull();
    expect(screen.getAllByText('Sales')).toHaveLength(1);
  });

  it('rounds chart numbers in the table and the tooltips, in the locale', () => {
    const { container } = render(
      <IntelligentUIView
        locale="de-DE"
        document={doc([
          {
            id: 'chart',
            type: 'Chart',
            props: {
              kind: 'line',
              data: [
                { id: 'p', label: 'A', value: 1234.56789 },
                { id: 'q', label: 'B', value: 0.1 },
              ],
            },
          },
          {
            id: 'small',
            type: 'Chart',
            props: { kind: 'bar', data: [{ id: 'p', label: 'S', value: 0.012345 }] },
          },
        ])}
      />,
    );
    expect(screen.getByRole('cell', { name: '1.234,57' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: '0,1' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: '0,0123' })).toBeTruthy();
    expect([...container.querySelectorAll('title')].map((title) => title.textContent)).toEqual([
      'A: 1.234,57',
      'B: 0,1',
      'S: 0,0123',
    ]);
    expect(screen.getAllByRole('figure', { name: 'Chart' })).toHaveLength(2);
  });

  it("labels a Result's output with its label", () => {
    render(
      <IntelligentUIView
        document={doc([{ id: 'r', type: 'Result', props: { label: 'Total', value: 7 } }])}
      />,
    );
    expect(screen.getByRole('status', { name: 'Total' }).textContent).toBe('7');
  });

  it('ties a disabled invoke button to the sentence that says why', () => {
    const document = {
      ...doc([
        { id: 'go', type: 'Button', props: { label: 'Go', action: { type: 'invoke', actionId: 'go' } } },
      ]),
      version: '1.1',
      actions: { go: { kind: 'agent', prompt: 'Go' } },
    };
    render(<IntelligentUIView document={document} />);
    const button = screen.getByRole('button', { name: 'Go' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByRole('button', { description: 'Actions are not available here.' })).toBe(button);
  });

  it('says a badge tone in words as well as colour', () => {
    const { container } = render(
      <IntelligentUIView
        document={doc([
          { id: 'ok', type: 'Badge', props: { text: 'In stock', tone: 'success' } },
          { id: 'plain', type: 'Badge', props: { text: 'Plain' } },
        ])}
      />,
    );
    const badges = [...container.querySelectorAll('.lu-badge')].map((badge) => badge.textContent);
    expect(badges).toEqual(['✓Success: In stock', 'Plain']);
    expect(container.querySelector('.lu-badge-icon')?.getAttribute('aria-hidden')).toBe('true');
  });
});

describe('language and theme', () => {
  it('marks a Chinese document as Chinese, leaves a Latin one to the page, and takes the host lang first', () => {
    const chinese = doc([{ id: 't', type: 'Text', props: { text: '本金与年收益率' } }], {
      title: '复利计算器',
    });
    const { container, rerender } = render(<IntelligentUIView document={chinese} />);
    expect(container.querySelector('.lu-ui')?.getAttribute('lang')).toBe('zh');
    rerender(<IntelligentUIView document={doc([])} />);
    expect(container.querySelector('.lu-ui')?.hasAttribute('lang')).toBe(false);
    rerender(<IntelligentUIView document={chinese} lang="zh-Hant" />);
    expect(container.querySelector('.lu-ui')?.getAttribute('lang')).toBe('zh-Hant');
    expect(guessDocumentLanguage(doc([], { title: 'ひらがなの計算' }))).toBe('ja');
    expect(guessDocumentLanguage(doc([], { title: '계산기' }))).toBe('ko');
    expect(guessDocumentLanguage(doc([], { title: 'Compound interest (复利)' }))).toBeUndefined();
  });

  it('sets data-lu-theme from the theme prop, auto by default', () => {
    const { container, rerender } = render(<IntelligentUIView document={doc([])} />);
    expect(container.querySelector('.lu-ui')?.getAttribute('data-lu-theme')).toBe('auto');
    rerender(<IntelligentUIView document={doc([])} theme="dark" />);
    expect(container.querySelector('.lu-ui')?.getAttribute('data-lu-theme')).toBe('dark');
  });
});

describe('state and Markdown cache', () => {
  it('reports the state at mount (restored or initial), then each change', () => {
    const onStateChange = vi.fn();
    const state = { n: { type: 'number', initial: 1, min: 0, max: 9, step: 1 } };
    render(
      <IntelligentUIView
        document={doc(
          [{ id: 'b', type: 'Button', props: { label: 'Set', action: { type: 'set', key: 'n', value: 5 } } }],
          {
            state,
          },
        )}
        savedState={{ n: 3 }}
        onStateChange={onStateChange}
      />,
    );
    expect(onStateChange.mock.calls).toEqual([[{ n: 3 }]]);
    screen.getByRole('button', { name: 'Set' }).click();
    expect(onStateChange.mock.calls).toEqual([[{ n: 3 }], [{ n: 5 }]]);
  });

  it('renders the whole body of a large document (rendered in the background) and every new Markdown text', async () => {
    const children = Array.from({ length: 80 }, (_, index) => ({
      id: `t${index}`,
      type: index % 2 === 0 ? 'Text' : 'Markdown',
      props: { text: index % 2 === 0 ? `Line ${index}` : `**Bold ${index}** ${Math.random()}` },
    }));
    const { container } = render(<IntelligentUIView document={doc(children)} />);
    await screen.findByText('Bold 79');
    expect(container.querySelector('.lu-body-pending')).toBeNull();
    expect(container.querySelectorAll('.lu-text')).toHaveLength(40);
    expect(container.querySelectorAll('.lu-markdown strong')).toHaveLength(40);
    expect(container.querySelector('.lu-markdown[aria-busy]')).toBeNull();
  });

  it('renders a Markdown text once and serves it from the cache after that', () => {
    const text = `cache probe ${Math.random()}`;
    const before = markdownCacheSize();
    const first = renderMarkdown(text, 2);
    expect(markdownCacheSize()).toBe(before + 1);
    expect(renderMarkdown(text, 2)).toBe(first);
    expect(renderMarkdown(text, 3)).not.toBe(first);
  });
});
