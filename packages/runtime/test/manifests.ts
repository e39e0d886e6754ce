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
