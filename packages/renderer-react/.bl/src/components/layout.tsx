/**
 * Layout components (seed 002 §5): Row, Column, Grid (1–4 columns, default 2, one column on narrow
 * containers) and Card (optional title). Children are keyed by node id, so a node keeps its component
 * instance, DOM and focus across state changes and stream frames.
 */
import type { UINode, UINodeOf } from '@lineup/shared';
import { useId } from 'react';
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

/** A titled Card is a group named by its title (not a landmark: a document of cards is not many regions). */
export function CardView({ node }: { readonly node: UINodeOf<'Card'> }) {
  const { title, gap } = node.props;
  const titleId = useId();
  return (
    <div className="lu-card" {...(title !== undefined ? { role: 'group', 'aria-labelledby': titleId } : {})}>
      {title !== undefined && (
        <div className="lu-card-title" id={titleId}>
          {title}
        </div>
      )}
      <div className={`lu-column lu-gap-${gap ?? 'md'}`}>
        <NodeChildren nodes={node.children} />
      </div>
    </div>
  );
}
