/**
 * MiniApp manifests (seed 003 §4.1): a manifest is non-executable data, and the parser proves it — closed
 * objects, no function, no code-like field, no script URL, bundle-relative HTML entries — plus the rules
 * between an app and its tools.
 */
import { utf8ToBytes } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codesAndPaths, thrownBy } from '../../../test/utils.js';
import { LineUpProtocolError } from '../../errors/errors.js';
import type { UIIssueCode } from '../../errors/issues.js';
import { bundleIntegrity, fileIntegrity } from './bundle.js';
import { MINIAPP_MANIFEST_LIMITS, parseMiniAppManifest } from './manifest.js';

// biome-ignore lint/suspicious/noExplicitAny: rows build and mutate arbitrary (often invalid) JSON on purpose.
type J = any;

const DIGEST = 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=';

/** The files of the fixture's bundle, as the SDK's build lists them. */
const FILES = [
  { path: 'assets/app.js', size: 3, integrity: fileIntegrity(utf8ToBytes('a()')) },
  { path: 'index.html', size: 0, integrity: DIGEST },
  { path: 'surfaces/focus.html', size: 0, integrity: DIGEST },
];

const tool = (method: string, change?: (descriptor: J) => void): J => {
  const descriptor: J = {
    app_scope: 'pomodoro',
    method,
    contract_version: '1',
    description: `Pomodoro ${method}.`,
    input_schema: { type: 'object', properties: { minutes: { type: 'integer', minimum: 1 } } },
    output_schema: { type: 'object' },
    call_model: 'operation',
    idempotency: 'call_id',
    timeout_ms: 7_200_000,
    activation: 'foreground_required',
    permissions: ['notification.show'],
    risk: 'display_only',
    executor: { kind: 'runtime', builtin: 'deadline_operation' },
  };
  change?.(descriptor);
  return descriptor;
};

const manifest = (change?: (manifest: J) => void): J => {
  const value: J = {
    manifest_version: 1,
    id: 'com.lineup.pomodoro',
    name: 'Pomodoro',
    version: '0.4.0',
    integrity: bundleIntegrity(FILES),
    files: FILES.map((file) => ({ ...file })),
    app_scope: 'pomodoro',
    entry: 'index.html',
    surfaces: [{ id: 'focus', entry: 'surfaces/focus.html', events: ['tick', 'done'] }],
    permissions: ['notification.show'],
    tools: [
      tool('start'),
      tool('interrupt', (d) =>
        Object.assign(d, {
          call_model: 'command',
          activation: 'activation_not_required',
          permissions: [],
          executor: { kind: 'runtime', builtin: 'operation_interrupt' },
        }),
      ),
    ],
  };
  change?.(value);
  return value;
};

const rejection = (input: unknown): LineUpProtocolError =>
  thrownBy(LineUpProtocolError, () => parseMiniAppManifest(input));

