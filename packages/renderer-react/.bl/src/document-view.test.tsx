/**
 * IntelligentUIView in jsdom: validation, the 21 components, local state and local actions, text safety and
 * local error isolation. The web host's Playwright tests prove the same in Chromium.
 */
import { parseDocument, UI_COMPONENTS, type UIDocument } from '@lineup/shared';
import agentCallback from '@lineup/shared/fixtures/agent-callback.json' with { type: 'json' };
import compoundInterest from '@lineup/shared/fixtures/compound-interest.json' with { type: 'json' };
import fileReader from '@lineup/shared/fixtures/file-reader.json' with { type: 'json' };
import formControls from '@lineup/shared/fixtures/form-controls.json' with { type: 'json' };
import productComparison from '@lineup/shared/fixtures/product-comparison.json' with { type: 'json' };
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { IntelligentUIView } from './document-view.js';
import { RENDERED_COMPONENT_TYPES } from './node-view.js';

// biome-ignore lint/suspicious/noExplicitAny: documents are edited as plain JSON.
type J = any;
const clone = <T,>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const FIXTURES = { compoundInterest, fileReader, agentCallback, productComparison, formControls };

function doc(root: J, extra: J = {}): J {
  return {
    version: '1.0',
    id: 'test-doc',
    mode: 'interactive_ui',
    title: 'Test',
    state: {},
    derived: {},
    root,
    ...extra,
  };
}

