/**
 * @lineup/renderer-react — renders Intelligent UI DSL documents and component streams with React. The
 * renderer validates what it is given, owns the local state of each UI, and never talks to the runtime:
 * `invoke` actions leave through the `onInvoke` callback a host wires up.
 */

export {
  IntelligentUIView,
  type IntelligentUIViewProps,
  type RendererTheme,
} from './document-view.js';
export { formatResult, scalarText } from './format.js';
export type {
  InvokeUnavailableReason,
  UIInvokeHandler,
  UIInvokeRequest,
} from './invoke.js';
export { RENDERED_COMPONENT_TYPES } from './node-view.js';
export type { HeadingLevel } from './outline.js';
export { IntelligentUIStreamView, type IntelligentUIStreamViewProps } from './stream-view.js';
