/**
 * The `mcp` executor: a call of an MCP server's tool is persisted `running` with the time it was dispatched, and only
 * after that commit does the request leave, so a page that dies meanwhile leaves a record saying the server may have
 * it (`recover` ends it `outcome_unknown`, never sending it again). The server's answer becomes the call's one final
 * result, checked against the tool as it was when the call was dispatched.
 */
import type { AgentToolDescriptor } from '@lineup/shared/protocol';
import {
  checkCallToolResult,
  type McpCallOutcome,
  type McpToolCaller,
  mcpFinalResult,
} from '../mcp/calls.js';
import { issue, type RuntimeDatabase, type ToolCallRecord } from '../storage/database.js';
import type { Clock } from '../time/clock.js';
import type { Descriptors } from './descriptors.js';
import { fail, finish } from './results.js';
import type { McpCallRecord } from './runtime-host.js';
import type { Effect, Step } from './step.js';
import { reread } from './step-reads.js';
import { putCall } from './step-records.js';
import type { StepRunner } from './step-runner.js';

const callKeyOf = (conversationId: string, callId: string) => `${conversationId}\n${callId}`;

export interface McpExecutorParts {
  readonly db: RuntimeDatabase;
  readonly clock: Clock;
  readonly ids: () => string;
  /** Without it, every call of an `mcp` tool ends `execution_failed`. */
  readonly mcp: McpToolCaller | undefined;
  readonly runner: StepRunner;
  /** The registry's descriptors now (a read of its own). */
  readonly descriptors: () => Promise<Descriptors>;
}

export class McpExecutor {
  readonly #parts: McpExecutorParts;
  /** MCP calls in flight in this page, by invocation id: aborted when the runtime stops waiting. */
  readonly #calls = new Map<string, AbortController>();

  constructor(parts: McpExecutorParts) {
    this.#parts = parts;
  }

  /** Stops waiting for the request of one call (it timed out, or was withdrawn). */
  abort(invocationId: string): void {
    this.#calls.get(invocationId)?.abort();
  }

  /**
   * Hands a call to its MCP server: the call is persisted `running` with the time it was dispatched, and only
   * after that commit does the request leave (an effect), so a page that dies meanwhile leaves a record saying the
   * server may have it (`recover` ends it `outcome_unknown`, never sending it again).
   */
  async dispatch(
    step: Step,
    call: ToolCallRecord,
    descriptor: AgentToolDescriptor,
    isCurrent = false,
  ): Promise<void> {
    if (!this.canCall(descriptor, step.descriptors)) {
      await fail(step, call, 'This host cannot call MCP servers.');
      return;
    }
    const current = isCurrent ? call : await reread(step, call);
    const { dispatched, send } = this.dispatched(current, descriptor, step.descriptors);
    // Not awaited: the step's commit confirms it, and the request leaves only after that commit.
    issue(putCall(step.transaction, dispatched));
    step.effects.push(send);
  }

  /**
   * `call` handed to its MCP server: its record, `running` with the time and id of the request, and the effect that
   * makes the request — to run only once the record is committed.
   */
  dispatched(
    call: ToolCallRecord,
    descriptor: AgentToolDescriptor,
    descriptors: Descriptors,
  ): { readonly dispatched: ToolCallRecord; readonly send: Effect } {
    const now = this.#parts.clock.now();
    const invocationId = this.#parts.ids();
    const dispatched: ToolCallRecord = {
      ...call,
      stage: 'running',
      invocationId,
      dispatchedAt: now,
      mcpInFlight: invocationId,
    };
    const request = {
      url: descriptors.servers.get(descriptor.app_scope) as string,
      tool: descriptor.executor.tool as string,
      arguments: call.call.arguments,
      timeoutMs: Math.max(1, (call.dueAt ?? now + descriptor.timeout_ms) - now),
    };
    const send = () => {
      // A step that cannot be written (the page is closing, its database closed) leaves the call running: the next
      // start's recover() ends it outcome_unknown.
      this.#call(dispatched, request, descriptors).catch(() => {});
    };
    return { dispatched, send };
  }

  /** Whether this runtime can call the server of `descriptor`, an MCP server's tool. */
  canCall(descriptor: AgentToolDescriptor, descriptors: Descriptors): boolean {
    return (
      this.#parts.mcp !== undefined &&
      descriptors.servers.get(descriptor.app_scope) !== undefined &&
      descriptor.executor.tool !== undefined
    );
  }

  /**
   * Makes the request of a dispatched call and keeps its one final result (unless the call ended meanwhile: timed
   * out, withdrawn, recovered by another tab). The result is checked against the tool as it was when the call was
   * dispatched (`descriptors`, the registry then): the server ran that call. It is kept without a read
   * (`writeOnlyStep`, asserting that the call still waits for this request).
   */
  async #call(
    dispatched: ToolCallRecord,
    request: { url: string; tool: string; arguments: Readonly<Record<string, unknown>>; timeoutMs: number },
    descriptors: Descriptors,
  ): Promise<void> {
    const invocationId = dispatched.mcpInFlight as string;
    const controller = new AbortController();
    this.#calls.set(invocationId, controller);
    let outcome: McpCallOutcome;
    try {
      outcome = await (this.#parts.mcp as McpToolCaller).call({ ...request, signal: controller.signal });
    } catch (error) {
      outcome = {
        status: 'failed',
        phase: 'call',
        reason: error instanceof Error ? error.message : 'It failed.',
      };
    } finally {
      this.#calls.delete(invocationId);
    }
    const descriptor = descriptors.get(dispatched.call.tool) as AgentToolDescriptor;
    const result = outcome.status === 'ok' || outcome.status === 'tool_error' ? outcome.result : undefined;
    // The server's result is kept on the record that #finish writes (one put).
    const kept: ToolCallRecord =
      result === undefined
        ? dispatched
        : { ...dispatched, mcpResult: result as unknown as Readonly<Record<string, unknown>> };
    // Nothing is kept when the call no longer waits for this request (it ended meanwhile) — or when a write fails,
    // as a step that read first would fail too: the call then ends by its timeout.
    await this.#parts.runner.writeOnlyStep({ descriptors }, async (step) => {
      step.effects.push((host) => host.outboxChanged?.());
      await finish(step, kept, mcpFinalResult(outcome, descriptor.output_schema), true);
    });
  }

  /**
   * An MCP tool call of `conversationId` as a host shows it beside its view: the arguments, the stage, and the
   * server's whole result once it came. Undefined for an unknown call or one of another kind of tool.
   */
  async record(conversationId: string, callId: string): Promise<McpCallRecord | undefined> {
    const record = await this.#parts.db.get('tool_calls', callKeyOf(conversationId, callId));
    if (record === undefined || record.status !== 'accepted' || record.dispatchedAt === undefined) {
      if (record === undefined || record.status !== 'accepted') return undefined;
      const descriptor = (await this.#parts.descriptors()).get(record.call.tool);
      if (descriptor?.executor.kind !== 'mcp') return undefined;
    }
    const result = record.mcpResult === undefined ? undefined : checkCallToolResult(record.mcpResult);
    return {
      conversationId,
      callId,
      tool: record.call.tool,
      arguments: record.call.arguments,
      stage: record.stage ?? 'received',
      ...(result === undefined ? {} : { result }),
      ...(record.stage === 'finished' && record.latest.type === 'lineup.v1.tool.result'
        ? { final: record.latest.payload }
        : {}),
    };
  }

  /** Stops waiting for the MCP calls in flight in this page (a page that closes): they end when it reloads. */
  abortAll(): void {
    for (const controller of this.#calls.values()) controller.abort();
  }
}
