import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MCP_VIEW_GRANTABLE_DEVICES,
  mcpViewConnectSource,
  mcpViewConnectSourceProblem,
  mcpViewGrantableDevices,
  mcpViewGrantableResources,
  mcpViewGrantableSources,
  mcpViewGrantedDevices,
  mcpViewGrantedResources,
  mcpViewGrantedSources,
  mcpViewResourceSourceProblem,
} from './view-domains.js';

describe('mcpViewConnectSourceProblem', () => {
  it.each([
    'https://api.weather.com',
    'wss://realtime.service.com',
    'https://*.example.com',
    'https://api.example.com:8443',
    'https://api.example.com:*',
    'https://api.example.com/',
    'HTTPS://API.Example.com',
    'http://127.0.0.1:3000',
    'http://localhost:8080',
    'ws://127.0.0.2:9000',
    'http://[::1]:3000',
    'https://[2001:db8::1]',
    'https://203.0.113.7',
  ])('grants %s', (domain) => {
    expect(mcpViewConnectSourceProblem(domain)).toBeUndefined();
  });

  it.each([
    ["'self'", /one origin/],
    ['*', /one origin/],
    ['https:', /one origin/],
    ['https://', /one origin/],
    ['api.example.com', /one origin/],
    ['https://api.example.com/v1', /one origin/],
    ['https://api.example.com?x=1', /one origin|not a name/],
    ['https://a.com; script-src *', /one origin|not a name/],
    ['https://a.com https://b.com', /one origin/],
    ['https://a.com,https://b.com', /one origin|not a name/],
    ["https://a.com'", /not a name/],
    ['https://user@a.com', /not a name/],
    ['ftp://a.com', /one origin/],
    ['data:', /one origin/],
    ['https://*', /not a name/],
    ['https://a.*.com', /not a name/],
    ['https://-a.com', /not a name/],
    ['https://a.com:0', /port/],
    ['https://a.com:70000', /port/],
    ['http://api.example.com', /only on this machine/],
    ['ws://example.com', /only on this machine/],
    ['', /1 to 256/],
    [`https://${'a'.repeat(300)}.com`, /1 to 256/],
  ])('refuses %s', (domain, reason) => {
    expect(mcpViewConnectSourceProblem(domain)).toMatch(reason);
  });

  it('never grants text that could end the directive or add a keyword (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const domain = `https://${text}`;
        if (mcpViewConnectSourceProblem(domain) === undefined)
          expect(mcpViewConnectSource(domain)).toMatch(/^https:\/\/[a-z0-9.*:[\]-]+$/);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('mcpViewConnectSource', () => {
  it('writes the source a policy lists, and throws for one it cannot grant', () => {
    expect(mcpViewConnectSource('HTTPS://Api.Example.com/')).toBe('https://api.example.com');
    expect(() => mcpViewConnectSource("'self'")).toThrow(TypeError);
  });
});

describe('mcpViewGrantableSources and mcpViewGrantedSources', () => {
  const declared = {
    connect_domains: [
      'https://API.example.com/',
      'https://api.example.com',
      "'self'",
      'wss://live.example.com',
    ],
  };

  it('offers the origins that can be granted, once each, as a policy lists them', () => {
    expect(mcpViewGrantableSources(declared)).toEqual(['https://api.example.com', 'wss://live.example.com']);
    expect(mcpViewGrantableSources({ connect_domains: ["'self'", 'http://example.com'] })).toEqual([]);
  });

  it('gives what was granted and is still declared, nothing for no grant', () => {
    expect(mcpViewGrantedSources(declared, undefined)).toEqual([]);
    expect(mcpViewGrantedSources(declared, ['https://api.example.com', 'https://gone.example.com'])).toEqual([
      'https://api.example.com',
    ]);
    // A grant of an origin the view no longer declares gives nothing; one it newly declares was never granted.
    expect(
      mcpViewGrantedSources({ connect_domains: ['https://new.example.com'] }, ['https://api.example.com']),
    ).toEqual([]);
  });
});

describe('mcpViewResourceSourceProblem, mcpViewGrantableResources and mcpViewGrantedResources', () => {
  it('takes an origin fetched over https (http on the loopback host), never a WebSocket, keyword or path', () => {
    for (const domain of [
      'https://cdn.example.com',
      'https://*.tiles.example.com:443',
      'http://127.0.0.1:8080',
    ])
      expect(mcpViewResourceSourceProblem(domain), domain).toBeUndefined();
    for (const domain of [
      'wss://live.example.com',
      'ws://localhost:1',
      "'self'",
      'https://cdn.example.com/x.js',
      '*',
    ])
      expect(mcpViewResourceSourceProblem(domain), domain).toBeTypeOf('string');
  });

  it('grants the declared resource origins that can be granted, read against their own list', () => {
    const declared = {
      resource_domains: [
        'https://CDN.example.com/',
        'wss://live.example.com',
        "'self'",
        'https://fonts.example.com',
      ],
    };
    expect(mcpViewGrantableResources(declared)).toEqual([
      'https://cdn.example.com',
      'https://fonts.example.com',
    ]);
    expect(mcpViewGrantedResources(declared, undefined)).toEqual([]);
    // A grant holds connect and resource origins together: only those this list declares count here.
    expect(
      mcpViewGrantedResources(declared, [
        'https://api.example.com',
        'https://cdn.example.com',
        'wss://live.example.com',
      ]),
    ).toEqual(['https://cdn.example.com']);
    expect(mcpViewGrantedResources({ resource_domains: [] }, ['https://cdn.example.com'])).toEqual([]);
  });
});

describe('mcpViewGrantableDevices and mcpViewGrantedDevices', () => {
  const all = { camera: true, microphone: true, geolocation: true, clipboard_write: true };
  it('offers geolocation and clipboard writing a view declares, never camera or microphone', () => {
    expect(mcpViewGrantableDevices(all)).toEqual(['geolocation', 'clipboard-write']);
    expect(mcpViewGrantableDevices({ ...all, geolocation: false })).toEqual(['clipboard-write']);
    expect(MCP_VIEW_GRANTABLE_DEVICES).toEqual(['geolocation', 'clipboard-write']);
  });
  it('gives what was granted and is still declared, read from the same list as the origins', () => {
    const granted = ['https://api.example.com', 'clipboard-write', 'camera', 'geolocation'];
    expect(mcpViewGrantedDevices(all, granted)).toEqual(['geolocation', 'clipboard-write']);
    expect(mcpViewGrantedDevices({ ...all, clipboard_write: false }, granted)).toEqual(['geolocation']);
    expect(mcpViewGrantedDevices(all, undefined)).toEqual([]);
    expect(mcpViewGrantedDevices(all, ['https://api.example.com'])).toEqual([]);
  });
});
