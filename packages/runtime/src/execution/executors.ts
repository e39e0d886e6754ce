/**
 * The end of step 5: a call whose app is ready goes to its tool's executor, each a module of its own — the
 * `miniapp_sdk` handler in the app's page (`handler-executor.ts`), an MCP server's tool (`mcp-executor.ts`), or a
 * runtime built-in (`operation-executor.ts`: `deadline_operation`, and `operation_interrupt`, which stops what the app
 * is doing).
 */
import type { AgentToolDescriptor } from '@lineup/shared/protocol';
import type { ToolCallRecord } from '../storage/database.js';
import type { ActivationParts } from './activations.js';
import { invoke } from './handler-executor.js';
import type { McpExecutor } from './mcp-executor.js';
import { interrupt, type OperationParts, startOperation } from './operation-executor.js';
import type { RuntimeHost } from './runtime-host.js';
import type { Step } from './step.js';

export interface ExecutorParts {
  readonly ids: () => string;
  readonly host: RuntimeHost;
  readonly activations: ActivationParts;
  readonly operations: OperationParts;
  readonly mcp: McpExecutor;
}

export async function execute(
  parts: ExecutorParts,
  step: Step,
  call: ToolCallRecord,
  descriptor: AgentToolDescriptor,
  /** `call` is the record as this transaction last wrote it (no need to read it again). */
  isCurrent = false,
): Promise<void> {
  const executor = descriptor.executor;
  if (executor.kind === 'mcp') {
    await parts.mcp.dispatch(step, call, descriptor, isCurrent);
    return;
  }
  if (executor.kind !== 'runtime') {
    await invoke(parts, step, call, descriptor, isCurrent);
    return;
  }
  if (executor.builtin === 'deadline_operation')
    await startOperation(parts.operations, step, call, descriptor);
  else await interrupt(step, call, descriptor);
}
