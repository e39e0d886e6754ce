/**
 * Installing in the app center: a MiniApp from a bundle URL on this site or a picked folder, and an MCP server by its
 * URL.
 */
import { type FormEvent, useId, useState } from 'react';
import { useText } from '../i18n/LanguageProvider.tsx';
import { ActionStatus } from './ActionStatus.tsx';
import type { AppCenter as AppCenterModel } from './app-center.ts';
import type { ActionState } from './snapshot.ts';

/** Installing a MiniApp: from a bundle URL on this site, or from a folder the user picks. */
export function InstallForm({
  center,
  url,
  folder,
}: {
  readonly center: AppCenterModel;
  readonly url: ActionState;
  readonly folder: ActionState;
}) {
  const text = useText();
  const id = useId();
  const [address, setAddress] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void center.installFromUrl(address);
  };
  return (
    <section className="host__app-install-form" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{text.apps.install}</h3>
      <form onSubmit={submit}>
        <label htmlFor={`${id}-url`}>{text.apps.urlLabel}</label>
        <div className="host__app-install-row">
          <input
            id={`${id}-url`}
            type="text"
            inputMode="url"
            spellCheck={false}
            autoComplete="off"
            placeholder="/apps/notes/"
            value={address}
            aria-describedby={`${id}-url-hint`}
            onChange={(event) => setAddress(event.target.value)}
          />
          <button type="submit" disabled={url.status === 'running'}>
            {text.apps.urlInstall}
          </button>
        </div>
        <p id={`${id}-url-hint`} className="host__app-hint">
          {text.apps.urlHint}
        </p>
        <ActionStatus state={url} />
      </form>
      <div className="host__app-folder">
        <label id={`${id}-folder-label`} htmlFor={`${id}-folder`}>
          {text.apps.folderLabel}
        </label>
        <div className="host__app-pick">
          {/* The browser's own file button speaks the browser's language ("Choose Files", "No file chosen"),
              not the page's: the input stays for keyboard and assistive technology, unseen, and a label in the
              page's language stands where its button was. */}
          <input
            id={`${id}-folder`}
            className="host__visually-hidden"
            type="file"
            multiple
            // React has no prop for it; the attribute makes the chooser pick a folder (Chromium, Firefox, Safari).
            {...{ webkitdirectory: '' }}
            disabled={folder.status === 'running'}
            // Named by the field's label alone, not also by the button's text below.
            aria-labelledby={`${id}-folder-label`}
            aria-describedby={`${id}-folder-hint`}
            onChange={(event) => {
              const input = event.currentTarget;
              const files = [...(input.files ?? [])];
              // Picking the same folder again (after changing it) is a new install attempt.
              input.value = '';
              void center.installFromFolder(files);
            }}
          />
          <label htmlFor={`${id}-folder`} className="host__app-pick-button" aria-hidden="true">
            {text.apps.folderChoose}
          </label>
        </div>
        <p id={`${id}-folder-hint`} className="host__app-hint">
          {text.apps.folderHint}
        </p>
        <ActionStatus state={folder} />
      </div>
    </section>
  );
}

/** Adding an MCP server by its Streamable HTTP URL, under an app scope of the user's when one is given. */
export function McpInstallForm({
  center,
  state,
}: {
  readonly center: AppCenterModel;
  readonly state: ActionState;
}) {
  const text = useText();
  const id = useId();
  const [address, setAddress] = useState('');
  const [scope, setScope] = useState('');
  const [token, setToken] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The token field empties at once: it is in the credentials store (or refused), never left on screen.
    const given = token;
    setToken('');
    void center.installMcpServer(address, scope, given);
  };
  return (
    <section className="host__app-install-form" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{text.apps.mcp.install}</h3>
      <form onSubmit={submit}>
        <label htmlFor={`${id}-url`}>{text.apps.mcp.urlLabel}</label>
        <div className="host__app-install-row">
          <input
            id={`${id}-url`}
            type="text"
            inputMode="url"
            spellCheck={false}
            autoComplete="off"
            placeholder="http://localhost:3001/mcp"
            value={address}
            aria-describedby={`${id}-url-hint`}
            onChange={(event) => setAddress(event.target.value)}
          />
        </div>
        <p id={`${id}-url-hint`} className="host__app-hint">
          {text.apps.mcp.urlHint}
        </p>
        <label htmlFor={`${id}-scope`}>{text.apps.mcp.scopeLabel}</label>
        <div className="host__app-install-row">
          <input
            id={`${id}-scope`}
            type="text"
            spellCheck={false}
            autoComplete="off"
            value={scope}
            aria-describedby={`${id}-scope-hint`}
            onChange={(event) => setScope(event.target.value)}
          />
          <button type="submit" disabled={state.status === 'running'}>
            {text.apps.mcp.add}
          </button>
        </div>
        <p id={`${id}-scope-hint`} className="host__app-hint">
          {text.apps.mcp.scopeHint}
        </p>
        <label htmlFor={`${id}-token`}>{text.apps.mcp.tokenLabel}</label>
        <div className="host__app-install-row">
          <input
            id={`${id}-token`}
            type="password"
            spellCheck={false}
            autoComplete="off"
            value={token}
            aria-describedby={`${id}-token-hint`}
            onChange={(event) => setToken(event.target.value)}
          />
        </div>
        <p id={`${id}-token-hint`} className="host__app-hint">
          {text.apps.mcp.tokenHint}
        </p>
        <ActionStatus state={state} />
        {/* A server that asks who you are may let you sign in (OAuth): the window opens at this click. */}
        {state.status === 'failed' &&
          state.problem.kind === 'mcp' &&
          state.problem.code === 'unauthorized' && (
            <button type="button" onClick={() => void center.signInMcpServer(address, scope)}>
              {text.apps.mcp.signIn}
            </button>
          )}
      </form>
    </section>
  );
}
