import { LineUpProtocolError, type UIIssue } from '@lineup/shared';
import { parseAgentToolDescriptor } from '@lineup/shared/protocol';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { AgentToolDefinition } from './agent-tool.js';
import { defineAgentTools } from './define.js';
import { agentToolsOf } from './handle.js';

const base = {
  contractVersion: '1.0',
  description: 'Adds a note to this session.',
  input: z.strictObject({ text: z.string().min(1).max(200), pinned: z.boolean().default(false) }),
  output: z.strictObject({ count: z.int().min(0) }),
  callModel: 'command',
  timeoutMs: 5_000,
  activation: 'app_ready',
  risk: 'display_only',
} as const;

function issuesOf(run: () => unknown): UIIssue[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(LineUpProtocolError);
    return [...(error as LineUpProtocolError).issues];
  }
  throw new Error('expected a LineUpProtocolError');
}

const context = { signal: new AbortController().signal };

describe('defineAgentTools', () => {
  it('produces validated descriptors with JSON Schemas generated from zod, and no handler in them', () => {
    const tools = defineAgentTools({
      appScope: 'notes',
      tools: {
        add: { ...base, permissions: ['clipboard.write'], handler: () => ({ count: 1 }) },
        stop: {
          ...base,
          callModel: 'operation',
          activation: 'activation_not_required',
          runtime: 'operation_interrupt',
        },
      },
    });
    expect(tools.appScope).toBe('notes');
    expect(tools.descriptors.map((descriptor) => descriptor.method)).toEqual(['add', 'stop']);
    const [add, stop] = tools.descriptors;
    expect(add).toMatchObject({
      app_scope: 'notes',
      method: 'add',
      contract_version: '1.0',
      idempotency: 'call_id',
      permissions: ['clipboard.write'],
      executor: { kind: 'miniapp_sdk' },
    });
    expect(add!.input_schema).toMatchObject({
      type: 'object',
      required: ['text'],
      additionalProperties: false,
    });
    expect(stop!.executor).toEqual({ kind: 'runtime', builtin: 'operation_interrupt' });
    // What the build writes is exactly what the runtime's parser accepts, and holds no code.
    for (const descriptor of tools.descriptors)
      expect(parseAgentToolDescriptor(JSON.parse(JSON.stringify(descriptor)))).toEqual(descriptor);
    expect(JSON.stringify(tools.descriptors)).not.toMatch(/handler|=>|function/);
    expect(Object.isFrozen(tools) && Object.isFrozen(tools.descriptors)).toBe(true);
  });

  it.each([
    ['an app scope that is not snake_case', { appScope: 'Notes', tools: {} }, 'appScope'],
    [
      'a tool with both a handler and a runtime built-in',
      { appScope: 'notes', tools: { add: { ...base, handler: () => ({}), runtime: 'deadline_operation' } } },
      'tools.add',
    ],
    ['a tool with neither', { appScope: 'notes', tools: { add: { ...base } } }, 'tools.add'],
    [
      'a schema JSON Schema cannot express',
      {
        appScope: 'notes',
        tools: { add: { ...base, input: z.strictObject({ at: z.date() }), handler: () => ({}) } },
      },
      'tools.add.input.at',
    ],
    [
      'an empty description',
      { appScope: 'notes', tools: { add: { ...base, description: '', handler: () => ({}) } } },
      'tools.add.description',
    ],
    [
      'a timeout under a second',
      { appScope: 'notes', tools: { add: { ...base, timeoutMs: 10, handler: () => ({}) } } },
      'tools.add.timeoutMs',
    ],
    [
      'a method that is not a method name',
      { appScope: 'notes', tools: { 'add-note': { ...base, handler: () => ({}) } } },
      'tools.add-note',
    ],
    [
      'an unknown risk',
      { appScope: 'notes', tools: { add: { ...base, risk: 'low', handler: () => ({}) } } },
      'tools.add.risk',
    ],
  ])('refuses %s, at its path', (_, definition, path) => {
    const issues = issuesOf(() => defineAgentTools(definition as never));
    expect(issues.map((issue) => issue.path)).toContain(path);
  });

  it.each([
    [
      'a date',
      { input: z.strictObject({ when: z.date() }) },
      'tools.add.input.when',
      'Date cannot be represented',
    ],
    [
      'a bigint in an array of an optional field',
      { input: z.strictObject({ ids: z.array(z.bigint()).optional() }) },
      'tools.add.input.ids[]',
      'BigInt cannot be represented',
    ],
    [
      'a transform in the output',
      { output: z.strictObject({ count: z.string().transform((text) => text.length) }) },
      'tools.add.output.count',
      'Transforms cannot be represented',
    ],
    [
      'a function in a record',
      { input: z.strictObject({ hooks: z.record(z.string(), z.function()) }) },
      'tools.add.input.hooks{}',
      'Function types cannot be represented',
    ],
    [
      'a whole output schema that is a date',
      { output: z.date() },
      'tools.add.output',
      'Date cannot be represented',
    ],
  ])(
    "names the tool, input or output and the field of %s JSON Schema cannot express, keeping zod's message",
    (_, schemas, path, zodMessage) => {
      const issues = issuesOf(() =>
        defineAgentTools({
          appScope: 'notes',
          tools: { add: { ...base, ...schemas, handler: () => ({ count: 1 }) } } as never,
        }),
      );
      expect(issues).toHaveLength(1);
      expect(issues[0]?.path).toBe(path);
      expect(issues[0]?.message).toContain(zodMessage);
      expect(issues[0]?.message).toMatch(/^The (input|output) schema cannot be expressed as JSON Schema/);
    },
  );

  it('accepts a transform in the input (a sender sends what goes in), and refuses it in the output', () => {
    const length = z.string().transform((text) => text.length);
    const tools = defineAgentTools({
      appScope: 'notes',
      tools: { add: { ...base, input: z.strictObject({ text: length }), handler: () => ({ count: 1 }) } },
    });
    expect(tools.descriptors[0]?.input_schema).toMatchObject({ properties: { text: { type: 'string' } } });
  });

  it('reports every broken tool at once', () => {
    const issues = issuesOf(() =>
      defineAgentTools({
        appScope: 'notes',
        tools: {
          one: { ...base, description: '', handler: () => ({ count: 0 }) },
          two: { ...base, timeoutMs: 1, handler: () => ({ count: 0 }) },
        } as Record<string, AgentToolDefinition>,
      }),
    );
    expect([...new Set(issues.map((issue) => issue.path))]).toEqual([
      'tools.one.description',
      'tools.two.timeoutMs',
    ]);
  });

  // A newcomer's first mistakes (issue: "A MiniApp author's first ten minutes"): each names the tool and the field,
  // and says what to write.
  it.each([
    [
      'input left out',
      { input: undefined },
      'tools.add.input',
      'missing_property',
      /^Required: .*z\.object\(/,
    ],
    [
      'output left out',
      { output: undefined },
      'tools.add.output',
      'missing_property',
      /^Required: .*z\.object\(/,
    ],
    [
      'a plain object as input',
      { input: { text: z.string() } },
      'tools.add.input',
      'invalid_type',
      /^A plain object is not a schema: wrap its fields in z\.object/,
    ],
    [
      'risk left out',
      { risk: undefined },
      'tools.add.risk',
      'missing_property',
      /'display_only'.*'restricted'/,
    ],
    ['callModel left out', { callModel: undefined }, 'tools.add.callModel', 'missing_property', /'query'/],
    [
      'timeoutMs left out',
      { timeoutMs: undefined },
      'tools.add.timeoutMs',
      'missing_property',
      /milliseconds/,
    ],
  ])('names the field of %s and what to write', (_, change, path, code, message) => {
    const issues = issuesOf(() =>
      defineAgentTools({
        appScope: 'notes',
        tools: { add: { ...base, ...change, handler: () => ({ count: 1 }) } } as never,
      }),
    );
    expect(issues).toEqual([{ path, code, message: expect.stringMatching(message) }]);
  });

  it('lists a bad key and a bad app scope together, the key in words', () => {
    const issues = issuesOf(() =>
      defineAgentTools({
        appScope: 'Notes App',
        tools: {
          'Add-Note': { ...base, handler: () => ({ count: 1 }) },
          fine: { ...base, handler: () => ({ count: 1 }) },
          bad: { ...base, risk: undefined, handler: () => ({ count: 1 }) },
        } as never,
      }),
    );
    expect(issues.map((issue) => [issue.path, issue.code])).toEqual([
      ['appScope', 'invalid_value'],
      ['tools.Add-Note', 'invalid_identifier'],
      ['tools.bad.risk', 'missing_property'],
    ]);
    expect(issues[1]?.message).toMatch(/method name: a lowercase letter, then letters, digits and _/);
  });
});

describe('AgentTools.handle', () => {
  const handler = vi.fn((input: { text: string; pinned: boolean }) => ({ count: input.text.length }));
  const tools = defineAgentTools({
    appScope: 'notes',
    tools: {
      add: { ...base, handler },
      broken: { ...base, handler: () => ({ count: -1 }) },
      throws: {
        ...base,
        handler: () => {
          throw new Error('disk full');
        },
      },
      stop: { ...base, runtime: 'operation_interrupt' },
    },
  });

  it('validates the arguments, runs the handler with its context and validates the result', async () => {
    await expect(tools.handle('add', { text: 'hello' }, context)).resolves.toEqual({
      status: 'ok',
      result: { count: 5 },
    });
    expect(handler).toHaveBeenCalledWith(
      { text: 'hello', pinned: false },
      expect.objectContaining({ appScope: 'notes', method: 'add', signal: context.signal }),
    );
  });

  it.each([
    ['an unknown method', 'nope', {}, 'unknown_method'],
    ['a runtime tool (no code of the app runs for it)', 'stop', {}, 'unknown_method'],
    ['an inherited name', 'toString', {}, 'unknown_method'],
    ['arguments the schema refuses', 'add', { text: '' }, 'invalid_arguments'],
    ['extra arguments', 'add', { text: 'a', extra: 1 }, 'invalid_arguments'],
    ['a handler that throws', 'throws', { text: 'a' }, 'handler_failed'],
    ['a result the output schema refuses', 'broken', { text: 'a' }, 'invalid_output'],
  ])('answers %s with a stable error code, never throwing', async (_, method, input, code) => {
    const outcome = await tools.handle(method, input, context);
    expect(outcome).toMatchObject({ status: 'error', code });
  });

  it('names the first refused fields of the arguments and of the result, never their values', async () => {
    const refused = await tools.handle('add', { text: 42, secret: 'hunter2' }, context);
    expect(refused).toEqual({
      status: 'error',
      code: 'invalid_arguments',
      // Every place, with what the published schema wants there (the runtime says the same to the agent).
      message:
        'The arguments do not match the input schema: text: invalid_type (expected string); secret: unknown_property (not in the schema, which has: text, pinned).',
      // What the runtime hands to the agent: where, and a stable code; a key the schema lacks is named.
      issues: [
        { path: 'text', code: 'invalid_type' },
        { path: 'secret', code: 'unknown_property' },
      ],
    });
    expect(JSON.stringify(refused)).not.toMatch(/42|hunter2/);
    await expect(tools.handle('add', {}, context)).resolves.toMatchObject({
      message: 'The arguments do not match the input schema: text: missing_property (expected string).',
      // Left out: missing, not of a wrong type.
      issues: [{ path: 'text', code: 'missing_property' }],
    });
    await expect(tools.handle('broken', { text: 'a' }, context)).resolves.toEqual({
      status: 'error',
      code: 'invalid_output',
      message:
        'The handler returned a result the output schema refuses: count: number_out_of_range (at least 0).',
      issues: [{ path: 'count', code: 'number_out_of_range' }],
    });
  });

  it('in a built page (no describer) names the same places by path and code only, and the same issues', async () => {
    const page = agentToolsOf(tools.appScope, tools.descriptors, {
      broken: { ...base, input: z.strictObject({ text: z.string() }), handler: () => ({ total: 1 }) },
    } as Record<string, AgentToolDefinition>);
    await expect(page.handle('broken', { text: 'a' }, context)).resolves.toEqual({
      status: 'error',
      code: 'invalid_output',
      message:
        'The handler returned a result the output schema refuses: count: missing_property; total: unknown_property.',
      issues: [
        { path: 'count', code: 'missing_property' },
        { path: 'total', code: 'unknown_property' },
      ],
    });
  });

  it('names three places and counts the rest, in a test as in a built page', async () => {
    const many = {
      ...base,
      input: z.strictObject({ text: z.string() }),
      handler: () => ({ a: 1, b: 2, c: 3, d: 4 }),
    };
    for (const handle of [
      defineAgentTools({ appScope: 'notes', tools: { many } }),
      agentToolsOf('notes', tools.descriptors, { many } as Record<string, AgentToolDefinition>),
    ]) {
      const outcome = await handle.handle('many', { text: 'a' }, context);
      expect(outcome).toMatchObject({
        code: 'invalid_output',
        message: expect.stringMatching(
          /^The handler returned a result the output schema refuses: count: missing_property.*; a: unknown_property.*; b: unknown_property.* \(and 2 more\)\.$/,
        ),
      });
      expect(outcome.status === 'error' ? outcome.issues : []).toHaveLength(3);
    }
  });

  it('carries at most three issues, with indexes, and a key that is not a name as [*]', async () => {
    const nested = defineAgentTools({
      appScope: 'lists',
      tools: {
        put: {
          ...base,
          input: z.strictObject({
            items: z.array(z.strictObject({ text: z.string().max(3) })),
            tags: z.record(z.string(), z.int()),
            extra: z.string(),
            more: z.string(),
          }),
          handler: () => ({ count: 0 }),
        },
      },
    });
    const outcome = await nested.handle(
      'put',
      { items: [{ text: 'ok' }, { text: 'too long' }], tags: { 'my secret tag': 'x' } },
      context,
    );
    expect(outcome).toMatchObject({
      code: 'invalid_arguments',
      issues: [
        { path: 'items[1].text', code: 'string_too_long' },
        { path: 'tags[*]', code: 'invalid_type' },
        { path: 'extra', code: 'missing_property' },
      ],
    });
    expect(JSON.stringify((outcome as { issues: unknown }).issues)).not.toMatch(/secret|too long/);
  });

  it("passes a handler's message on, bounded", async () => {
    await expect(tools.handle('throws', { text: 'a' }, context)).resolves.toEqual({
      status: 'error',
      code: 'handler_failed',
      message: 'disk full',
    });
  });
});
