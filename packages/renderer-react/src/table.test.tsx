/**
 * Table rows are written to the DOM at commit (components/display.tsx, writeTableRows), not as one React element
 * per cell: the same markup, agent text only as text, and a changed document updates the rows in place.
 */
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { writeTableRows } from './components/display.js';
import { IntelligentUIView } from './document-view.js';

// biome-ignore lint/suspicious/noExplicitAny: documents are edited as plain JSON.
type J = any;

const COLUMNS = [
  { key: 'name', label: 'Name' },
  { key: 'price', label: 'Price' },
];

function tableDocument(rows: J[], columns: J[] = COLUMNS): J {
  return {
    version: '1.0',
    id: 'table-doc',
    mode: 'interactive_ui',
    title: 'Prices',
    state: {},
    derived: {},
    root: { id: 'prices', type: 'Table', props: { columns, rows } },
  };
}

/** The body's cells as text, row by row, with `#` marking a numeric cell. */
function cells(container: HTMLElement): string[][] {
  return [...container.querySelectorAll('tbody tr')].map((row) =>
    [...row.children].map((cell) => `${cell.className === 'lu-number' ? '#' : ''}${cell.textContent}`),
  );
}

describe('Table rows', () => {
  it('renders every row as cells of text, numbers marked, null empty', () => {
    const { container } = render(
      <IntelligentUIView
        document={tableDocument([
          { name: 'Phone', price: 699 },
          { name: 'Case', price: null },
          { name: true, price: 0.5 },
        ])}
      />,
    );
    expect(cells(container)).toEqual([
      ['Phone', '#699'],
      ['Case', ''],
      ['true', '#0.5'],
    ]);
    // Header cells are still React's; every body cell is a <td> in a <tr> of the table's own <tbody>.
    expect([...container.querySelectorAll('th')].map((th) => th.textContent)).toEqual(['Name', 'Price']);
    expect(container.querySelectorAll('table > tbody > tr > td')).toHaveLength(6);
  });

  it('never turns agent text into markup', () => {
    const hostile = '<img src=x onerror="globalThis.pwned=1"><script>globalThis.pwned=1</script>';
    const { container } = render(
      <IntelligentUIView document={tableDocument([{ name: hostile, price: 1 }])} />,
    );
    expect(container.querySelector('tbody td')?.textContent).toBe(hostile);
    expect(container.querySelector('img, script')).toBeNull();
    expect((globalThis as J).pwned).toBeUndefined();
  });

  it('updates rows in place when the document changes: appended rows, changed cells, fewer rows', () => {
    const first = [
      { name: 'Phone', price: 699 },
      { name: 'Case', price: 19 },
    ];
    const { container, rerender } = render(<IntelligentUIView document={tableDocument(first)} />);
    const [phoneRow, caseRow] = container.querySelectorAll('tbody tr');
    const casePrice = caseRow!.children[1];

    // A stream frame that appends a row and changes one cell: the earlier rows and cells stay the same nodes.
    rerender(
      <IntelligentUIView
        document={tableDocument([
          { name: 'Phone', price: 699 },
          { name: 'Case', price: 'sold out' },
          { name: 'Charger', price: 25 },
        ])}
      />,
    );
    expect(cells(container)).toEqual([
      ['Phone', '#699'],
      ['Case', 'sold out'],
      ['Charger', '#25'],
    ]);
    const rows = container.querySelectorAll('tbody tr');
    expect(rows[0]).toBe(phoneRow);
    expect(rows[1]).toBe(caseRow);
    expect(rows[1]!.children[1]).toBe(casePrice);

    rerender(<IntelligentUIView document={tableDocument([{ name: 'Phone', price: 649 }])} />);
    expect(cells(container)).toEqual([['Phone', '#649']]);
    expect(container.querySelector('tbody tr')).toBe(phoneRow);

    rerender(<IntelligentUIView document={tableDocument([])} />);
    expect(cells(container)).toEqual([]);
  });

  it('follows a change of columns: cells added, removed and reordered', () => {
    const row = { name: 'Phone', price: 699 };
    const { container, rerender } = render(<IntelligentUIView document={tableDocument([row])} />);
    rerender(
      <IntelligentUIView
        document={tableDocument(
          [{ ...row, stock: 3 }],
          [
            { key: 'stock', label: 'Stock' },
            { key: 'price', label: 'Price' },
            { key: 'name', label: 'Name' },
          ],
        )}
      />,
    );
    expect(cells(container)).toEqual([['#3', '#699', 'Phone']]);
    rerender(
      <IntelligentUIView document={tableDocument([{ name: 'Phone' }], [{ key: 'name', label: 'Name' }])} />,
    );
    expect(cells(container)).toEqual([['Phone']]);
  });

  it('writes into the body it is given, in that body’s document', () => {
    const frame = document.implementation.createHTMLDocument('other');
    const body = frame.createElement('tbody');
    writeTableRows(body, COLUMNS, [{ name: 'Phone', price: 699 }]);
    expect(body.querySelector('td')?.ownerDocument).toBe(frame);
    writeTableRows(body, COLUMNS, [{ name: 'Phone', price: 699 }]);
    expect(body.rows).toHaveLength(1);
  });
});
