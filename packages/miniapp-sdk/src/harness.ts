/**
 * The dev loop's mock runtime: a page the plugin serves in `vite` (dev) at `/__lineup/`. It frames the app's
 * entry as the runtime would (`index.html#lineup-instance=<id>`) and speaks the runtime's end of
 * `lineup.miniapp.v1`: it answers `app_ready` with the session data, commits writes (with `base_revision`),
 * accepts UI actions, sends lifecycle notices, and calls each tool from a form — a handler tool through the
 * page's client, a runtime built-in through a small imitation of it. It judges every message of the page with
 * the runtime's own parser and answers a refused one as the runtime does (`answerRefusedMiniAppMessage`), so a
 * bad write fails here as it would in a host. Nothing here is part of a build.
 *
 * It is a mock, not the runtime: no agent, no persistence (a reload starts a new session), no permission or
 * activation checks, and the built-ins only imitate what the runtime projects into the session data.
 */
import { MINIAPP_INSTANCE_PARAMETER, MINIAPP_NAMESPACE } from '@lineup/shared/bridge';
import type { MiniAppManifest } from '@lineup/shared/protocol';

/** Where `vite` (dev) serves the harness. */
export const HARNESS_PATH = '/__lineup/';
/** The virtual module through which the harness page imports the channel's parser (served by the plugin). */
export const HARNESS_CHANNEL_MODULE = 'lineup:harness-channel';

