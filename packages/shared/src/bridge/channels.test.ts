/**
 * The two iframe channels never carry each other's messages (DESIGN.md "A Surface never gets this channel";
 * seed 000 §4.2 "Surface 不拥有 app.call bridge"): every valid message of one channel, in either direction, is
 * rejected by every parser of the other on its `namespace`.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LineUpProtocolError } from '../errors/errors.js';
import * as miniapp from './miniapp.js';
import { MINIAPP_NAMESPACE, parseMiniAppMessageFromFrame, parseMiniAppMessageToFrame } from './miniapp.js';
import * as surface from './surface.js';
import { parseSurfaceMessageFromFrame, parseSurfaceMessageToFrame, SURFACE_NAMESPACE } from './surface.js';

const INSTANCE = 'shared.instance.01';

const SURFACE_MESSAGES = [
  { namespace: SURFACE_NAMESPACE, type: 'ready' },
  { namespace: SURFACE_NAMESPACE, type: 'event', instance_id: INSTANCE, event: 'refresh', data: {} },
  { namespace: SURFACE_NAMESPACE, type: 'resize', instance_id: INSTANCE, height: 100 },
  { namespace: SURFACE_NAMESPACE, type: 'violation', instance_id: INSTANCE, kind: 'navigation' },
  { namespace: SURFACE_NAMESPACE, type: 'start', instance_id: INSTANCE, html: '', css: '', js: '' },
  { namespace: SURFACE_NAMESPACE, type: 'state', instance_id: INSTANCE, state: {} },
  { namespace: SURFACE_NAMESPACE, type: 'focus', instance_id: INSTANCE },
];

const MINIAPP_MESSAGES = [
  {
    namespace: MINIAPP_NAMESPACE,
    type: 'tool_invocation',
    instance_id: INSTANCE,
    invocation_id: 'i1',
    app_scope: 'pomodoro',
    method: 'start',
    arguments: {},
  },
  { namespace: MINIAPP_NAMESPACE, type: 'session_data', instance_id: INSTANCE, revision: 0, data: {} },
  { namespace: MINIAPP_NAMESPACE, type: 'lifecycle', instance_id: INSTANCE, phase: 'close' },
  {
    namespace: MINIAPP_NAMESPACE,
    type: 'request_result',
    instance_id: INSTANCE,
    request_id: 'r1',
    status: 'ok',
  },
  { namespace: MINIAPP_NAMESPACE, type: 'app_ready', instance_id: INSTANCE },
  { namespace: MINIAPP_NAMESPACE, type: 'app_failed', instance_id: INSTANCE, error: { code: 'x' } },
  {
    namespace: MINIAPP_NAMESPACE,
    type: 'tool_return',
    instance_id: INSTANCE,
    invocation_id: 'i1',
    status: 'ok',
    result: {},
  },
  {
    namespace: MINIAPP_NAMESPACE,
    type: 'session_data_write',
    instance_id: INSTANCE,
    request_id: 'r1',
    key: 'k',
    value: 1,
  },
  {
    namespace: MINIAPP_NAMESPACE,
    type: 'ui_action',
    instance_id: INSTANCE,
    request_id: 'r2',
    action: 'focus.start',
    arguments: {},
  },
];

const SURFACE_PARSERS = {
  parseSurfaceMessageFromFrame: (input: unknown) => parseSurfaceMessageFromFrame(input, INSTANCE),
  parseSurfaceMessageToFrame: (input: unknown) => parseSurfaceMessageToFrame(input, INSTANCE),
};
const MINIAPP_PARSERS = {
  parseMiniAppMessageFromFrame: (input: unknown) => parseMiniAppMessageFromFrame(input, INSTANCE),
  parseMiniAppMessageToFrame: (input: unknown) => parseMiniAppMessageToFrame(input, INSTANCE),
};

function expectNamespaceRejection(parse: (input: unknown) => unknown, message: unknown): void {
  try {
    parse(message);
  } catch (error) {
    expect(error).toBeInstanceOf(LineUpProtocolError);
    expect((error as LineUpProtocolError).issues).toEqual([
      expect.objectContaining({ code: 'invalid_value', path: 'namespace' }),
    ]);
    return;
  }
  throw new Error('a message of the other channel was accepted');
}

describe('channel separation', () => {
  it('each channel accepts its own messages in their direction', () => {
    const accepted = (parsers: Record<string, (input: unknown) => unknown>, message: unknown) =>
      Object.values(parsers).filter((parse) => {
        try {
          parse(message);
          return true;
        } catch {
          return false;
        }
      }).length;
    for (const message of SURFACE_MESSAGES) expect(accepted(SURFACE_PARSERS, message)).toBe(1);
    for (const message of MINIAPP_MESSAGES) expect(accepted(MINIAPP_PARSERS, message)).toBe(1);
  });

  for (const [name, parse] of Object.entries(SURFACE_PARSERS)) {
    it.each(MINIAPP_MESSAGES.map((message) => [message.type, message] as const))(
      `${name} rejects the MiniApp message %s`,
      (_type, message) => expectNamespaceRejection(parse, message),
    );
  }

  for (const [name, parse] of Object.entries(MINIAPP_PARSERS)) {
    it.each(SURFACE_MESSAGES.map((message) => [message.type, message] as const))(
      `${name} rejects the Surface message %s`,
      (_type, message) => expectNamespaceRejection(parse, message),
    );
  }

  it('a MiniApp message relabelled as a Surface message is still not a Surface message', () => {
    for (const message of MINIAPP_MESSAGES) {
      for (const parse of Object.values(SURFACE_PARSERS)) {
        expect(() => parse({ ...message, namespace: SURFACE_NAMESPACE })).toThrow(LineUpProtocolError);
      }
    }
  });
});

describe('JSON Schema', () => {
  const schemas = Object.entries({ ...surface, ...miniapp }).filter(([name]) => name.endsWith('Schema'));

  it.each(schemas)('%s converts to a closed JSON Schema', (_name, schema) => {
    const document = JSON.stringify(z.toJSONSchema(schema as z.ZodType));
    if (document.includes('"properties"')) expect(document).toContain('"additionalProperties":false');
  });
});
