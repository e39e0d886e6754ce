import { IntelligentUIView } from '@lineup/renderer-react';
import '@lineup/renderer-react/styles.css';
import calculator from '@lineup/shared/fixtures/compound-interest.json' with { type: 'json' };
import { createRoot } from 'react-dom/client';

// One agent message: the decoded document goes in as it came; the view validates it again with
// parseDocument and renders its issues instead if it is not valid. The key is the UI instance: local state
// lives as long as it does. Inputs, sliders and set/reset buttons work locally, with no agent round trip.
export function showCalculator(container: HTMLElement) {
  const root = createRoot(container);
  root.render(
    <IntelligentUIView
      key="message-1"
      document={calculator}
      locale="zh-CN"
      onStateChange={(state) => console.log(state.principal)}
    />,
  );
  return root;
}
