/**
 * Layout components (seed 002 §5): Row, Column, Grid (1–4 columns, default 2, one column on narrow
 * containers) and Card (optional title). Children are keyed by node id, so a node keeps its component
 * instance, DOM and focus across state changes and stream frames.
 */
import type { UINode, UINodeOf } from '@lineup/shared';
import { NodeView } from '../node-view.js';

export function NodeChildren({ nodes }: { readonly nodes: readonly UINode[] }) {
  return nodes.map((child) => <NodeView key={child.id} node={child} />);
}

export function RowView({ node }: { readonly node: UINodeOf<'Row'> }) {
  return (
    <div className={`lu-row lu-gap-${node.props.gap ?? 'md'}`}>
      <NodeChildren nodes={node.children} />
    </div>
  );
}

export function ColumnView({ node }: { readonly node: UINodeOf<'Column'> }) {
  return (
    <div className={`lu-column lu-gap-${node.props.gap ?? 'md'}`}>
      <NodeChildren nodes={node.children} />
    </div>
  );
}

export function GridView({ node }: { readonly node: UINodeOf<'Grid'> }) {
  return (
    <div className={`lu-grid lu-grid-${node.props.columns ?? 2} lu-gap-${node.props.gap ?? 'md'}`}>
      <NodeChildren nodes={node.children} />
    </div>
  );
}

export function CardView({ node }: { readonly node: UINodeOf<'Card'> }) {
  const { title, gap } = node.props;
  return (
    <section className="lu-card" aria-label={title}>
      {title !== undefined && <div className="lu-card-title">{title}</div>}
      <div className={`lu-column lu-gap-${gap ?? 'md'}`}>
        <NodeChildren nodes={node.children} />
      </div>
    </section>
  );
}
