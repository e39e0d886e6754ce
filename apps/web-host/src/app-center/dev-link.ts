/**
 * A MiniApp in development, followed by the host: `?dev=http://localhost:5173/__lineup/bundle/` (the dev bundle the
 * `@lineup/miniapp-sdk` Vite plugin serves while `vite` runs, rebuilt on every save) is installed through the app
 * center — every file verified against its manifest, like any bundle — and installed again whenever its manifest
 * changes; the app's page, if it is shown, then loads the new files. Its tools are in the inventory, so the agent
 * console (or a remote agent, `?agent=ws://…`) calls them through the same pipeline as an installed app's.
 *
 * Only a dev server on this machine is followed (`devBundleUrl`). A manifest that cannot be read (the server
 * stopped) is shown in the app center and tried again each second. A failed build (the dev server answers 503
 * with the build's message) is shown with its message, lines kept, where the last install's result was, saying
 * which app the last good build installed — it stays installed and keeps answering calls; the next good build
 * is installed. A refused install is shown and tried again when the manifest changes.
 */
import type { AppCenter } from './app-center.ts';
import { devBundleUrl } from './bundle-sources.ts';

/** How often the dev bundle's manifest is read. */
export const DEV_POLL_MS = 1_000;

/** `?dev=` of the page URL, or null. */
export function configuredDevBundle(location: Pick<Location, 'search'> = window.location): string | null {
  const value = new URLSearchParams(location.search).get('dev');
  return value === null || value.trim() === '' ? null : value;
}

const bounded = (text: string) => {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length <= 300 ? clean : `${clean.slice(0, 299)}…`;
};

/** The characters of a failed build's message shown; the terminal has the rest (said, never cut silently). */
export const DEV_BUILD_MESSAGE_CHARS = 4_000;

/** A failed build's message with its lines, bounded, control characters but the newline made spaces. */
function buildMessage(text: string): string {
  const clean = text
    .replace(/\r\n?/g, '\n')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a terminal's colour codes start with ESC.
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
    .replace(/[\x00-\x09\x0b-\x1f\x7f]/g, ' ')
    .trim();
  if (clean.length <= DEV_BUILD_MESSAGE_CHARS) return clean;
  return `${clean.slice(0, DEV_BUILD_MESSAGE_CHARS)}\n… (${clean.length - DEV_BUILD_MESSAGE_CHARS} more characters in the terminal running vite)`;
}

export class DevLink {
  readonly #center: AppCenter;
  readonly #reload: (appId: string) => void;
  readonly #input: string;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;
  /** The manifest text last installed (or refused): the next install waits for another. */
  #last: string | undefined;

  constructor(input: string, center: AppCenter, reload: (appId: string) => void) {
    this.#input = input;
    this.#center = center;
    this.#reload = reload;
  }

  /** Installs now, then follows the manifest until `stop()`. */
  start(): void {
    const url = devBundleUrl(this.#input);
    this.#center.setDevUrl(url instanceof URL ? url.href : this.#input);
    if (!(url instanceof URL)) {
      this.#center.devProblem(url);
      return;
    }
    const tick = async () => {
      await this.#check(url).catch(() => {});
      if (!this.#stopped) this.#timer = setTimeout(tick, DEV_POLL_MS);
    };
    void tick();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  async #check(url: URL): Promise<void> {
    let text: string;
    try {
      const response = await fetch(new URL('lineup.manifest.json', url), { cache: 'no-store' });
      text = await response.text();
      if (!response.ok) {
        this.#last = undefined;
        // 503 is the dev bundle's failed build: its message (the tool, the field, the fix) and what still runs.
        this.#center.devProblem(
          response.status === 503
            ? { kind: 'dev_build_failed', message: buildMessage(text) }
            : { kind: 'dev_unavailable', status: response.status, message: bounded(text) },
        );
        return;
      }
    } catch (error) {
      this.#last = undefined;
      this.#center.devProblem({
        kind: 'dev_unavailable',
        status: 0,
        message: bounded(error instanceof Error ? error.message : String(error)),
      });
      return;
    }
    if (this.#stopped || text === this.#last) return;
    this.#last = text;
    await this.#center.installFromDevServer(url.href, (appId) => {
      if (!this.#stopped) this.#reload(appId);
    });
  }
}
