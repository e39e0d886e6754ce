/**
 * The runtime's end of `lineup.miniapp.v1` for one mounted MiniApp instance (seed 003 §3–§8). It is
 * transport-free: the host gives it an `endpoint` that posts to the app's page and hands it every message
 * that came from that page (after proving the sender is that page: a browser host compares
 * `event.source`), so a host that is not a browser page can carry the channel its own way.
 *
 * Every message from the page is parsed for this instance (`parseMiniAppMessageFromFrame`); a message that
 * fails is reported and never half-used: it is only answered when it names what to answer
 * (`answerRefusedMiniAppMessage`: a write or UI action gets a `protocol_invalid` error saying where, a
 * `tool_return` fails its invocation), since the runtime is the one judge of the channel's rules and the page
 * ships no copy of them. What the page may do it does through the runtime's own
 * entry points, which decide from persisted facts: `app_ready`/`app_failed` (activation), `tool_return`
 * (a handler's outcome, still checked against the output schema), `session_data_write` (one key, optionally
 * at a base revision) and `ui_action` (a local UI action). The page never reaches the agent.
 */
import { LineUpProtocolError } from '@lineup/shared';
import {
  answerRefusedMiniAppMessage,
  MINIAPP_NAMESPACE,
  type MiniAppLifecyclePhase,
  type MiniAppMessageFromFrame,
  type MiniAppMessageToFrame,
  parseMiniAppMessageFromFrame,
  parseMiniAppMessageToFrame,
} from '@lineup/shared/bridge';
import type {
  AppTarget,
  MiniAppInvocation,
  PageRequestAnswer,
  SessionDataSnapshot,
  ToolRuntime,
} from '../execution/tool-runtime.js';

/** Where the connection posts its messages: the app's page. */
export interface MiniAppEndpoint {
  post(message: MiniAppMessageToFrame): void;
}

export interface MiniAppConnectionOptions {
  /** The page reported `app_ready` (again after each reload of the page). */
  readonly onReady?: () => void;
  /** The page reported `app_failed` with this code. */
  readonly onFailed?: (code: string) => void;
  /** A message from the page was refused: it failed the channel's parser. */
  readonly onRejected?: (error: LineUpProtocolError) => void;
  /** A runtime call failed unexpectedly (a storage error): the page got an error answer where one applies. */
  readonly onError?: (error: unknown) => void;
}

/** The runtime's end of the MiniApp channel for one instance. */
export class MiniAppConnection {
  readonly target: AppTarget;
  readonly #runtime: ToolRuntime;
  readonly #endpoint: MiniAppEndpoint;
  readonly #options: MiniAppConnectionOptions;
  #ready = false;
  #closed = false;
  /** Session data pushes are ordered by revision: a late, older snapshot is never sent after a newer one. */
  #sentRevision = -1;

  constructor(
    runtime: ToolRuntime,
    target: AppTarget,
    endpoint: MiniAppEndpoint,
    options: MiniAppConnectionOptions = {},
  ) {
    this.#runtime = runtime;
    this.target = target;
    this.#endpoint = endpoint;
    this.#options = options;
  }

  /** Whether the page has reported `app_ready` since it was mounted (or last reloaded). */
  get ready(): boolean {
    return this.#ready;
  }

