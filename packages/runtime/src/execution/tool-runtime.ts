/**
 * The runtime's entry points: the short list of what a host calls. Each delegates to the module of its step
 * (the pipeline's steps 1–8 are laid out one module each; the runtime README's "How the pipeline is laid out"
 * lists them): receiving a call (the intake, then the consent step, its scope, routing and executor), the app
 * page's requests (`page-requests.ts`), a view's calls (`mcp-view-calls.ts`), the lifecycle (`activations.ts`:
 * foreground, host intents) and recovery (`recovery.ts`: recover, withdraw, settle).
 *
 * Every step is one IndexedDB transaction over the execution stores that writes the facts and the outbox rows
 * they produce together, awaiting nothing but the transaction; the host is told (foreground, close, session
 * data) only after the commit. Deadlines are stored as absolute times: `settle()` ends whatever fell due —
 * called by the wake-up timer, and at start-up for what fell due while the page was closed — so a reload
 * neither loses nor repeats a step.
 *
 * Targets come from the conversation: the instance of a call is the conversation's instance of the tool's app
 * scope; no message names an instance, session or operation (seed 003 §2.3).
 */

import type { ToolCallPayload } from '@lineup/shared/protocol';
import type { AppRegistry } from '../apps/registry.js';
import { ConsentSteps } from '../consent/consent-steps.js';
import { ToolConsentStep } from '../consent/tool-consent.js';
import type { McpToolCaller } from '../mcp/calls.js';
import { EXECUTION_STORES, type ExecutionTransaction, type RuntimeDatabase } from '../storage/database.js';
import type { Clock } from '../time/clock.js';
import { type ToolCallAnswer, type ToolCallDisposition, ToolCallIntake } from '../tools/intake.js';
import { type ActivationParts, onForeground } from './activations.js';
import type { Descriptors } from './descriptors.js';
import { type ExecutorParts, execute } from './executors.js';
import { hostIntent } from './host-intents.js';
import { McpExecutor } from './mcp-executor.js';
import { mcpViewCall, type ViewCallParts } from './mcp-view-calls.js';
import type { OperationParts } from './operation-executor.js';
import {
  appFailed,
  appReady,
  completeInvocation,
  openApps,
  type PageParts,
  sessionData,
  uiAction,
  writeSessionData,
} from './page-requests.js';
import { CallReceiving } from './receiving.js';
import { nextDueAt, type RecoveryParts, recover, settle, withdraw } from './recovery.js';
import { finish } from './results.js';
import { type RoutingParts, routeIn } from './routing.js';
import type {
  AppTarget,
  HostIntent,
  InvocationOutcome,
  McpCallRecord,
  McpViewCallAnswer,
  PageRequestAnswer,
  RuntimeHost,
  SessionDataSnapshot,
  ToolRuntimeOptions,
  UIActionHandler,
} from './runtime-host.js';
import { instanceKeyOf } from './scope.js';
import type { Step } from './step.js';
import { StepRunner } from './step-runner.js';

// The host seam and the entry points' shapes are part of this module's API (index.ts and the hosts import them here).
export * from './runtime-host.js';

const NO_HOST: RuntimeHost = { requestForeground() {}, closeApp() {}, sessionDataChanged() {} };

