/**
 * The MiniApp's end of `lineup.miniapp.v1` (seed 003 §3–§8; the runtime's end is in `@lineup/runtime`). One
 * client per page: it announces `app_ready` once the app's tools are registered, runs the runtime's tool
 * invocations through `AgentTools.handle` and returns their outcome, keeps the app session's data as the
 * runtime last committed it, writes single keys, sends local UI actions and hears lifecycle notices.
 *
 * The page never talks to the agent: a handler's result goes back to the runtime, which validates it against
 * the tool's output schema and delivers it. The runtime is the one judge of the channel's rules: it validates
 * every message the page sends and answers a refused write or UI action with `protocol_invalid` and where the
 * problem is (a refused result fails its invocation), so the page ships no second copy of those rules. The
 * client reads only messages from its parent window for this instance, which the runtime validated before
 * posting them.
 */
import { LineUpError, LineUpProtocolError } from '@lineup/shared';
import {
  MINIAPP_ERROR_CODE_PATTERN,
  MINIAPP_INSTANCE_PARAMETER,
  MINIAPP_MAX_ERROR_CODE_LENGTH,
  MINIAPP_MAX_ERROR_MESSAGE_LENGTH,
  MINIAPP_NAMESPACE,
  type MiniAppError,
  type MiniAppLifecyclePhase,
  type MiniAppMessageToFrame,
  type MiniAppSessionData,
  type MiniAppToolInvocationMessage,
  type MiniAppUIActionArguments,
} from '@lineup/shared/bridge';
import type { AgentTools } from './agent-tool.js';

/** The URL fragment parameter that carries the instance id the runtime mounted this page as. */
export { MINIAPP_INSTANCE_PARAMETER };