  /** Handles one message from the app's page; resolves once the runtime has answered it. */
  async receive(data: unknown): Promise<void> {
    if (this.#closed) return;
    let message: MiniAppMessageFromFrame;
    try {
      message = parseMiniAppMessageFromFrame(data, this.target.instanceId);
    } catch (error) {
      if (!(error instanceof LineUpProtocolError)) throw error;
      this.#options.onRejected?.(error);
      await this.#answerRefused(data, error);
      return;
    }
    try {
      await this.#handle(message);
    } catch (error) {
      this.#options.onError?.(error);
    }
  }

  /** Posts a `tool_invocation` for an SDK handler (the host's `RuntimeHost.invoke`). */
  invoke(invocation: MiniAppInvocation): void {
    this.#post({
      type: 'tool_invocation',
      invocation_id: invocation.invocationId,
      app_scope: this.target.appScope,
      method: invocation.method,
      arguments: invocation.arguments as Record<string, never>,
    });
  }

  /** Tells the page the runtime stopped waiting for an invocation: its handler's signal aborts. */
  cancelInvocation(invocationId: string): void {
    this.#post({ type: 'tool_invocation_cancel', invocation_id: invocationId });
  }

  /** Pushes a committed snapshot of the session data, unless a newer one was sent already. */
  pushSessionData(snapshot: SessionDataSnapshot): void {
    if (!this.#ready || snapshot.revision <= this.#sentRevision) return;
    this.#sentRevision = snapshot.revision;
    this.#post({ type: 'session_data', revision: snapshot.revision, data: snapshot.data as never });
  }

  /** A lifecycle notice; `close` also ends this connection (a close never says why). */
  lifecycle(phase: MiniAppLifecyclePhase): void {
    this.#post({ type: 'lifecycle', phase });
    if (phase === 'close') this.#closed = true;
  }

  /** Stops handling messages (the page was removed). */
  close(): void {
    this.#closed = true;
  }

  async #handle(message: MiniAppMessageFromFrame): Promise<void> {
    switch (message.type) {
      case 'app_ready': {
        this.#ready = true;
        // A reloaded page starts empty: it gets the current snapshot again.
        this.#sentRevision = -1;
        await this.#runtime.appReady(this.target);
        const snapshot = await this.#runtime.sessionData(this.target.conversationId, this.target.appScope);
        if (snapshot !== undefined) this.pushSessionData(snapshot);
        this.#options.onReady?.();
        return;
      }
      case 'app_failed':
        this.#ready = false;
        await this.#runtime.appFailed(this.target, message.error.code);
        this.#options.onFailed?.(message.error.code);
        return;
      case 'tool_return':
        await this.#runtime.completeInvocation(
          this.target,
          message.invocation_id,
          message.status === 'ok'
            ? { status: 'ok', result: message.result }
            : {
                status: 'error',
                code: message.error.code,
                ...(message.error.message === undefined ? {} : { message: message.error.message }),
                ...(message.error.issues === undefined ? {} : { issues: message.error.issues }),
              },
        );
        return;
      case 'session_data_write': {
        const answer = await this.#runtime.writeSessionData(
          this.target,
          message.key,
          message.value,
          message.base_revision,
        );
        this.#answer(message.request_id, answer);
        return;
      }
      case 'ui_action':
        this.#answer(
          message.request_id,
          await this.#runtime.uiAction(this.target, message.action, message.arguments),
        );
        return;
    }
  }

  /** Answers a refused message that names a request or an invocation of this instance (nothing else is read). */
  async #answerRefused(data: unknown, error: LineUpProtocolError): Promise<void> {
    const answer = answerRefusedMiniAppMessage(data, this.target.instanceId, error);
    if (answer === undefined) return;
    if (answer.kind === 'request') {
      this.#post(answer.message);
      return;
    }
    try {
      await this.#runtime.completeInvocation(this.target, answer.invocationId, {
        status: 'error',
        code: answer.code,
      });
    } catch (failure) {
      this.#options.onError?.(failure);
    }
  }

  #answer(requestId: string, answer: PageRequestAnswer): void {
    this.#post(
      answer.status === 'ok'
        ? {
            type: 'request_result',
            request_id: requestId,
            status: 'ok',
            ...(answer.revision === undefined ? {} : { revision: answer.revision }),
          }
        : {
            type: 'request_result',
            request_id: requestId,
            status: 'error',
            error: { code: answer.code, message: answer.message },
          },
    );
  }

  /** Validates a message for the page with the channel's own parser, then posts it. */
  #post(message: Record<string, unknown>): void {
    if (this.#closed) return;
    this.#endpoint.post(
      parseMiniAppMessageToFrame(
        { namespace: MINIAPP_NAMESPACE, instance_id: this.target.instanceId, ...message },
        this.target.instanceId,
      ),
    );
  }
}