describe('components', () => {
  it('registers exactly the 21 components of the DSL', () => {
    expect([...RENDERED_COMPONENT_TYPES].sort()).toEqual(Object.keys(UI_COMPONENTS).sort());
    expect(RENDERED_COMPONENT_TYPES).toHaveLength(21);
  });

  it.each(Object.entries(FIXTURES))(
    'renders the %s fixture with its title and no failed node',
    (_, fixture) => {
      const { container } = render(<IntelligentUIView document={clone(fixture)} />);
      const region = screen.getByRole('region', { name: (fixture as J).title });
      expect(within(region).getByRole('heading', { name: (fixture as J).title, level: 2 })).toBeTruthy();
      expect(container.querySelector('.lu-node-error, .lu-value-error, .lu-invalid')).toBeNull();
    },
  );

  it('renders every component type of a document that uses all 21', () => {
    const document = doc(
      {
        id: 'root',
        type: 'Column',
        props: {},
        children: [
          { id: 'text', type: 'Text', props: { text: 'Plain' } },
          { id: 'heading', type: 'Heading', props: { text: 'Head', level: 1 } },
          { id: 'md', type: 'Markdown', props: { text: '**bold**' } },
          {
            id: 'row',
            type: 'Row',
            props: { gap: 'sm' },
            children: [{ id: 'badge', type: 'Badge', props: { text: 'ok', tone: 'success' } }],
          },
          {
            id: 'grid',
            type: 'Grid',
            props: { columns: 3 },
            children: [{ id: 'loading', type: 'Loading', props: {} }],
          },
          {
            id: 'card',
            type: 'Card',
            props: { title: 'Card title' },
            children: [{ id: 'error', type: 'Error', props: { message: 'Something failed' } }],
          },
          {
            id: 'table',
            type: 'Table',
            props: {
              columns: [
                { key: 'a', label: 'A' },
                { key: 'b', label: 'B' },
              ],
              rows: [{ a: 'x', b: 1.5 }],
            },
          },
          { id: 'progress', type: 'Progress', props: { value: 40, label: 'Done so far' } },
          {
            id: 'chart',
            type: 'Chart',
            props: { kind: 'line', label: 'Trend', data: [{ id: 'p1', label: 'One', value: -3 }] },
          },
          { id: 'input', type: 'Input', props: { label: 'Name', bind: 'name' } },
          { id: 'number', type: 'NumberInput', props: { label: 'Count', bind: 'count' } },
          {
            id: 'select',
            type: 'Select',
            props: { label: 'Pick', bind: 'pick', options: [{ label: 'A', value: 'a' }] },
          },
          { id: 'slider', type: 'Slider', props: { label: 'Level', bind: 'level' } },
          { id: 'check', type: 'Checkbox', props: { label: 'Agree', bind: 'agree' } },
          { id: 'button', type: 'Button', props: { label: 'Reset', action: { type: 'reset' } } },
          {
            id: 'form',
            type: 'Form',
            props: { submitLabel: 'Send', action: { type: 'reset' } },
            children: [],
          },
          { id: 'result', type: 'Result', props: { label: 'Total', value: 7 } },
        ],
      },
      {
        state: {
          name: { type: 'string', initial: 'Ada' },
          count: { type: 'number', initial: 2 },
          pick: { type: 'string', initial: 'a' },
          level: { type: 'number', initial: 3, min: 0, max: 10, step: 1 },
          agree: { type: 'boolean', initial: false },
        },
      },
    );
    const { container } = render(<IntelligentUIView document={document} />);
    const types = new Set<string>();
    const walk = (node: J) => {
      types.add(node.type);
      for (const child of node.children ?? []) walk(child);
    };
    walk(document.root);
    expect(types.size).toBe(21);
    expect(screen.getByText('Plain')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Head', level: 3 })).toBeTruthy();
    expect(container.querySelector('.lu-markdown strong')?.textContent).toBe('bold');
    expect(screen.getByText('ok').className).toContain('lu-badge-success');
    expect(screen.getByText('Loading…').closest('[role=status]')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Something failed');
    expect(screen.getByRole('group', { name: 'Card title' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'B' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: '1.5' })).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Done so far' }).getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByRole('figure', { name: 'Trend' })).toBeTruthy();
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Ada');
    expect((screen.getByLabelText('Count') as HTMLInputElement).value).toBe('2');
    expect((screen.getByLabelText('Pick') as HTMLSelectElement).value).toBe('a');
    expect((screen.getByLabelText('Level') as HTMLInputElement).value).toBe('3');
    expect((screen.getByLabelText('Agree') as HTMLInputElement).checked).toBe(false);
    expect(screen.getByRole('button', { name: 'Reset' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy();
    expect(container.querySelector('.lu-result-value')?.textContent).toBe('7');
  });
});

describe('validation', () => {
  it('shows the issues of an invalid document instead of rendering it', () => {
    const invalid = clone(compoundInterest) as J;
    invalid.root.children[1].props.bind = 'missing';
    render(<IntelligentUIView document={invalid} />);
    const alert = screen.getByRole('alert', { name: 'Interface not shown' });
    expect(alert.textContent).toContain('root.children[1].props.bind');
    expect(screen.queryByLabelText('本金（元）')).toBeNull();
  });

  it('does not guess the meaning of an unknown version', () => {
    render(<IntelligentUIView document={{ ...clone(compoundInterest), version: '2.0' }} />);
    expect(screen.getByRole('alert').textContent).toContain('version');
  });

  it('applies the host document budget', () => {
    render(<IntelligentUIView document={clone(productComparison)} maxDocumentBytes={1024} />);
    expect(screen.getByRole('alert').textContent).toMatch(/bytes/);
  });

  it('never renders agent text as markup', () => {
    const hostile = '<img src=x onerror="globalThis.pwned=1"><script>globalThis.pwned=1</script>';
    const { container } = render(
      <IntelligentUIView
        document={doc({
          id: 'root',
          type: 'Column',
          props: {},
          children: [
            { id: 't', type: 'Text', props: { text: hostile } },
            {
              id: 'm',
              type: 'Markdown',
              props: {
                text: `${hostile}\n\n[a link](javascript:alert(1)) ![an image](https://example.invalid/x.png) ~~gone~~`,
              },
            },
          ],
        })}
      />,
    );
    expect(screen.getByText(hostile)).toBeTruthy();
    expect(container.querySelector('img, script, a, iframe')).toBeNull();
    const markdown = container.querySelector('.lu-markdown')!;
    expect(markdown.textContent).toContain('a link');
    expect(markdown.querySelector('del')?.textContent).toBe('gone');
    expect((globalThis as J).pwned).toBeUndefined();
  });

  it('of GitHub Flavored Markdown parses only strikethrough: tables, task lists and footnotes stay the text they were', () => {
    const text = [
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
      '',
      '- [ ] call back',
      '',
      'See[^1] ~one~ and www.example.com.',
    ].join('\n');
    const { container } = render(
      <IntelligentUIView document={doc({ id: 'm', type: 'Markdown', props: { text } })} />,
    );
    const markdown = container.querySelector('.lu-markdown')!;
    expect(markdown.querySelector('table, input, a, sup, section')).toBeNull();
    expect(markdown.textContent).toContain('| a | b |');
    expect(markdown.querySelector('li')?.textContent).toBe('[ ] call back');
    expect(markdown.textContent).toContain('See[^1]');
    expect(markdown.querySelector('del')?.textContent).toBe('one');
    expect(markdown.textContent).toContain('www.example.com');
  });
});

describe('local state', () => {
  const principal = () => screen.getByLabelText('本金（元）') as HTMLInputElement;
  const total = (container: HTMLElement) => container.querySelector('.lu-result-value')!.textContent;

  it('recomputes derived values as the user types, without any callback', () => {
    const onInvoke = vi.fn();
    const onStateChange = vi.fn();
    const { container } = render(
      <IntelligentUIView
        document={clone(compoundInterest)}
        locale="en-US"
        onInvoke={onInvoke}
        onStateChange={onStateChange}
      />,
    );
    expect(total(container)).toBe('CN¥16,288.95');
    fireEvent.change(principal(), { target: { value: '20000' } });
    expect(total(container)).toBe('CN¥32,577.89');
    expect(onStateChange).toHaveBeenLastCalledWith({ principal: 20000, rate: 5, years: 10 });
    expect(onInvoke).not.toHaveBeenCalled();
  });

  it('rejects a value outside the field domain, keeps the state and the draft, and says why', () => {
    const { container } = render(<IntelligentUIView document={clone(compoundInterest)} locale="en-US" />);
    fireEvent.change(principal(), { target: { value: '200000000' } });
    expect(principal().value).toBe('200000000');
    expect(principal().getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toMatch(/100000000|at most/);
    expect(total(container)).toBe('CN¥16,288.95');
  });

  it('keeps a partial number as a draft without touching the state', () => {
    const { container } = render(<IntelligentUIView document={clone(compoundInterest)} locale="en-US" />);
    fireEvent.change(principal(), { target: { value: '' } });
    expect(screen.getByRole('alert').textContent).toBe('Enter a number.');
    expect(total(container)).toBe('CN¥16,288.95');
  });

  it('runs reset and set locally; a set past the bound fails and keeps the old state', () => {
    const document = doc(
      {
        id: 'root',
        type: 'Column',
        props: {},
        children: [
          { id: 'n', type: 'NumberInput', props: { label: 'N', bind: 'n' } },
          {
            id: 'inc',
            type: 'Button',
            props: {
              label: 'Add 5',
              action: {
                type: 'set',
                key: 'n',
                value: { expr: { op: 'add', args: [{ state: 'n' }, 5] } },
              },
            },
          },
          { id: 'reset', type: 'Button', props: { label: 'Reset', action: { type: 'reset' } } },
        ],
      },
      { state: { n: { type: 'number', initial: 0, min: 0, max: 10, step: 1 } } },
    );
    render(<IntelligentUIView document={document} />);
    const n = () => (screen.getByLabelText('N') as HTMLInputElement).value;
    fireEvent.click(screen.getByRole('button', { name: 'Add 5' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add 5' }));
    expect(n()).toBe('10');
    fireEvent.click(screen.getByRole('button', { name: 'Add 5' }));
    expect(n()).toBe('10');
    expect(screen.getByRole('alert').textContent).toMatch(/at most|range|maximum/i);
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(n()).toBe('0');
  });

  it('restores a saved state, keeping only declared valid fields', () => {
    render(
      <IntelligentUIView
        document={clone(compoundInterest)}
        savedState={{ principal: 5000, rate: 99, unknown: 'x' }}
      />,
    );
    expect(principal().value).toBe('5000');
    expect((screen.getByLabelText('年收益率（%）') as HTMLInputElement).value).toBe('5');
  });

  it('submits a Form with preventDefault and runs its one action; inputs inside write live', () => {
    const document = doc(
      {
        id: 'form',
        type: 'Form',
        props: {
          submitLabel: 'Double',
          action: { type: 'set', key: 'n', value: { expr: { op: 'mul', args: [{ state: 'n' }, 2] } } },
        },
        children: [{ id: 'n-input', type: 'NumberInput', props: { label: 'N', bind: 'n' } }],
      },
      { state: { n: { type: 'number', initial: 1 } } },
    );
    render(<IntelligentUIView document={document} />);
    const n = screen.getByLabelText('N') as HTMLInputElement;
    fireEvent.change(n, { target: { value: '4' } });
    const form = n.closest('form')!;
    // fireEvent returns false when a handler called preventDefault: no HTML form navigation.
    expect(fireEvent.submit(form)).toBe(false);
    expect(n.value).toBe('8');
    fireEvent.click(screen.getByRole('button', { name: 'Double' }));
    expect(n.value).toBe('16');
  });
});

describe('local error isolation', () => {
  it('a failing derived value only affects the components that use it; reset still works', () => {
    const document = doc(
      {
        id: 'root',
        type: 'Column',
        props: {},
        children: [
          { id: 'ratio', type: 'Result', props: { label: 'Ratio', value: { expr: { derived: 'ratio' } } } },
          { id: 'plain', type: 'Result', props: { label: 'Divisor', value: { expr: { state: 'd' } } } },
          { id: 'd-input', type: 'NumberInput', props: { label: 'Divisor input', bind: 'd' } },
          { id: 'reset', type: 'Button', props: { label: 'Reset', action: { type: 'reset' } } },
        ],
      },
      {
        state: { d: { type: 'number', initial: 2 } },
        derived: { ratio: { op: 'div', args: [10, { state: 'd' }] } },
      },
    );
    const { container } = render(<IntelligentUIView document={document} />);
    const values = () => [...container.querySelectorAll('.lu-result-value')].map((node) => node.textContent);
    expect(values()).toEqual(['5', '2']);
    fireEvent.change(screen.getByLabelText('Divisor input'), { target: { value: '0' } });
    expect(values()).toEqual(['Value unavailable', '0']);
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(values()).toEqual(['5', '2']);
  });

  it('clamps only the progress bar, not the state', () => {
    const document = doc(
      {
        id: 'root',
        type: 'Column',
        props: {},
        children: [
          { id: 'p', type: 'Progress', props: { value: { expr: { state: 'v' } }, max: 50, label: 'P' } },
          { id: 'v-input', type: 'NumberInput', props: { label: 'V', bind: 'v' } },
        ],
      },
      { state: { v: { type: 'number', initial: 10 } } },
    );
    render(<IntelligentUIView document={document} />);
    fireEvent.change(screen.getByLabelText('V'), { target: { value: '80' } });
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
    expect((screen.getByLabelText('V') as HTMLInputElement).value).toBe('80');
    fireEvent.change(screen.getByLabelText('V'), { target: { value: '-5' } });
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('0');
  });
});

describe('document changes', () => {
  it('keeps local values when a new document with the same id arrives, and starts afresh for another id', () => {
    const first = parseDocument(clone(compoundInterest)) as UIDocument;
    const { rerender } = render(<IntelligentUIView document={first} />);
    fireEvent.change(principal(), { target: { value: '1234' } });
    const edited = clone(compoundInterest) as J;
    edited.title = 'Renamed';
    rerender(<IntelligentUIView document={edited} />);
    expect(screen.getByRole('heading', { name: 'Renamed' })).toBeTruthy();
    expect(principal().value).toBe('1234');
    rerender(<IntelligentUIView document={{ ...edited, id: 'another' }} />);
    expect(principal().value).toBe('10000');
  });

  function principal(): HTMLInputElement {
    return screen.getByLabelText('本金（元）') as HTMLInputElement;
  }
});

describe('field messages', () => {
  it('hides a rejection once something else changes the field', () => {
    render(<IntelligentUIView document={clone(compoundInterest)} />);
    const principal = screen.getByLabelText('本金（元）') as HTMLInputElement;
    fireEvent.change(principal, { target: { value: '20000' } });
    fireEvent.change(principal, { target: { value: '999999999' } });
    expect(screen.getByRole('alert')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '重置参数' }));
    expect(principal.value).toBe('10000');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
