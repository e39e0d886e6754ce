import { mcpViewBundle, mountMcpView, prepareMcpView } from '@lineup/surface-host';

// A view the user is likely to see next, loaded and run out of sight now, so that it shows at once, already drawn,
// when its tool is called: the host connects its bridge to `ahead.transport` at once (the view initializes while
// hidden) and later moves the frame where it belongs. Where the browser cannot move a frame without reloading
// it, there is nothing to prepare: the view is mounted when it is needed.
export function prepareClock(html: string) {
  const options = { instanceId: 'clock.view.next', name: 'Clock', view: mcpViewBundle(html) };
  const ahead = prepareMcpView(document, { ...options, width: 640 });
  return {
    ahead,
    show(container: HTMLElement) {
      if (ahead === null || ahead.closed) return mountMcpView(container, options);
      ahead.moveTo(container);
      return ahead;
    },
  };
}
