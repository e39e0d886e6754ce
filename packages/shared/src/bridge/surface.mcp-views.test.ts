/**
 * `lineup.surface.v1` (seed 000 §2.4, §4.1–§4.3) carrying MCP App views and MiniApp pages: a view's or a page's
 * start and its bounds, `parseSurfaceMcpMessage`, `parseSurfacePageMessage`, a view's storage and its Escape
 * key, each read by its own parser only; asserting the issue's code and path.
 */
import { describe, expect, it } from 'vitest';
import { INSTANCE, type J, start, WRONG_TYPE } from '../../test/surface.js';
import { LineUpProtocolError } from '../errors/errors.js';
import {
  MCP_VIEW_CHANNEL_LIMITS,
  MINIAPP_PAGE_CHANNEL_LIMITS,
  parseSurfaceMcpMessage,
  parseSurfaceMessageFromFrame,
  parseSurfaceMessageToFrame,
  parseSurfacePageMessage,
  SURFACE_CHANNEL_LIMITS,
  SURFACE_NAMESPACE,
} from './surface.js';
import { parseSurfaceKeyMessage, parseSurfaceStorageMessage } from './surface-view.js';

describe('MCP App views on the Surface channel', () => {
  const rpc = (overrides: J = {}): J => ({
    namespace: SURFACE_NAMESPACE,
    type: 'mcp',
    instance_id: INSTANCE,
    message: { jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} },
    ...overrides,
  });
  const refused = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(LineUpProtocolError);
      return (error as LineUpProtocolError).issues.map(({ code, path }) => ({ code, path }));
    }
    throw new Error('accepted');
  };

  it('a view start may be larger than a Surface bundle, up to the view bound, and carry modules', () => {
    const big = 'x'.repeat(SURFACE_CHANNEL_LIMITS.maxBundleBytes);
    expect(
      parseSurfaceMessageToFrame(start({ protocol: 'mcp_app', html: big, modules: ['export {}'] })),
    ).toMatchObject({
      protocol: 'mcp_app',
      modules: ['export {}'],
    });
    expect(refused(() => parseSurfaceMessageToFrame(start({ html: big })))).toEqual([
      { code: 'too_large', path: '$' },
    ]);
    const tooBig = 'x'.repeat(MCP_VIEW_CHANNEL_LIMITS.maxViewBytes - 20);
    expect(
      refused(() =>
        parseSurfaceMessageToFrame(start({ protocol: 'mcp_app', html: tooBig, modules: ['x'.repeat(64)] })),
      ),
    ).toEqual([{ code: 'too_large', path: '$' }]);
  });

  it('only a view or a page has modules, only a page a fragment, and no other protocol exists', () => {
    expect(refused(() => parseSurfaceMessageToFrame(start({ modules: ['export {}'] })))).toEqual([
      { code: 'unknown_property', path: 'modules' },
    ]);
    const page = { protocol: 'miniapp', modules: ['export {}'], fragment: `lineup-instance=${INSTANCE}` };
    expect(parseSurfaceMessageToFrame(start(page))).toMatchObject(page);
    expect(refused(() => parseSurfaceMessageToFrame(start({ fragment: 'x=1' })))).toEqual([
      { code: 'unknown_property', path: 'fragment' },
    ]);
    expect(
      refused(() => parseSurfaceMessageToFrame(start({ protocol: 'mcp_app', fragment: 'x=1' }))),
    ).toEqual([{ code: 'unknown_property', path: 'fragment' }]);
    expect(
      refused(() =>
        parseSurfaceMessageToFrame(
          start({
            protocol: 'miniapp',
            fragment: 'x'.repeat(MINIAPP_PAGE_CHANNEL_LIMITS.maxFragmentLength + 1),
          }),
        ),
      )[0],
    ).toMatchObject({ path: 'fragment' });
    expect(refused(() => parseSurfaceMessageToFrame(start({ protocol: 'mcp' })))).toEqual([
      { code: 'invalid_value', path: 'protocol' },
    ]);
  });

  it('parseSurfaceMcpMessage takes one JSON-RPC 2.0 object of the instance, within its bound', () => {
    expect(parseSurfaceMcpMessage(rpc(), INSTANCE).message).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'ui/initialize',
      params: {},
    });
    expect(
      refused(() => parseSurfaceMcpMessage(rpc({ message: { jsonrpc: '1.0', id: 1 } }), INSTANCE)),
    ).toEqual([{ code: 'invalid_value', path: 'message.jsonrpc' }]);
    expect(refused(() => parseSurfaceMcpMessage(rpc({ message: [1, 2] }), INSTANCE))).toEqual([
      { code: WRONG_TYPE, path: 'message' },
    ]);
    expect(refused(() => parseSurfaceMcpMessage(rpc(), 'another.instance'))).toEqual([
      { code: 'invalid_value', path: 'instance_id' },
    ]);
    const large = {
      jsonrpc: '2.0',
      method: 'x',
      params: { text: 'x'.repeat(MCP_VIEW_CHANNEL_LIMITS.maxMessageBytes) },
    };
    expect(refused(() => parseSurfaceMcpMessage(rpc({ message: large }), INSTANCE))[0]?.code).toBe(
      'too_large',
    );
    expect(
      refused(() => parseSurfaceMcpMessage({ ...rpc(), namespace: 'lineup.miniapp.v1' }, INSTANCE)),
    ).toEqual([{ code: 'invalid_value', path: 'namespace' }]);
  });

  it("a view's storage: [key, value] string pairs, each key once, bounded; only a view's start carries it", () => {
    const storage = (entries: unknown): J => ({
      namespace: SURFACE_NAMESPACE,
      type: 'storage',
      instance_id: INSTANCE,
      entries,
    });
    const entries = [
      ['__proto__', '{"polluted":true}'],
      ['', 'empty key'],
      ['map-view', '{"zoom":3}'],
    ];
    expect(parseSurfaceStorageMessage(storage(entries), INSTANCE).entries).toEqual(entries);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(parseSurfaceStorageMessage(storage([]), INSTANCE).entries).toEqual([]);
    expect(
      refused(() =>
        parseSurfaceStorageMessage(
          storage([
            ['a', '1'],
            ['a', '2'],
          ]),
          INSTANCE,
        ),
      ),
    ).toEqual([{ code: 'invalid_value', path: 'entries[1][0]' }]);
    expect(refused(() => parseSurfaceStorageMessage(storage([['a', 1]]), INSTANCE))).toEqual([
      { code: WRONG_TYPE, path: 'entries[0][1]' },
    ]);
    expect(refused(() => parseSurfaceStorageMessage(storage({ a: '1' }), INSTANCE))).toEqual([
      { code: WRONG_TYPE, path: 'entries' },
    ]);
    const half = MCP_VIEW_CHANNEL_LIMITS.maxStorageLength / 2;
    expect(
      parseSurfaceStorageMessage(storage([['k'.repeat(half), 'v'.repeat(half)]]), INSTANCE).entries,
    ).toHaveLength(1);
    expect(
      refused(() =>
        parseSurfaceStorageMessage(storage([['k'.repeat(half), 'v'.repeat(half + 1)]]), INSTANCE),
      ),
    ).toEqual([{ code: 'too_large', path: 'entries' }]);
    const many = Array.from({ length: MCP_VIEW_CHANNEL_LIMITS.maxStorageItems + 1 }, (_, index) => [
      String(index),
      '',
    ]);
    expect(refused(() => parseSurfaceStorageMessage(storage(many), INSTANCE))[0]?.code).toBe('too_many');
    expect(refused(() => parseSurfaceStorageMessage(storage([]), 'another.instance'))).toEqual([
      { code: 'invalid_value', path: 'instance_id' },
    ]);
    // The other parsers refuse it: only a host that started a view reads it.
    expect(refused(() => parseSurfaceMessageFromFrame(storage([]), INSTANCE))[0]).toMatchObject({
      path: 'type',
    });
    expect(parseSurfaceMessageToFrame(start({ protocol: 'mcp_app', storage: [['a', '1']] }))).toMatchObject({
      storage: [['a', '1']],
    });
    for (const protocol of [undefined, 'miniapp'])
      expect(
        refused(() =>
          parseSurfaceMessageToFrame(start({ ...(protocol ? { protocol } : {}), storage: [['a', '1']] })),
        ),
      ).toEqual([{ code: 'unknown_property', path: 'storage' }]);
  });

  it("a view's Escape: only the key Escape, of the instance, read by its own parser only", () => {
    const key = (overrides: J = {}): J => ({
      namespace: SURFACE_NAMESPACE,
      type: 'key',
      instance_id: INSTANCE,
      key: 'Escape',
      ...overrides,
    });
    expect(parseSurfaceKeyMessage(key(), INSTANCE)).toEqual(key());
    expect(refused(() => parseSurfaceKeyMessage(key({ key: 'Enter' }), INSTANCE))).toEqual([
      { code: 'invalid_value', path: 'key' },
    ]);
    expect(refused(() => parseSurfaceKeyMessage(key({ code: 27 }), INSTANCE))).toEqual([
      { code: 'unknown_property', path: '$' },
    ]);
    expect(refused(() => parseSurfaceKeyMessage(key(), 'another.instance'))).toEqual([
      { code: 'invalid_value', path: 'instance_id' },
    ]);
    expect(refused(() => parseSurfaceMessageFromFrame(key(), INSTANCE))[0]).toMatchObject({ path: 'type' });
  });

  it("a page's start and a view's are bounded by a bundle file's size; a Surface's by its bundle's", () => {
    const big = 'x'.repeat(SURFACE_CHANNEL_LIMITS.maxBundleBytes + 1);
    for (const protocol of ['miniapp', 'mcp_app'])
      expect(parseSurfaceMessageToFrame(start({ protocol, js: big }))).toMatchObject({ type: 'start' });
    expect(refused(() => parseSurfaceMessageToFrame(start({ js: big })))[0]?.code).toBe('too_large');
    expect(MINIAPP_PAGE_CHANNEL_LIMITS.maxPageBytes).toBe(MCP_VIEW_CHANNEL_LIMITS.maxViewBytes);
    const tooBig = 'x'.repeat(MINIAPP_PAGE_CHANNEL_LIMITS.maxPageBytes - 10);
    expect(
      refused(() =>
        parseSurfaceMessageToFrame(start({ protocol: 'miniapp', js: tooBig, modules: ['y'.repeat(20)] })),
      )[0]?.code,
    ).toBe('too_large');
  });

  it('parseSurfacePageMessage takes one JSON object of the instance, within its bound', () => {
    const pageMessage = (overrides: Record<string, unknown> = {}) => ({
      namespace: 'lineup.surface.v1',
      type: 'page',
      instance_id: INSTANCE,
      message: { namespace: 'lineup.miniapp.v1', type: 'app_ready', instance_id: INSTANCE },
      ...overrides,
    });
    expect(parseSurfacePageMessage(pageMessage(), INSTANCE).message).toEqual({
      namespace: 'lineup.miniapp.v1',
      type: 'app_ready',
      instance_id: INSTANCE,
    });
    expect(refused(() => parseSurfacePageMessage(pageMessage({ message: [1] }), INSTANCE))).toEqual([
      { code: WRONG_TYPE, path: 'message' },
    ]);
    expect(refused(() => parseSurfacePageMessage(pageMessage({ message: 'text' }), INSTANCE))).toEqual([
      { code: WRONG_TYPE, path: 'message' },
    ]);
    expect(refused(() => parseSurfacePageMessage(pageMessage(), 'another.instance'))).toEqual([
      { code: 'invalid_value', path: 'instance_id' },
    ]);
    expect(refused(() => parseSurfacePageMessage(pageMessage({ extra: 1 }), INSTANCE))[0]).toMatchObject({
      code: 'unknown_property',
    });
    const large = { text: 'x'.repeat(MINIAPP_PAGE_CHANNEL_LIMITS.maxMessageBytes) };
    expect(refused(() => parseSurfacePageMessage(pageMessage({ message: large }), INSTANCE))[0]?.code).toBe(
      'too_large',
    );
    // An mcp message is not a page message, and a page message is not a Surface's or a view's.
    expect(refused(() => parseSurfacePageMessage(rpc(), INSTANCE))[0]).toMatchObject({ path: 'type' });
    expect(refused(() => parseSurfaceMcpMessage(pageMessage(), INSTANCE))[0]).toMatchObject({ path: 'type' });
    expect(refused(() => parseSurfaceMessageFromFrame(pageMessage(), INSTANCE))[0]).toMatchObject({
      path: 'type',
    });
  });

  it("a Surface's parsers refuse mcp messages either way", () => {
    expect(refused(() => parseSurfaceMessageFromFrame(rpc(), INSTANCE))[0]).toMatchObject({ path: 'type' });
    expect(refused(() => parseSurfaceMessageToFrame(rpc(), INSTANCE))[0]).toMatchObject({ path: 'type' });
  });
});
