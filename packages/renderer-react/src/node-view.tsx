/**
 * The component registry: the 21 components of seed 002 §5 and nothing else. A document chooses a component
 * by its `type` name only; it cannot name a module, a function, a tag, CSS or a URL (seed 004 §3). Each node
 * renders inside its own error boundary, so a failure stays with the node (seed 004 §1 "局部错误隔离").
 */
import type { UIComponentType, UINode } from '@lineup/shared';
import { Component, type ComponentType, memo, type ReactNode } from 'react';
import { ButtonView, FormView } from './components/actions.js';
import {
  BadgeView,
  ChartNodeView,
  ErrorView,
  HeadingView,
  LoadingView,
  MarkdownView,
  ProgressView,
  ResultView,
  TableView,
  TextView,
} from './components/display.js';
import { CheckboxView, InputView, NumberInputView, SelectView, SliderView } from './components/inputs.js';
import { CardView, ColumnView, GridView, RowView } from './components/layout.js';

/** Each type's view; a layout view or a Form also takes its children, rendered here. */
type Views = {
  readonly [T in UIComponentType]: ComponentType<{
    node: Extract<UINode, { type: T }>;
    children?: ReactNode;
  }>;
};

const VIEWS: Views = {
  Text: TextView,
  Heading: HeadingView,
  Markdown: MarkdownView,
  Row: RowView,
  Column: ColumnView,
  Grid: GridView,
  Card: CardView,
  Badge: BadgeView,
  Table: TableView,
  Progress: ProgressView,
  Chart: ChartNodeView,
  Input: InputView,
  NumberInput: NumberInputView,
  Select: SelectView,
  Button: ButtonView,
  Slider: SliderView,
  Checkbox: CheckboxView,
  Form: FormView,
  Loading: LoadingView,
  Error: ErrorView,
  Result: ResultView,
};

/** The registered component types, for tests and docs. */
export const RENDERED_COMPONENT_TYPES: readonly UIComponentType[] = Object.freeze(
  Object.keys(VIEWS) as UIComponentType[],
);

interface BoundaryProps {
  readonly node: UINode;
  readonly children: ReactNode;
}

interface BoundaryState {
  readonly failed: boolean;
  readonly node: UINode;
}

/** Catches what a node's rendering throws and shows a notice in its place; a new node object retries. */
class NodeBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false, node: this.props.node };

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): BoundaryState | null {
    return props.node === state.node ? null : { failed: false, node: props.node };
  }

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { failed: true };
  }

  override render(): ReactNode {
    if (this.state.failed)
      return (
        <div className="lu-node-error" role="alert">
          This part of the interface could not be shown.
        </div>
      );
    return this.props.children;
  }
}

/**
 * One node, and its children (a layout's or a Form's) rendered here and handed to its view, so no view module
 * imports this one. Memoized on the node object: unchanged branches of a stream frame keep their identity.
 */
export const NodeView = memo(function NodeView({ node }: { readonly node: UINode }) {
  const View = VIEWS[node.type] as ComponentType<{ node: UINode; children?: ReactNode }>;
  return (
    <NodeBoundary node={node}>
      <View node={node}>
        {'children' in node
          ? node.children.map((child) => <NodeView key={child.id} node={child} />)
          : undefined}
      </View>
    </NodeBoundary>
  );
});