export class ToolRuntime {
  readonly #db: RuntimeDatabase;
  readonly #intake: ToolCallIntake;
  readonly #clock: Clock;
  readonly #ids: () => string;
  readonly #host: RuntimeHost;
  readonly #foregroundTimeoutMs: number;
  readonly #uiActions: Readonly<Record<string, UIActionHandler>>;
  readonly #mcp: McpToolCaller | undefined;
  /** Receiving a call: the intake and, for a call it accepts, routing (`receiving.ts`). */
  readonly #receiving: CallReceiving;
  /** The `mcp` executor: hands calls to their MCP servers and keeps their one final result. */
  readonly #mcpExecutor: McpExecutor;
  /** The consent step between the intake and routing: its rules, and its place in the pipeline. */
  readonly #consent: ToolConsentStep;
  readonly #steps: ConsentSteps;
  /** Runs each step in its transaction, and what it tells the host after the commit. */
  readonly #runner: StepRunner;
  /** What the `deadline_operation` built-in needs: the facts, and new operation ids. */
  readonly #operationParts: OperationParts;
  /** What the app's lifecycle needs: the facts, ids, the foreground timeout, and how a ready call runs. */
  readonly #activationParts: ActivationParts;
  /** What the executors need: the host, the lifecycle, the built-ins and the `mcp` executor. */
  readonly #executorParts: ExecutorParts;
  /** What routing needs: the executors, and the consent step. */
  readonly #routingParts: RoutingParts;
  /** What recovery and deadlines need: the database, the steps, the executors, asking again, routing. */
  readonly #recoveryParts: RecoveryParts;
  /** What a view's `tools/call` needs: the database, the clock, the MCP caller and the consent step. */
  readonly #viewCallParts: ViewCallParts;
  /** What the app's page's requests need: the database, the steps, the lifecycle and the UI actions. */
  readonly #pageParts: PageParts;

