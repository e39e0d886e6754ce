/**
 * The MiniApp's end of `lineup.miniapp.v1` (seed 003 §3–§8; the runtime's end is in `@lineup/runtime`). One
 * client per page: it announces `app_ready` once the app's tools are registered, runs the runtime's tool
 * invocations through `AgentTools.handle` and returns their outcome, keeps the app session's data as the
 * runtime last committed it, writes single keys, sends local UI actions and hears lifecycle notices.
 *
 * The page never talks to the agent: a handler's result goes back to the runtime, which validates it against
 * the tool's output schema and delivers it (seed 003 §8.6). Every message the client sends is validated with
 * the channel's own rules first, so a bad write fails at the call with a located issue; every message it
 * receives must come from the parent window and pass the same rules for this instance. The page checks with the
 * channel's zod-free parsers (`…Compact` in `@lineup/shared/bridge`), which accept exactly what the runtime's
 * zod parsers accept and cost the page a fraction of the bytes.
 */
import { LineUpError, LineUpProtocolError } from '@lineup/shared';
import {
  MINIAPP_INSTANCE_PARAMETER,
  MINIAPP_NAMESPACE,
  type MiniAppError,
  type MiniAppLifecyclePhase,
  type MiniAppMessageFromFrame,
  type MiniAppSessionData,
  type MiniAppToolInvocationMessage,
  type MiniAppUIActionArguments,
  parseMiniAppMessageFromFrameCompact as parseMiniAppMessageFromFrame,
  parseMiniAppMessageToFrameCompact as parseMiniAppMessageToFrame,
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

/** The runtime refused a request, or did not answer in time (`code` `timeout`). */
export class MiniAppRequestError extends LineUpError {
  override readonly name = 'MiniAppRequestError';
  constructor(error: MiniAppError) {
    super(error.code, error.message ?? error.code);
  }
}

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
   * `baseRevision`, the write applies only at that revision. Rejects with `LineUpProtocolError` for a key or
   * value the channel refuses (nothing is sent) and with `MiniAppRequestError` when the runtime refuses.
   */
  writeSessionData(
    key: string,
    value: unknown,
    options?: { readonly baseRevision?: number },
  ): Promise<number>;
  /** Sends a local UI action (seed 003 §3: its own entry point, never an agent tool call). */
  uiAction(action: string, args?: MiniAppUIActionArguments): Promise<void>;
  /** Tells the runtime this app cannot start; its activation fails. */
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

  /** Validates a message for the runtime, then posts it; throws `LineUpProtocolError` for an invalid one. */
  const send = (message: Record<string, unknown>): void => {
    const checked: MiniAppMessageFromFrame = parseMiniAppMessageFromFrame(
      { namespace: MINIAPP_NAMESPACE, instance_id: instanceId, ...message },
      instanceId,
    );
    post(checked, '*');
  };

  /** Sends a request; settles with the runtime's `request_result` (its revision), or on a timeout or close. */
  const request = (message: Record<string, unknown>) =>
    new Promise<number | undefined>((resolve, reject) => {
      if (closed) throw new MiniAppRequestError({ code: 'closed', message: 'The client is closed.' });
      const requestId = `r${nextRequest++}`;
      send({ ...message, request_id: requestId });
      pending.set(requestId, {
        resolve,
        reject,
        timer: view.setTimeout(() => {
          pending.delete(requestId);
          reject(
            new MiniAppRequestError({ code: 'timeout', message: 'The runtime did not answer in time.' }),
          );
        }, timeoutMs),
      });
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
    } catch (error) {
      if (!(error instanceof LineUpProtocolError)) throw error;
      // A result the channel cannot carry (too large) is an invalid result, not silence.
      send({
        ...base,
        status: 'error',
        error: { code: 'invalid_output', message: 'The result is larger than the channel allows.' },
      });
    }
  };

  const onMessage = (event: { source: unknown; data: unknown }): void => {
    if (closed || event.source !== parent) return;
    let message: ReturnType<typeof parseMiniAppMessageToFrame>;
    try {
      message = parseMiniAppMessageToFrame(event.data, instanceId);
    } catch (error) {
      if (error instanceof LineUpProtocolError) return;
      throw error;
    }
    switch (message.type) {
      case 'tool_invocation':
        void runInvocation(message);
        return;
      case 'session_data': {
        snapshot = Object.freeze({ revision: message.revision, data: message.data });
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