/** `<`, `>` and `&` escaped so JSON can sit inside a `<script>` element. */
function scriptJSON(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; display: grid; grid-template-columns: minmax(320px, 1fr) 420px; height: 100vh; }
iframe { width: 100%; height: 100%; border: 0; border-right: 1px solid #ccc; }
aside { overflow: auto; padding: 12px 16px; }
h1 { font-size: 16px; margin: 0 0 4px; } h2 { font-size: 14px; margin: 16px 0 4px; }
section.tool { border: 1px solid #ccc; border-radius: 6px; padding: 8px; margin: 8px 0; }
textarea { width: 100%; box-sizing: border-box; font: 12px monospace; min-height: 48px; }
pre, output { display: block; white-space: pre-wrap; word-break: break-word; font: 12px monospace; background: #f4f4f4; padding: 6px; margin: 4px 0; }
.meta { color: #555; font-size: 12px; }
`;

/**
 * The runtime's end of the channel, in the page: a module script, sent as it is, whose one import (`channel`, the
 * parser) Vite serves. `manifest`, `namespace` and `parameter` are given as JSON.
 */
const SCRIPT = String.raw`
const SILENT_AFTER_MS = 5000;
const SILENT = 'The page has not sent app_ready. Does the page\'s entry script (index.html → src/main.ts) call createMiniAppClient({ tools }) when it loads? A module that only exports a function creating the client never starts. Look for an error in the page\'s console.';
const frame = document.getElementById('app');
const instanceId = 'dev-' + Math.random().toString(36).slice(2, 10);
const session = { revision: 0, data: {} };
let ready = false;
let nextInvocation = 1;
const waiting = new Map();
const operation = { current: null, timer: null, finish: null };
const $ = (id) => document.getElementById(id);

function log(text) {
  const line = document.createElement('li');
  line.textContent = new Date().toISOString().slice(11, 19) + ' ' + text;
  $('log').prepend(line);
}
function post(message) {
  frame.contentWindow.postMessage({ namespace, instance_id: instanceId, ...message }, '*');
}
function showSession() {
  $('revision').textContent = String(session.revision);
  $('session-data').textContent = JSON.stringify(session.data, null, 2);
  if (ready) post({ type: 'session_data', revision: session.revision, data: session.data });
}
function commit(key, value) {
  session.data = { ...session.data, [key]: value };
  session.revision += 1;
  showSession();
}

function refused(data, error) {
  if (error === null || typeof error !== 'object' || error.code !== 'protocol_invalid') throw error;
  if (data === null || typeof data !== 'object' || data.namespace !== namespace) return;
  log('refused ' + String(data.type) + ': ' + error.message);
  const answer = channel.answerRefusedMiniAppMessage(data, instanceId, error);
  if (answer === undefined) return;
  if (answer.kind === 'request') {
    frame.contentWindow.postMessage(answer.message, '*');
    return;
  }
  const settle = waiting.get(answer.invocationId);
  waiting.delete(answer.invocationId);
  if (settle) settle({ status: 'error', error: { code: answer.code, message: error.message } });
}

window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow) return;
  let message;
  try {
    message = channel.parseMiniAppMessageFromFrame(event.data, instanceId);
  } catch (error) {
    refused(event.data, error);
    return;
  }
  switch (message.type) {
    case 'app_ready':
      ready = true;
      $('status').textContent = 'app_ready';
      log('app_ready');
      showSession();
      return;
    case 'app_failed':
      $('status').textContent = 'app_failed: ' + message.error.code;
      log('app_failed ' + JSON.stringify(message.error));
      return;
    case 'tool_return': {
      const settle = waiting.get(message.invocation_id);
      waiting.delete(message.invocation_id);
      log('tool_return ' + message.status);
      if (settle) settle(message.status === 'ok' ? { status: 'ok', result: message.result } : { status: 'error', error: message.error });
      return;
    }
    case 'session_data_write': {
      const answer = { type: 'request_result', request_id: message.request_id };
      if (message.base_revision !== undefined && message.base_revision !== session.revision) {
        post({ ...answer, status: 'error', error: { code: 'revision_conflict', message: 'The data is at revision ' + session.revision + '.' } });
        log('session_data_write ' + message.key + ' refused (revision_conflict)');
        return;
      }
      commit(message.key, message.value);
      post({ ...answer, status: 'ok', revision: session.revision });
      log('session_data_write ' + message.key);
      return;
    }
    case 'ui_action':
      post({ type: 'request_result', request_id: message.request_id, status: 'ok' });
      log('ui_action ' + message.action + ' ' + JSON.stringify(message.arguments));
      return;
  }
});

function invokeHandler(tool, args) {
  if (!ready) return Promise.resolve({ status: 'error', error: { code: 'app_not_ready', message: SILENT } });
  const invocationId = 'i' + nextInvocation++;
  return new Promise((resolve) => {
    waiting.set(invocationId, resolve);
    post({ type: 'tool_invocation', invocation_id: invocationId, app_scope: manifest.app_scope, method: tool.method, arguments: args });
  });
}

const iso = (ms) => new Date(ms).toISOString();

// Imitations of the runtime's built-ins: the same results and session data projection ('operation').
const builtins = {
  deadline_operation(tool, args, progress) {
    const minutes = args.minutes;
    if (!Number.isInteger(minutes) || minutes < 1) return Promise.resolve({ status: 'error', error: { code: 'invalid_arguments', message: 'minutes must be a positive integer.' } });
    if (operation.current) return Promise.resolve({ status: 'error', error: { code: 'operation_running', message: 'An operation is already running.' } });
    const started = Date.now();
    const current = { status: 'running', minutes, ...(typeof args.label === 'string' ? { label: args.label } : {}), started_at: iso(started), deadline_at: iso(started + minutes * 60000) };
    operation.current = current;
    commit('operation', current);
    progress('started');
    return new Promise((resolve) => {
      operation.finish = (result) => {
        clearTimeout(operation.timer);
        operation.current = null;
        const { status, ...times } = result;
        commit('operation', { status, ...times });
        resolve({ status: 'ok', result });
      };
      operation.timer = setTimeout(() => operation.finish({ status: 'completed', minutes, started_at: current.started_at, ended_at: current.deadline_at }), minutes * 60000);
    });
  },
  operation_interrupt() {
    if (!operation.current) return Promise.resolve({ status: 'ok', result: { status: 'nothing_to_interrupt' } });
    const now = Date.now();
    const started = Date.parse(operation.current.started_at);
    operation.finish({ status: 'interrupted', started_at: operation.current.started_at, interrupted_at: iso(now), focused_seconds: Math.max(0, Math.floor((now - started) / 1000)), by: 'agent' });
    return Promise.resolve({ status: 'ok', result: { status: 'interrupted' } });
  },
};

/** Arguments to start from: each required property with a value its schema accepts, where that is easy. */
function sample(schema) {
  const args = {};
  for (const name of schema.required || []) {
    const property = (schema.properties || {})[name] || {};
    if (property.type === 'integer' || property.type === 'number') args[name] = property.minimum ?? 1;
    else if (property.type === 'boolean') args[name] = false;
    else if (Array.isArray(property.enum)) args[name] = property.enum[0];
    else if (property.type === 'string') args[name] = 'example'.slice(0, Math.max(property.minLength || 1, Math.min(property.maxLength ?? 7, 7)));
  }
  return args;
}

for (const tool of manifest.tools) {
  const section = document.createElement('section');
  section.className = 'tool';
  section.dataset.testid = 'tool-' + tool.method;
  const executor = tool.executor.kind === 'runtime' ? 'runtime: ' + tool.executor.builtin : 'handler';
  section.innerHTML = '<h2></h2><p class="meta"></p><p></p><label>Arguments (JSON)<textarea></textarea></label><button type="button">Call</button><output aria-live="polite"></output>';
  section.querySelector('h2').textContent = manifest.app_scope + '.' + tool.method;
  section.querySelector('.meta').textContent = tool.call_model + ' · ' + tool.activation + ' · ' + executor;
  section.querySelector('p:not(.meta)').textContent = tool.description;
  const area = section.querySelector('textarea');
  area.value = JSON.stringify(sample(tool.input_schema));
  area.dataset.testid = 'arguments-' + tool.method;
  const output = section.querySelector('output');
  output.dataset.testid = 'result-' + tool.method;
  const button = section.querySelector('button');
  button.dataset.testid = 'call-' + tool.method;
  button.addEventListener('click', async () => {
    let args;
    try {
      args = JSON.parse(area.value);
    } catch (error) {
      output.textContent = 'Arguments are not JSON: ' + error.message;
      return;
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args)) {
      output.textContent = 'Arguments are a JSON object.';
      return;
    }
    output.textContent = 'running…';
    log('call ' + tool.method + ' ' + JSON.stringify(args));
    const progress = (stage) => { output.textContent = 'progress: ' + stage; };
    const outcome = tool.executor.kind === 'runtime'
      ? await builtins[tool.executor.builtin](tool, args, progress)
      : await invokeHandler(tool, args);
    output.textContent = JSON.stringify(outcome, null, 2);
  });
  $('tools').append(section);
}