  constructor(db: RuntimeDatabase, registry: AppRegistry, options: ToolRuntimeOptions = {}) {
    this.#db = db;
    this.#clock = options.clock ?? Date;
    this.#intake = new ToolCallIntake(db, registry, { clock: this.#clock });
    this.#ids = options.ids ?? (() => crypto.randomUUID());
    this.#host = options.host ?? NO_HOST;
    this.#runner = new StepRunner({
      db,
      host: this.#host,
      clock: this.#clock,
      closeQuestion: (key) => this.#consent.close(key),
    });
    this.#operationParts = { ids: this.#ids };
    this.#foregroundTimeoutMs = options.foregroundTimeoutMs ?? 60_000;
    this.#activationParts = {
      ids: this.#ids,
      foregroundTimeoutMs: this.#foregroundTimeoutMs,
      execute: (step, call, descriptor) => execute(this.#executorParts, step, call, descriptor),
    };
    this.#uiActions = options.uiActions ?? {};
    this.#mcp = options.mcp;
    this.#mcpExecutor = new McpExecutor({
      db,
      clock: this.#clock,
      ids: this.#ids,
      mcp: this.#mcp,
      runner: this.#runner,
      descriptors: () => this.#descriptors(),
    });
    this.#executorParts = {
      ids: this.#ids,
      host: this.#host,
      activations: this.#activationParts,
      operations: this.#operationParts,
      mcp: this.#mcpExecutor,
    };
    this.#routingParts = {
      executors: this.#executorParts,
      consent: { gateIn: (...args) => this.#steps.gateIn(...args) },
    };
    this.#recoveryParts = {
      db,
      runner: this.#runner,
      executors: this.#executorParts,
      ask: (callKey) => this.#steps.ask(callKey),
      route: (conversationId, call) => this.#route(conversationId, call),
    };
    this.#viewCallParts = {
      db,
      clock: this.#clock,
      mcp: this.#mcp,
      consent: { viewCall: (request) => this.#steps.viewCall(request) },
    };
    this.#pageParts = {
      db,
      runner: this.#runner,
      activations: this.#activationParts,
      uiActions: this.#uiActions,
    };
    this.#consent = new ToolConsentStep({
      rules: registry.toolPolicy,
      clock: this.#clock,
      ...(options.confirmTool === undefined ? {} : { confirm: options.confirmTool }),
    });
    this.#steps = new ConsentSteps(this.#consent, {
      db,
      now: () => this.#clock.now(),
      ids: this.#ids,
      step: (body, stores) => this.#runner.step((step) => body(step), undefined, stores),
      // The consent step hands back the runtime's own step (`ConsentStepContext` is a view of it).
      route: (step, record) =>
        routeIn(this.#routingParts, step as Step, record.conversationId, record.call, record),
      end: (step, record, error) =>
        finish(step as Step, record, {
          outcome: 'error',
          error: { code: error.code, message: error.message },
        }),
      descriptors: () => this.#descriptors(),
      withdraw: () => this.withdraw(),
    });
    this.#receiving = new CallReceiving({
      runner: this.#runner,
      intake: this.#intake,
      routing: this.#routingParts,
      mcp: this.#mcpExecutor,
      consent: this.#consent,
      steps: this.#steps,
    });
  }

  /**
   * Receives one `tool.call` of `conversationId` (steps 1–3: `envelope-check.ts`, `tool-check.ts`, the intake)
   * and, for a newly accepted call, routes it (the consent step, then steps 4–8): `receiving.ts`. Returns the
   * intake's answer; later progress and the final result go through the outbox.
   */
  async receive(
    conversationId: string,
    call: ToolCallPayload,
  ): Promise<{ readonly answer: ToolCallAnswer; readonly disposition: ToolCallDisposition }> {
    return this.#receiving.receive(conversationId, call);
  }

  /**
   * Whether a call with `callId` is recorded in `conversationId`: the `AgentClient` answers an invalid call message
   * under a recorded `call_id` with `call_id_conflict` rather than `invalid_message`.
   */
  callRecorded(conversationId: string, callId: string): Promise<boolean> {
    return this.#intake.callRecorded(conversationId, callId);
  }

  /** The host shows the conversation's instance of `appScope` to the user: a starting activation is ready. */
  async confirmForeground(conversationId: string, appScope: string): Promise<boolean> {
    return this.#runner.step((step) =>
      onForeground(this.#activationParts, step, instanceKeyOf(conversationId, appScope)),
    );
  }

  /** A host lifecycle intent for the conversation's instance of `appScope`; audited as one (`host-intents.ts`). */
  async hostIntent(conversationId: string, appScope: string, intent: HostIntent): Promise<void> {
    await hostIntent(this.#runner, conversationId, appScope, intent);
  }

  /**
   * What a host calls when it opens the runtime (a page load, after a crash): routes the calls accepted but
   * not routed before the page closed, then settles what fell due meanwhile. Calling it again changes nothing.
   */
  async recover(): Promise<void> {
    return recover(this.#recoveryParts);
  }

  /**
   * Ends what belongs to apps that are no longer enabled — disabled, uninstalled, or a tool an upgrade or a
   * rollback dropped (seed 000 §5.1: a revoked reference gets a definite answer, never a fallback): every
   * unfinished call of a tool no longer in the inventory ends `revoked`; a starting activation of such an app
   * is cancelled and its running operation interrupted; its open instances close (the host hears `closeApp`).
   * A host calls it after every registry change that withdraws something; `recover` calls it too. Calling it
   * again changes nothing. Returns how many calls it ended.
   */
  async withdraw(): Promise<number> {
    return withdraw(this.#recoveryParts);
  }

  /**
   * Ends everything that fell due by now: operations at their deadline (`completed`), activations that never
   * got the foreground (`not_started`), calls past their timeout (`timeout`). Call it at start-up and when
   * the wake-up timer fires; calling it again changes nothing.
   */
  async settle(): Promise<number> {
    return settle(this.#recoveryParts);
  }

  /** When the next thing falls due (Unix ms), for the wake-up timer; `undefined` when nothing waits. */
  async nextDueAt(): Promise<number | undefined> {
    return nextDueAt(this.#recoveryParts);
  }

  /** The session data of the conversation's instance of `appScope`, if it has one. */
  async sessionData(conversationId: string, appScope: string): Promise<SessionDataSnapshot | undefined> {
    return sessionData(this.#pageParts, conversationId, appScope);
  }

  /** Open instances, with whether the host showed each in the foreground: what a host restores after a reload. */
  async openApps(): Promise<readonly { readonly target: AppTarget; readonly foreground: boolean }[]> {
    return openApps(this.#pageParts);
  }

  /**
   * The app's page reported `app_ready`: an `app_ready` activation of its instance is ready, and its calls
   * run in arrival order. A page of an ended instance changes nothing (returns false).
   */
  async appReady(target: AppTarget): Promise<boolean> {
    return appReady(this.#pageParts, target);
  }

  /**
   * The app's page reported `app_failed`: a starting activation fails (its calls get
   * `app_activation_failed`), and its running handlers end `execution_failed`.
   */
  async appFailed(target: AppTarget, code: string): Promise<boolean> {
    return appFailed(this.#pageParts, target, code);
  }

  /**
   * A handler's return from the app's page (steps 6–8): a result is checked against the tool's output
   * schema (`invalid_output` otherwise), an error becomes `execution_failed` naming the page's stable code
   * (never its free-text message, which the agent would otherwise read). A return
   * for an invocation that already ended (timed out, or unknown) changes nothing and returns false.
   */
  async completeInvocation(
    target: AppTarget,
    invocationId: string,
    outcome: InvocationOutcome,
  ): Promise<boolean> {
    return completeInvocation(this.#pageParts, target, invocationId, outcome);
  }

  /**
   * Writes one key of the app session's data for the app's page (seed 003 §5): with `baseRevision`, only at
   * that revision. The runtime never interprets the data; it commits, audits, and pushes the new snapshot.
   */
  async writeSessionData(
    target: AppTarget,
    key: string,
    value: unknown,
    baseRevision?: number,
  ): Promise<PageRequestAnswer> {
    return writeSessionData(this.#pageParts, target, key, value, baseRevision);
  }

  /**
   * A view's `tools/call` (seed 003 §3 entry point 2, a local UI action — never an agent tool call): the view of
   * installed MCP server `appId`, shown in `conversationId`, calls `tool` of that same server. Refused unless the
   * server is installed and enabled, the tool is one of its tools a view may call (not one shown to the model
   * only), and the arguments match the tool's input schema; nothing is sent then. Every call is audited as
   * `ui_action` with its outcome. It gets no call id, no receipt and no outbox row: the view gets the server's
   * result, and the agent hears nothing of it.
   */
  async mcpViewCall(request: {
    readonly conversationId: string;
    readonly appId: string;
    readonly tool: string;
    readonly arguments: unknown;
    readonly signal?: AbortSignal;
  }): Promise<McpViewCallAnswer> {
    return mcpViewCall(this.#viewCallParts, request);
  }

  /**
   * A local UI action from the app's page (seed 003 §3): runs the handler the host declared for
   * `<app_scope>.<action>` with the page's own instance, and audits it as `ui_action` with its outcome.
   */
  async uiAction(
    target: AppTarget,
    action: string,
    args: Readonly<Record<string, string | number | boolean | null>>,
  ): Promise<PageRequestAnswer> {
    return uiAction(this.#pageParts, target, action, args);
  }

  // ── Routing (the consent step, then steps 4–5) ────────────────────────────────────────────────────────

  #route(conversationId: string, call: ToolCallPayload): Promise<boolean> {
    return this.#runner.step((step) => routeIn(this.#routingParts, step, conversationId, call));
  }

  /**
   * An MCP tool call of `conversationId` as a host shows it beside its view: the arguments, the stage, and the
   * server's whole result once it came. Undefined for an unknown call or one of another kind of tool.
   */
  mcpCall(conversationId: string, callId: string): Promise<McpCallRecord | undefined> {
    return this.#mcpExecutor.record(conversationId, callId);
  }

  /** Stops waiting for the MCP calls in flight in this page (a page that closes): they end when it reloads. */
  abortMcpCalls(): void {
    this.#mcpExecutor.abortAll();
  }

  async #descriptors(): Promise<Descriptors> {
    const transaction = this.#db.transaction(EXECUTION_STORES, 'readonly');
    const { descriptors } = await this.#runner.registry.readIn(
      transaction as unknown as ExecutionTransaction,
    );
    await transaction.done;
    return descriptors;
  }
}
