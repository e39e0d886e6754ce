import { jsonSchemaFromZod } from '@lineup/shared';
import { DeadlineOperationResultSchema, OperationInterruptResultSchema } from '@lineup/shared/protocol';

/** A Pomodoro-like manifest for the runtime's tests: two runtime tools, overridable per test. */
export function pomodoroTool(method: string, overrides: object = {}) {
  return {
    app_scope: 'pomodoro',
    method,
    contract_version: '1.0',
    description: `The ${method} tool.`,
    input_schema: { type: 'object', properties: {}, additionalProperties: false },
    output_schema: { type: 'object' },
    call_model: 'command',
    idempotency: 'call_id',
    timeout_ms: 10_000,
    activation: 'activation_not_required',
    risk: 'display_only',
    permissions: [],
    executor: { kind: 'runtime', builtin: 'operation_interrupt' },
    ...overrides,
  };
}

export function pomodoroManifest(overrides: object = {}) {
  return {
    manifest_version: 1,
    id: 'com.lineup.pomodoro',
    name: 'Pomodoro',
    version: '1.0.0',
    app_scope: 'pomodoro',
    entry: 'index.html',
    surfaces: [],
    permissions: [],
    tools: [pomodoroTool('start'), pomodoroTool('interrupt')],
    ...overrides,
  };
}

/**
 * A focus app shaped like Pomodoro: `focus.start` runs the `deadline_operation` built-in once the app is in the
 * foreground, `focus.interrupt` the `operation_interrupt` built-in, and `focus.peek` (an SDK handler needing
 * the app ready) waits for a starting activation. Output schemas are the built-ins' own.
 */
export function focusManifest(overrides: { readonly tools?: readonly object[] } = {}) {
  const tool = (method: string, fields: object) => ({
    app_scope: 'focus',
    method,
    contract_version: '1.0',
    description: `The ${method} tool.`,
    idempotency: 'call_id',
    risk: 'display_only',
    permissions: [],
    ...fields,
  });
  return {
    manifest_version: 1,
    id: 'com.example.focus',
    name: 'Focus',
    version: '1.0.0',
    app_scope: 'focus',
    entry: 'index.html',
    surfaces: [],
    permissions: [],
    tools: overrides.tools ?? [
      tool('start', {
        input_schema: {
          type: 'object',
          properties: { minutes: { type: 'integer', minimum: 1, maximum: 180 }, label: { type: 'string' } },
          required: ['minutes'],
          additionalProperties: false,
        },
        output_schema: jsonSchemaFromZod(DeadlineOperationResultSchema),
        call_model: 'operation',
        timeout_ms: 185 * 60_000,
        activation: 'foreground_required',
        executor: { kind: 'runtime', builtin: 'deadline_operation' },
      }),
      tool('interrupt', {
        input_schema: { type: 'object', properties: {}, additionalProperties: false },
        output_schema: jsonSchemaFromZod(OperationInterruptResultSchema),
        call_model: 'command',
        timeout_ms: 10_000,
        activation: 'activation_not_required',
        executor: { kind: 'runtime', builtin: 'operation_interrupt' },
      }),
      tool('peek', {
        input_schema: { type: 'object', properties: {}, additionalProperties: false },
        output_schema: { type: 'object' },
        call_model: 'query',
        timeout_ms: 10_000,
        activation: 'app_ready',
        executor: { kind: 'miniapp_sdk' },
      }),
    ],
  };
}