const REJECT: [rule: string, input: () => unknown, code: UIIssueCode, path: string][] = [
  ...(
    [
      ["'self'", "'self'"],
      ['a wildcard alone', '*'],
      ['a path', 'https://api.example.com/v1'],
      ['plain http off the loopback host', 'http://api.example.com'],
      ['a scheme alone', 'https:'],
      ['a directive break', 'https://a.example.com; script-src *'],
    ] as const
  ).map(
    ([what, domain]) =>
      [
        `a connect domain that is ${what}`,
        () => manifest((m) => (m.connect_domains = [domain])),
        'invalid_value',
        'connect_domains[0]',
      ] as [string, () => unknown, UIIssueCode, string],
  ),
  [
    'a connect domain twice (case and a trailing slash do not make another)',
    () => manifest((m) => (m.connect_domains = ['https://api.example.com', 'HTTPS://api.example.com/'])),
    'duplicate_id',
    'connect_domains[1]',
  ],
  ['an empty connect_domains', () => manifest((m) => (m.connect_domains = [])), 'too_few', 'connect_domains'],
  [
    'more than 32 connect domains',
    () =>
      manifest(
        (m) =>
          (m.connect_domains = Array.from({ length: 33 }, (_, index) => `https://h${index}.example.com`)),
      ),
    'too_many',
    'connect_domains',
  ],
  ['a handler field', () => manifest((m) => (m.handler = 'main')), 'unknown_property', '$'],
  ['a js field', () => manifest((m) => (m.js = 'boot()')), 'unknown_property', '$'],
  ['a script field', () => manifest((m) => (m.script = 'boot()')), 'unknown_property', '$'],
  ['an eval field', () => manifest((m) => (m.eval = 'boot()')), 'unknown_property', '$'],
  [
    'a handler on a tool',
    () => manifest((m) => (m.tools[0].handler = 'startFocus')),
    'unknown_property',
    'tools[0]',
  ],
  [
    'a js field on a surface',
    () => manifest((m) => (m.surfaces[0].js = 'x')),
    'unknown_property',
    'surfaces[0]',
  ],
  [
    'a function value',
    () => manifest((m) => (m.tools[0].executor.builtin = () => 'deadline_operation')),
    'invalid_json',
    'tools[0].executor.builtin',
  ],
  [
    'a getter (never invoked)',
    () => manifest((m) => Object.defineProperty(m, 'name', { get: () => 'x', enumerable: true })),
    'invalid_json',
    'name',
  ],
  [
    'a remote entry',
    () => manifest((m) => (m.entry = 'https://evil.example/index.html')),
    'invalid_value',
    'entry',
  ],
  ['a javascript: entry', () => manifest((m) => (m.entry = 'javascript:alert(1)')), 'invalid_value', 'entry'],
  [
    'an entry leaving the bundle',
    () => manifest((m) => (m.entry = '../index.html')),
    'invalid_value',
    'entry',
  ],
  ['an absolute entry', () => manifest((m) => (m.entry = '/index.html')), 'invalid_value', 'entry'],
  ['an entry that is a script', () => manifest((m) => (m.entry = 'main.js')), 'invalid_value', 'entry'],
  [
    'a surface entry with a query',
    () => manifest((m) => (m.surfaces[0].entry = 'focus.html?x=1')),
    'invalid_value',
    'surfaces[0].entry',
  ],
  ['a javascript: name', () => manifest((m) => (m.name = 'javascript:alert(1)')), 'invalid_value', 'name'],
  [
    'a javascript: tool description',
    () => manifest((m) => (m.tools[0].description = 'javascript:void(0)')),
    'invalid_value',
    'tools[0].description',
  ],
  [
    'an unknown manifest version',
    () => manifest((m) => (m.manifest_version = 2)),
    'invalid_value',
    'manifest_version',
  ],
  ['an app id that is not reverse-DNS', () => manifest((m) => (m.id = 'pomodoro')), 'invalid_value', 'id'],
  ['a version that is not SemVer', () => manifest((m) => (m.version = '0.4')), 'invalid_value', 'version'],
  ['a bad integrity', () => manifest((m) => (m.integrity = 'md5-abc')), 'invalid_value', 'integrity'],
  [
    'an integrity that is not the digest of the files',
    () => manifest((m) => (m.integrity = DIGEST)),
    'invalid_value',
    'integrity',
  ],
  [
    'a file whose size changed after the integrity was computed',
    () => manifest((m) => (m.files[0].size = 4)),
    'invalid_value',
    'integrity',
  ],
  ['an integrity without files', () => manifest((m) => delete m.files), 'missing_property', 'files'],
  ['files without an integrity', () => manifest((m) => delete m.integrity), 'missing_property', 'integrity'],
  [
    'an entry that is not a listed file',
    () =>
      manifest((m) => {
        m.files = m.files.filter((f: J) => f.path !== 'index.html');
        m.integrity = bundleIntegrity(m.files);
      }),
    'unknown_reference',
    'entry',
  ],
  [
    'a Surface entry that is not a listed file',
    () =>
      manifest((m) => {
        m.files = m.files.filter((f: J) => f.path !== 'surfaces/focus.html');
        m.integrity = bundleIntegrity(m.files);
      }),
    'unknown_reference',
    'surfaces[0].entry',
  ],
  [
    'the manifest listing itself',
    () =>
      manifest((m) => {
        m.files.push({ path: 'lineup.manifest.json', size: 0, integrity: DIGEST });
        m.integrity = bundleIntegrity(m.files);
      }),
    'invalid_value',
    'files[3].path',
  ],
  [
    'a file path that climbs out',
    () => manifest((m) => (m.files[0].path = '../secret.js')),
    'invalid_value',
    'files[0].path',
  ],
  [
    'a file path with a backslash',
    () => manifest((m) => (m.files[0].path = 'assets\\app.js')),
    'invalid_value',
    'files[0].path',
  ],
  [
    'a file with a negative size',
    () => manifest((m) => (m.files[0].size = -1)),
    'number_out_of_range',
    'files[0].size',
  ],
  [
    'two files with one path',
    () =>
      manifest((m) => {
        m.files.push({ ...m.files[0] });
        m.integrity = bundleIntegrity(m.files);
      }),
    'duplicate_id',
    'files[3].path',
  ],
  [
    "a tool of another app's scope",
    () => manifest((m) => (m.tools[1].app_scope = 'todo')),
    'invalid_value',
    'tools[1].app_scope',
  ],
  [
    'a duplicate method',
    () => manifest((m) => m.tools.push(tool('start'))),
    'duplicate_id',
    'tools[2].method',
  ],
  [
    'a tool permission the app does not declare',
    () => manifest((m) => (m.tools[0].permissions = ['clipboard.write'])),
    'unknown_reference',
    'tools[0].permissions[0]',
  ],
  [
    'a duplicate app permission',
    () => manifest((m) => m.permissions.push('notification.show')),
    'duplicate_id',
    'permissions[1]',
  ],
  [
    'a duplicate surface',
    () => manifest((m) => m.surfaces.push({ ...m.surfaces[0] })),
    'duplicate_id',
    'surfaces[1].id',
  ],
  [
    'a duplicate surface event',
    () => manifest((m) => m.surfaces[0].events.push('tick')),
    'duplicate_id',
    'surfaces[0].events[2]',
  ],
  [
    'an invalid tool inside',
    () => manifest((m) => (m.tools[0].executor = { kind: 'miniapp_sdk' })),
    'invalid_value',
    'tools[0].executor.kind',
  ],
  [
    'too many tools',
    () =>
      manifest(
        (m) =>
          (m.tools = Array.from({ length: MINIAPP_MANIFEST_LIMITS.maxTools + 1 }, (_, i) => tool(`m${i}`))),
      ),
    'too_many',
    'tools',
  ],
  [
    'a manifest over its budget',
    () =>
      manifest(
        (m) => (m.tools[0].input_schema.description = 'd'.repeat(MINIAPP_MANIFEST_LIMITS.maxManifestBytes)),
      ),
    'too_large',
    '$',
  ],
];

