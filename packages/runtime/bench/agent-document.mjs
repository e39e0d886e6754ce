// The ~250 KiB Intelligent UI document `agent-connection.mjs` sends as one `lineup.v1.ui.document`: a Column of
// Text paragraphs and Tables (plain ASCII, so characters are bytes), grown row by row up to a byte target that
// stays under the DSL's document budget (262,144 bytes) and its other limits (200 components, 500 rows a table,
// 65,536 JSON values).

/** The size the document is grown to: 250 KiB. */
export const DOCUMENT_TARGET_BYTES = 250 * 1024;
const ROWS_PER_TABLE = 100;
const COLUMNS = [
  { key: 'sku', label: 'SKU' },
  { key: 'name', label: 'Product' },
  { key: 'region', label: 'Region' },
  { key: 'units', label: 'Units' },
  { key: 'revenue', label: 'Revenue' },
];
const REGIONS = ['north', 'south', 'east', 'west', 'central'];

const rowOf = (table, index) => ({
  sku: `SKU-${String(table).padStart(2, '0')}-${String(index).padStart(4, '0')}`,
  name: `Product ${table}.${index} with a descriptive name`,
  region: REGIONS[(table + index) % REGIONS.length],
  units: (table * 37 + index * 11) % 1000,
  revenue: Math.round(((table + 1) * (index + 3) * 17.31) % 100_000) / 100,
});

const paragraphOf = (table) =>
  `Section ${table + 1}: ${'Quarterly figures by product and region, as reported by the regional offices. '.repeat(3)}`.trim();

/** The document, `title` its title (each run gets a title of its own, so a page can tell the runs apart). */
export function buildDocument(title, targetBytes = DOCUMENT_TARGET_BYTES) {
  const children = [{ id: 'heading', type: 'Heading', props: { text: 'Sales by product', level: 2 } }];
  const document = {
    version: '1.0',
    id: 'bench-sales',
    mode: 'structured_ui',
    title,
    state: {},
    derived: {},
    root: { id: 'root', type: 'Column', props: { gap: 'md' }, children },
  };
  let bytes = JSON.stringify(document).length;
  for (let table = 0; bytes < targetBytes; table++) {
    const text = { id: `intro-${table}`, type: 'Text', props: { text: paragraphOf(table) } };
    const node = { id: `table-${table}`, type: 'Table', props: { columns: COLUMNS, rows: [] } };
    children.push(text, node);
    bytes += JSON.stringify(text).length + JSON.stringify(node).length + 2;
    for (let index = 0; index < ROWS_PER_TABLE; index++) {
      const row = rowOf(table, index);
      const size = JSON.stringify(row).length + 1;
      if (bytes + size > targetBytes) return finish(document, targetBytes);
      node.props.rows.push(row);
      bytes += size;
    }
  }
  return finish(document, targetBytes);
}

function finish(document, targetBytes) {
  const bytes = Buffer.byteLength(JSON.stringify(document));
  if (bytes > targetBytes) throw new Error(`the document grew to ${bytes} bytes, over ${targetBytes}`);
  return document;
}

/** Components and table rows of a document built here. */
export function describeDocument(document) {
  const children = document.root.children;
  const tables = children.filter((node) => node.type === 'Table');
  return {
    bytes: Buffer.byteLength(JSON.stringify(document)),
    components: children.length + 1,
    tables: tables.length,
    rows: tables.reduce((sum, node) => sum + node.props.rows.length, 0),
    cells: tables.reduce((sum, node) => sum + node.props.rows.length * node.props.columns.length, 0),
  };
}
