/**
 * Pomodoro's manifest as `apps/pomodoro` builds it (`src/tools.ts`, through @lineup/miniapp-sdk/vite): its two
 * Agent Tools, with the input schema the runtime checks the agent's arguments against and the built-ins'
 * output schemas. Copied, not imported, so this package never depends on an app.
 */
import { jsonSchemaFromZod } from '@lineup/shared';
import {
  DeadlineOperationResultSchema,
  OperationInterruptResultSchema,
  parseAgentToolDescriptor,
  toAgentToolInventoryEntry,
} from '@lineup/shared/protocol';

const tool = (method: string, fields: object) => ({
  app_scope: 'pomodoro',
  method,
  contract_version: '1.0',
  description: `Pomodoro's ${method} tool.`,
  idempotency: 'call_id',
  risk: 'display_only',
  permissions: [],
  ...fields,
});

export const POMODORO_MANIFEST = {
  manifest_version: 1,
  id: 'com.lineup.pomodoro',
  name: 'Pomodoro',
  version: '0.0.0',
  app_scope: 'pomodoro',
  entry: 'index.html',
  surfaces: [],
  permissions: [],
  tools: [
    tool('start', {
      input_schema: {
        type: 'object',
        properties: {
          minutes: { type: 'integer', minimum: 1, maximum: 180 },
          label: { type: 'string', minLength: 1, maxLength: 64 },
        },
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
  ],
};

/** The inventory entries of Pomodoro's tools, as a client lists them. */
export const POMODORO_INVENTORY_TOOLS = POMODORO_MANIFEST.tools.map((descriptor) =>
  toAgentToolInventoryEntry(parseAgentToolDescriptor(descriptor)),
);
