import { miniAppPageFromFiles, mountMiniAppPage } from '@lineup/surface-host';

// An installed MiniApp's page, built from its kept, verified files (path → bytes) and mounted contained: the
// page's messages go to `receive` (the runtime's `MiniAppConnection` judges them), and `handle.send` answers it.
// A page that names a file its bundle lacks is refused here, before anything mounts.
export function openPomodoro(
  container: HTMLElement,
  files: ReadonlyMap<string, Uint8Array>,
  receive: (message: Readonly<Record<string, unknown>>) => void,
) {
  const handle = mountMiniAppPage(container, {
    instanceId: 'pomodoro.page.01',
    name: 'Pomodoro',
    page: miniAppPageFromFiles('index.html', files),
    fragment: new URLSearchParams({ lang: 'en-US', 'lineup-instance': 'pomodoro.page.01' }).toString(),
    onMessage: receive,
    onRejected: (rejection) => {
      if (rejection.reason === 'navigated') console.log('the page tried to leave and was removed');
    },
  });
  return handle;
}
