/**
 * Bundle integrity (seed 000 §2.7, §6 M2): file digests in `sha256-<base64>` agree with Node's own SHA-256 and
 * base64, and the bundle's integrity names its file list whatever the order it was listed in, and nothing else.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BUNDLE_PATH_PATTERN,
  type BundleFile,
  BundleSignatureSchema,
  bundleDataUrl,
  bundleIntegrity,
  bundleMediaType,
  bundleSignatureMessage,
  fileIntegrity,
  integrityOfDigest,
  manifestDigest,
  resolveBundlePath,
  sortBundleFiles,
} from './bundle.js';

/** base64 by the textbook bit arithmetic on a bigint, independent of the module's table walk. */
function referenceBase64(bytes: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let text = '';
  for (let index = 0; index < bytes.length; index += 3) {
    const chunk = [...bytes.slice(index, index + 3)];
    const padded = [...chunk, 0, 0].slice(0, 3);
    const n = BigInt((padded[0] as number) * 65536 + (padded[1] as number) * 256 + (padded[2] as number));
    const digits = [18n, 12n, 6n, 0n].map((shift) => alphabet[Number((n >> shift) & 63n)]);
    text += digits.slice(0, chunk.length + 1).join('') + '='.repeat(3 - chunk.length);
  }
  return text;
}
const node = (bytes: Uint8Array) => `sha256-${referenceBase64(sha256(bytes))}`;

describe('fileIntegrity', () => {
  it('matches the known digests of "" and "abc"', () => {
    expect(fileIntegrity(new Uint8Array())).toBe('sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
    expect(fileIntegrity(utf8ToBytes('abc'))).toBe('sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=');
  });

  it('agrees with a reference base64 of the SHA-256 on any bytes (WebCrypto is compared in @lineup/runtime)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => {
        expect(fileIntegrity(bytes)).toBe(node(bytes));
      }),
      { numRuns: 300 },
    );
  });

  it('integrityOfDigest refuses what is not a SHA-256 digest', () => {
    expect(() => integrityOfDigest(new Uint8Array(31))).toThrow(RangeError);
  });
});

describe('bundleIntegrity', () => {
  const file = (path: string, text: string): BundleFile => {
    const bytes = utf8ToBytes(text);
    return { path, size: bytes.length, integrity: fileIntegrity(bytes) };
  };
  const files = [
    file('index.html', '<!doctype html>'),
    file('assets/a.js', 'a()'),
    file('assets/b.css', 'b{}'),
  ];

  it('is the digest of the canonical list, whatever the order given', () => {
    const sorted = sortBundleFiles(files);
    expect(sorted.map((entry) => entry.path)).toEqual(['assets/a.js', 'assets/b.css', 'index.html']);
    const canonical = JSON.stringify(sorted.map(({ integrity, path, size }) => ({ integrity, path, size })));
    expect(bundleIntegrity(files)).toBe(node(utf8ToBytes(canonical)));
    expect(bundleIntegrity([...files].reverse())).toBe(bundleIntegrity(files));
  });

  it('changes when any file’s path, size or digest changes, or a file is added or removed', () => {
    const base = bundleIntegrity(files);
    const variants = [
      files.map((entry, index) => (index === 0 ? { ...entry, path: 'index2.html' } : entry)),
      files.map((entry, index) => (index === 1 ? { ...entry, size: entry.size + 1 } : entry)),
      files.map((entry, index) => (index === 2 ? file(entry.path, 'c{}') : entry)),
      [...files, file('extra.txt', '')],
      files.slice(1),
    ];
    for (const variant of variants) expect(bundleIntegrity(variant)).not.toBe(base);
  });
});

describe('BUNDLE_PATH_PATTERN', () => {
  it.each([
    ['index.html', true],
    ['assets/index-4f2a.js', true],
    ['a/b/c_d-e.f.g', true],
    ['../x.js', false],
    ['./x.js', false],
    ['/x.js', false],
    ['.env', false],
    ['a//b', false],
    ['a\\b', false],
    ['https://x/y.js', false],
    ['a?b', false],
    ['a b', false],
    ['', false],
  ])('%j → %s', (path, ok) => {
    expect(BUNDLE_PATH_PATTERN.test(path)).toBe(ok);
  });
});

describe('manifestDigest and bundleSignatureMessage', () => {
  const manifest = { id: 'com.example.notes', version: '1.0.0', tools: [{ method: 'add', b: 1, a: 2 }] };

  it('name the manifest by its canonical JSON, whatever the key order', () => {
    const reordered = { tools: [{ a: 2, method: 'add', b: 1 }], version: '1.0.0', id: 'com.example.notes' };
    expect(manifestDigest(reordered)).toBe(manifestDigest(manifest));
    expect(bundleSignatureMessage(manifest)).toBe(
      'lineup-manifest-v1\n{"id":"com.example.notes","tools":[{"a":2,"b":1,"method":"add"}],"version":"1.0.0"}',
    );
    expect(manifestDigest(manifest)).toBe(node(utf8ToBytes(bundleSignatureMessage(manifest).slice(19))));
    expect(manifestDigest({ ...manifest, version: '1.0.1' })).not.toBe(manifestDigest(manifest));
  });

  it('the signature file is closed: Ed25519, a 32-byte key and a 64-byte signature in base64', () => {
    const valid = { alg: 'Ed25519', key: `${'A'.repeat(43)}=`, signature: `${'B'.repeat(86)}==` };
    expect(BundleSignatureSchema.safeParse(valid).success).toBe(true);
    for (const bad of [
      { ...valid, alg: 'RSA' },
      { ...valid, key: 'A'.repeat(44) },
      { ...valid, signature: 'B'.repeat(88) },
      { ...valid, extra: 1 },
    ])
      expect(BundleSignatureSchema.safeParse(bad).success).toBe(false);
  });
});

describe('resolveBundlePath', () => {
  it.each([
    ['index.html', './assets/a.js', 'assets/a.js'],
    ['index.html', 'assets/a.js?v=1#x', 'assets/a.js'],
    ['surfaces/focus.html', './focus.js', 'surfaces/focus.js'],
    ['surfaces/focus.html', '../shared/a.css', 'shared/a.css'],
    ['surfaces/focus.html', '/assets/a.js', 'assets/a.js'],
    ['index.html', '../outside.js', null],
    ['index.html', 'https://cdn.example/a.js', null],
    ['index.html', '//cdn.example/a.js', null],
    ['index.html', 'data:text/javascript,1', null],
    ['index.html', '', null],
  ])('%s + %s → %s', (from, reference, expected) => {
    expect(resolveBundlePath(from, reference)).toBe(expected);
  });
});

describe('bundleDataUrl', () => {
  it.each([
    ['assets/app.js', 'text/javascript'],
    ['a/B.CSS', 'text/css'],
    ['logo.svg', 'image/svg+xml'],
    ['font.woff2', 'font/woff2'],
    ['data.bin', 'application/octet-stream'],
    ['README', 'application/octet-stream'],
  ])('%s is %s', (path, type) => {
    expect(bundleMediaType(path)).toBe(type);
  });

  it('carries the bytes as base64 (the reference base64), after the media type', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(bundleDataUrl('x.js', bytes)).toBe(`data:text/javascript;base64,${referenceBase64(bytes)}`);
      }),
    );
  });
});