describe('MiniApp manifests (seed 003 §4.1)', () => {
  it('has a unique name per row', () => {
    const names = REJECT.map(([rule]) => rule);
    expect(new Set(names).size).toBe(names.length);
  });
  for (const [rule, input, code, path] of REJECT) {
    it(`rejects: ${rule}`, () => {
      const error = rejection(input());
      expect(codesAndPaths(error.issues)).toContainEqual({ code, path });
    });
  }

  it('accepts the Pomodoro manifest, deep-frozen, without changing the input', () => {
    const input = manifest();
    const parsed = parseMiniAppManifest(input);
    expect(parsed).toEqual(input);
    expect(Object.isFrozen(parsed.tools[0]!.executor)).toBe(true);
    expect(Object.isFrozen(input.tools[0].executor)).toBe(false);
    expect(parseMiniAppManifest(JSON.parse(JSON.stringify(parsed)))).toEqual(parsed);
  });

  it('accepts declared connect domains: https, wss, subdomains, ports, and http on the loopback host', () => {
    const domains = [
      'https://api.example.com',
      'wss://*.example.com:443',
      'http://127.0.0.1:8080',
      'ws://localhost:9000',
    ];
    expect(parseMiniAppManifest(manifest((m) => (m.connect_domains = domains))).connect_domains).toEqual(
      domains,
    );
  });

  it('accepts a headless app (no surfaces, no tools) and one without integrity', () => {
    expect(() =>
      parseMiniAppManifest(manifest((m) => Object.assign(m, { surfaces: [], tools: [] }))),
    ).not.toThrow();
    expect(() =>
      parseMiniAppManifest(
        manifest((m) => {
          delete m.integrity;
          delete m.files;
        }),
      ),
    ).not.toThrow();
  });

  it('reports a script URL in a tool once, not once per level', () => {
    const error = rejection(manifest((m) => (m.tools[0].description = 'javascript:x')));
    expect(error.issues.filter((issue) => issue.path === 'tools[0].description')).toHaveLength(1);
  });

  it('rejects a code-like field or a function injected at any object outside a schema (property)', () => {
    const holders: ((m: J) => J)[] = [
      (m) => m,
      (m) => m.surfaces[0],
      (m) => m.tools[0],
      (m) => m.tools[1].executor,
      (m) => m.tools[0].input_schema,
      (m) => m.tools[0].input_schema.properties.minutes,
    ];
    const codeKeys = ['handler', 'js', 'script', 'eval', 'code', 'onclick', 'exec', 'url'];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: holders.length - 1 }),
        fc.constantFrom(...codeKeys),
        fc.oneof(
          fc.constant<unknown>(() => 1),
          fc.constant<unknown>('javascript:alert(1)'),
          fc.json().map((text): unknown => JSON.parse(text)),
        ),
        (holder, key, value) => {
          const input = manifest();
          holders[holder]!(input)[key] = value;
          const codes = rejection(input).issues.map((issue) => issue.code);
          // An own __proto__ key anywhere is refused before the schema looks (invalid_identifier).
          expect(
            codes.some(
              (code) =>
                code === 'unknown_property' || code === 'invalid_json' || code === 'invalid_identifier',
            ),
          ).toBe(true);
        },
      ),
    );
  });

  it('never echoes an injected key or value', () => {
    const error = rejection(manifest((m) => (m.zzInjectedKey = 'zzInjectedValue')));
    expect(JSON.stringify(error.issues)).not.toContain('zzInjected');
    expect(error.message).not.toContain('zzInjected');
  });
});
