/**
 * Layout components (seed 002 §5): Row, Column, Grid (1–4 columns, default 2, one column on narrow
 * containers) and Card (optional title). Their children come rendered by `NodeView`, keyed by node id, so a node keeps its component
 * instance, DOM and focus across state changes and stream frames.
 */
import type { UINodeOf } from '@lineup/shared';
import { type ReactNode, useId } from 'react';

/** What a layout view is given: its node, and its children already rendered (keyed by node id) by `NodeView`. */
type Props<T extends 'Row' | 'Column' | 'Grid' | 'Card'> = {
  readonly node: UINodeOf<T>;
  readonly children?: ReactNode;
};

export function RowView({ node, children }: Props<'Row'>) {
  return <div className={`lu-row lu-gap-${node.props.gap ?? 'md'}`}>{children}</div>;
}

export function ColumnView({ node, children }: Props<'Column'>) {
  return <div className={`lu-column lu-gap-${node.props.gap ?? 'md'}`}>{children}</div>;
}

export function GridView({ node, children }: Props<'Grid'>) {
  return (
    <div className={`lu-grid lu-grid-${node.props.columns ?? 2} lu-gap-${node.props.gap ?? 'md'}`}>
      {children}
    </div>
  );
}

/** A titled Card is a group named by its title (not a landmark: a document of cards is not many regions). */
export function CardView({ node, children }: Props<'Card'>) {
  const { title, gap } = node.props;
  const titleId = useId();
  return (
    <div className="lu-card" {...(title !== undefined ? { role: 'group', 'aria-labelledby': titleId } : {})}>
      {title !== undefined && (
        <div className="lu-card-title" id={titleId}>
          {title}
        </div>
      )}
      <div className={`lu-column lu-gap-${gap ?? 'md'}`}>{children}</div>
    </div>
  );
}