for (const phase of ['foreground', 'background', 'close']) {
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = phase;
  button.dataset.testid = 'lifecycle-' + phase;
  button.addEventListener('click', () => { post({ type: 'lifecycle', phase }); log('lifecycle ' + phase); });
  $('lifecycle').append(button);
}

showSession();
frame.src = entry + '#' + parameter + '=' + encodeURIComponent(instanceId);
// A page that never says app_ready is the first thing a newcomer meets: say so, and the likely cause.
frame.addEventListener('load', () => {
  setTimeout(() => {
    if (ready) return;
    $('status').textContent = 'silent: no app_ready';
    $('silent').textContent = SILENT;
    $('silent').hidden = false;
    log('no app_ready ' + SILENT_AFTER_MS / 1000 + ' s after the page loaded');
    console.warn('[LineUp mock runtime] ' + SILENT);
  }, SILENT_AFTER_MS);
}, { once: true });
`;

/** The harness page for a manifest, serving the app's entry below `base`. */
export function harnessPage(manifest: MiniAppManifest, base: string): string {
  const entry = `${base.endsWith('/') ? base : `${base}/`}${manifest.entry}`.replace(/^\.\//, '/');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="UTF-8" />
<title>${manifest.name.replace(/[<&]/g, '')} — LineUp mock runtime</title>
<style>${STYLE}</style>
</head>
<body>
<iframe id="app" title="${manifest.name.replace(/[<&"]/g, '')}" sandbox="allow-scripts allow-same-origin"></iframe>
<aside>
<h1>LineUp mock runtime</h1>
<p class="meta">${manifest.id.replace(/[<&]/g, '')} ${manifest.version.replace(/[<&]/g, '')} · page <span id="status" data-testid="status">loading</span></p>
<p id="silent" data-testid="silent" role="alert" hidden></p>
<div id="lifecycle"></div>
<h2>Session data · revision <span id="revision" data-testid="revision">0</span></h2>
<pre id="session-data" data-testid="session-data">{}</pre>
<h2>Tools</h2>
<div id="tools"></div>
<h2>Log</h2>
<ol id="log" data-testid="log"></ol>
</aside>
<script type="module">
import * as channel from ${scriptJSON(`${base.endsWith('/') ? base : `${base}/`}@id/__x00__${HARNESS_CHANNEL_MODULE}`)};
const manifest = ${scriptJSON(manifest)};
const namespace = ${scriptJSON(MINIAPP_NAMESPACE)};
const parameter = ${scriptJSON(MINIAPP_INSTANCE_PARAMETER)};
const entry = ${scriptJSON(entry)};
${SCRIPT}
</script>
</body>
</html>
`;
}