/** The part of `window` the client uses (a test passes its own). */
export interface MiniAppClientWindow {
  readonly parent: { postMessage(message: unknown, targetOrigin: string): void };
  readonly location: { readonly hash: string };
  addEventListener(type: 'message', listener: (event: { source: unknown; data: unknown }) => void): void;
  removeEventListener(type: 'message', listener: (event: { source: unknown; data: unknown }) => void): void;
  setTimeout(callback: () => void, delay: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface MiniAppClientOptions {
  /** The app's tools, from `defineAgentTools`. */
  readonly tools: AgentTools;
  /** This page's instance id; read from `#lineup-instance=…` in the URL when omitted. */
  readonly instanceId?: string;
  /** How long a write or UI action waits for the runtime's answer (default 10 s). */
  readonly requestTimeoutMs?: number;
  readonly window?: MiniAppClientWindow;
}

/** The app session's data as the runtime committed it, with its revision. */
export interface SessionDataSnapshot {
  readonly revision: number;
  readonly data: MiniAppSessionData;
}

/**
 * The runtime refused a request, or it could not be sent or answered: `code` is the runtime's (`protocol_invalid`
 * for a key, value, action or argument the channel refuses, with `issues` saying where; `revision_conflict`,
 * `reserved_key`, …) or the client's (`timeout`, `closed`, `not_sendable` for a value that is not data).
 */
export class MiniAppRequestError extends LineUpError {
  override readonly name = 'MiniAppRequestError';
  constructor(error: MiniAppError) {
    super(error.code, error.message ?? error.code, {
      // The channel carries where and what kind, never a sentence per place: the error's message says the first.
      issues: (Array.isArray(error.issues) ? error.issues : []).map(({ path, code }) => ({
        path,
        code,
        message: REFUSED_HERE,
      })),
    });
  }
}

const REFUSED_HERE = 'The runtime refused the value here; the error message says why for the first place.';

export interface MiniAppClient {
  readonly instanceId: string;
  /** The last committed session data, or `null` before the runtime sent any. */
  readonly sessionData: SessionDataSnapshot | null;
  /** Called with every committed snapshot (and at once, on the next task, with the current one). */
  onSessionData(listener: (snapshot: SessionDataSnapshot) => void): () => void;
  /** Called with `foreground`, `background` and `close`; a close never says why. */
  onLifecycle(listener: (phase: MiniAppLifecyclePhase) => void): () => void;
  /**
   * Writes one key of the session data; resolves with the new revision once the runtime committed it. With
   * `baseRevision`, the write applies only at that revision. Rejects with `MiniAppRequestError` when the runtime
   * refuses: `protocol_invalid` (with `issues`) for a key or value the channel refuses, nothing written.
   */
  writeSessionData(
    key: string,
    value: unknown,
    options?: { readonly baseRevision?: number },
  ): Promise<number>;
  /** Sends a local UI action (seed 003 §3: its own entry point, never an agent tool call). */
  uiAction(action: string, args?: MiniAppUIActionArguments): Promise<void>;
  /**
   * Tells the runtime this app cannot start; its activation fails. Throws `LineUpProtocolError` (nothing sent)
   * for a code that is not snake_case of at most 64 characters or a message over 512.
   */
  fail(code: string, message?: string): void;
  /** Stops listening; pending requests reject, running handlers are aborted. */
  close(): void;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/** The instance id from `#lineup-instance=<id>`, or undefined. */
export function instanceIdFromHash(hash: string): string | undefined {
  const parameters = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  return parameters.get(MINIAPP_INSTANCE_PARAMETER) ?? undefined;
}

/** Starts the client: listens, then announces `app_ready`. */
export function createMiniAppClient(options: MiniAppClientOptions): MiniAppClient {
  const view = options.window ?? (globalThis as unknown as { window: MiniAppClientWindow }).window;
  const instanceId = options.instanceId ?? instanceIdFromHash(view.location.hash);
  if (instanceId === undefined)
    throw new TypeError(
      `createMiniAppClient: no instance id; the runtime opens the page with #${MINIAPP_INSTANCE_PARAMETER}=<id>.`,
    );
  const { tools } = options;
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const parent = view.parent;
  const post = parent.postMessage.bind(parent);

  let snapshot: SessionDataSnapshot | null = null;
  let closed = false;
  let nextRequest = 1;
  const dataListeners = new Set<(snapshot: SessionDataSnapshot) => void>();
  const lifecycleListeners = new Set<(phase: MiniAppLifecyclePhase) => void>();
  const running = new Map<string, AbortController>();
  const pending = new Map<
    string,
    { resolve: (revision: number | undefined) => void; reject: (error: Error) => void; timer: unknown }
  >();

  /** Posts a message for the runtime (which validates it); throws what `postMessage` throws for a value that is not data. */
  const send = (message: Record<string, unknown>): void =>
    post({ namespace: MINIAPP_NAMESPACE, instance_id: instanceId, ...message }, '*');

  /** Sends a request; settles with the runtime's `request_result` (its revision), or on a timeout or close. */
  const request = (message: Record<string, unknown>) =>
    new Promise<number | undefined>((resolve, reject) => {
      if (closed) throw new MiniAppRequestError({ code: 'closed', message: 'The client is closed.' });
      const requestId = `r${nextRequest++}`;
      // Waiting before sending: a runtime in the same thread may answer within the send.
      const timer = view.setTimeout(() => {
        pending.delete(requestId);
        reject(new MiniAppRequestError({ code: 'timeout', message: 'The runtime did not answer in time.' }));
      }, timeoutMs);
      pending.set(requestId, { resolve, reject, timer });
      try {
        send({ ...message, request_id: requestId });
      } catch {
        pending.delete(requestId);
        view.clearTimeout(timer);
        // A function, a symbol or a DOM node cannot be copied to the runtime (a DataCloneError, which may quote it).
        throw new MiniAppRequestError({
          code: 'not_sendable',
          message: 'Only JSON data can be sent: the value could not be copied to the runtime.',
        });
      }
    });

  const runInvocation = async (message: MiniAppToolInvocationMessage): Promise<void> => {
    const controller = new AbortController();
    running.set(message.invocation_id, controller);
    const outcome =
      message.app_scope === tools.appScope
        ? await tools.handle(message.method, message.arguments, { signal: controller.signal })
        : ({
            status: 'error',
            code: 'unknown_method',
            message: 'This MiniApp has another app scope.',
          } as const);
    running.delete(message.invocation_id);
    if (closed) return;
    const base = { type: 'tool_return', invocation_id: message.invocation_id };
    try {
      send(
        outcome.status === 'ok'
          ? { ...base, status: 'ok', result: outcome.result }
          : {
              ...base,
              status: 'error',
              error: {
                code: outcome.code,
                message: outcome.message,
                ...(outcome.issues === undefined || outcome.issues.length === 0
                  ? {}
                  : { issues: outcome.issues }),
              },
            },
      );
    } catch {
      // A result that cannot be copied to the runtime is an invalid result, not silence (one the channel refuses,
      // too large or not JSON, the runtime fails itself).
      send({
        ...base,
        status: 'error',
        error: { code: 'invalid_output', message: 'The result could not be copied to the runtime.' },
      });
    }
  };

  const onMessage = (event: { source: unknown; data: unknown }): void => {
    // Only the runtime's messages for this instance (it validated each before posting it).
    const message = event.data as MiniAppMessageToFrame | null;
    if (
      closed ||
      event.source !== parent ||
      typeof message !== 'object' ||
      message?.namespace !== MINIAPP_NAMESPACE ||
      message.instance_id !== instanceId
    )
      return;
    switch (message.type) {
      case 'tool_invocation':
        void runInvocation(message);
        return;
      case 'session_data': {
        snapshot = Object.freeze({ revision: message.revision, data: deepFreeze(message.data) });
        for (const listener of [...dataListeners]) listener(snapshot);
        return;
      }
      case 'tool_invocation_cancel':
        // The runtime stopped waiting (the call timed out): the handler's signal aborts; its return is ignored.
        running.get(message.invocation_id)?.abort();
        return;
      case 'lifecycle':
        if (message.phase === 'close') for (const controller of running.values()) controller.abort();
        for (const listener of [...lifecycleListeners]) listener(message.phase);
        return;
      case 'request_result': {
        const waiting = pending.get(message.request_id);
        if (waiting === undefined) return;
        pending.delete(message.request_id);
        view.clearTimeout(waiting.timer);
        if (message.status === 'ok') waiting.resolve(message.revision);
        else waiting.reject(new MiniAppRequestError(message.error));
        return;
      }
    }
  };

  view.addEventListener('message', onMessage);
  send({ type: 'app_ready' });

  return {
    instanceId,
    get sessionData() {
      return snapshot;
    },
    onSessionData(listener) {
      dataListeners.add(listener);
      const current = snapshot;
      if (current !== null)
        view.setTimeout(() => {
          if (dataListeners.has(listener)) listener(current);
        }, 0);
      return () => dataListeners.delete(listener);
    },
    onLifecycle(listener) {
      lifecycleListeners.add(listener);
      return () => lifecycleListeners.delete(listener);
    },
    async writeSessionData(key, value, writeOptions = {}) {
      const revision = await request({
        type: 'session_data_write',
        key,
        value,
        ...(writeOptions.baseRevision === undefined ? {} : { base_revision: writeOptions.baseRevision }),
      });
      if (revision === undefined)
        throw new MiniAppRequestError({
          code: 'protocol_error',
          message: 'The runtime accepted the write without a revision.',
        });
      return revision;
    },
    async uiAction(action, args = {}) {
      await request({ type: 'ui_action', action, arguments: args });
    },
    fail(code, message) {
      // Checked here, where the author calls: the runtime answers a refused app_failed with nothing.
      const refuse = (path: string, text: string) => {
        throw new LineUpProtocolError([{ path, code: 'invalid_value', message: text }]);
      };
      if (
        typeof code !== 'string' ||
        code.length > MINIAPP_MAX_ERROR_CODE_LENGTH ||
        !MINIAPP_ERROR_CODE_PATTERN.test(code)
      )
        refuse('code', 'A code is snake_case, starting with a letter, at most 64 characters.');
      if (
        message !== undefined &&
        (typeof message !== 'string' || [...message].length > MINIAPP_MAX_ERROR_MESSAGE_LENGTH)
      )
        refuse('message', 'A message is a string of at most 512 characters.');
      send({ type: 'app_failed', error: message === undefined ? { code } : { code, message } });
    },
    close() {
      if (closed) return;
      closed = true;
      view.removeEventListener('message', onMessage);
      for (const controller of running.values()) controller.abort();
      for (const [, waiting] of pending) {
        view.clearTimeout(waiting.timer);
        waiting.reject(new MiniAppRequestError({ code: 'closed', message: 'The client is closed.' }));
      }
      pending.clear();
    },
  };
}

/** `value` and everything in it frozen: the snapshot a listener gets cannot be changed under the next one. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
