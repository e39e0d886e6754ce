import { IntelligentUIView, type UIInvokeHandler } from '@lineup/renderer-react';
import type { UIActionReserveRequest, UIDocumentRef } from '@lineup/shared';
import reader from '@lineup/shared/fixtures/file-reader.json' with { type: 'json' };
import { createRoot } from 'react-dom/client';

/** What the host's runtime offers the renderer: reserve an operation, then follow its receipt. */
export interface ActionRuntime {
  reserve(request: UIActionReserveRequest): Promise<unknown>;
}

// A click on an invoke button becomes one request with a fresh requestId and the state at the click. The
// host re-derives the arguments from its own copy of the document, asks the user when the risk says so,
// runs it, and resolves with the receipt. A succeeded result is written through resultMap, unless the
// user changed something since the click.
export function showReader(container: HTMLElement, runtime: ActionRuntime) {
  const documentRef: UIDocumentRef = { sourceCallId: 'call-42', uiId: reader.id, generation: 0, revision: 0 };
  const onInvoke: UIInvokeHandler = (request) =>
    runtime.reserve({
      documentRef,
      requestId: request.requestId,
      actionId: request.actionId,
      values: request.values,
    });
  const root = createRoot(container);
  root.render(<IntelligentUIView document={reader} documentRef={documentRef} onInvoke={onInvoke} />);
  return root;
}
