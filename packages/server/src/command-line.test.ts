import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, parseServerCommandLine, SERVER_HELP, startupMessage } from './command-line.js';
import { isLoopbackHost, lanAddresses, linkOrigin, parsePublicUrl } from './network.js';

const parse = (args: string[], env: NodeJS.ProcessEnv = {}) => parseServerCommandLine(args, env);

describe('the server command line', () => {
  it('takes a flag over its RK_ variable over the conventional PORT and HOST, over the default', () => {
    expect(parse([])).toMatchObject({ host: '127.0.0.1', port: 4321, dataDir: 'data', logLevel: 'warn' });
    expect(parse([], { PORT: '8080', HOST: '0.0.0.0' })).toMatchObject({ host: '0.0.0.0', port: 8080 });
    expect(parse([], { PORT: '8080', RK_PORT: '9000', HOST: '0.0.0.0', RK_HOST: '::1' })).toMatchObject({
      host: '::1',
      port: 9000,
    });
    expect(parse(['--port', '0', '--host', '127.0.0.2'], { RK_PORT: '9000', HOST: '0.0.0.0' })).toMatchObject(
      { host: '127.0.0.2', port: 0 },
    );
    expect(
      parse([], {
        RK_DATA_DIR: '/srv/rk',
        RK_LOG_LEVEL: 'info',
        RK_RATE_LIMIT: '0',
        RK_SYNCHRONOUS: 'full',
        RK_WEB_ROOT: '/srv/web',
      }),
    ).toMatchObject({
      dataDir: '/srv/rk',
      logLevel: 'info',
      rateLimit: 0,
      synchronous: 'full',
      webRoot: '/srv/web',
    });
    // An empty variable is as good as unset (a `PORT=` left in a shell).
    expect(parse([], { PORT: '', RK_PORT: '' })).toMatchObject({ port: 4321 });
  });

  it('listens on every network with --lan or RK_LAN=1, whatever host the environment names', () => {
    const lan = parse(['--lan'], { HOST: '127.0.0.1' });
    expect(lan).toMatchObject({ lan: true });
    expect(lan).not.toHaveProperty('host');
    expect(parse([], { RK_LAN: '1' })).toMatchObject({ lan: true });
    expect(parse([], { RK_LAN: '0' })).toMatchObject({ lan: false, host: '127.0.0.1' });
  });

  it('keeps only the origin of a public URL', () => {
    expect(parse(['--public-url', 'https://rk.example.org/'])).toMatchObject({
      publicUrl: 'https://rk.example.org',
    });
    expect(parse([], { RK_PUBLIC_URL: 'http://192.168.1.20:8080' })).toMatchObject({
      publicUrl: 'http://192.168.1.20:8080',
    });
  });

  it("takes the load balancer's addresses and ranges to trust, from --trust-proxy or RK_TRUST_PROXY", () => {
    expect(parse([])).not.toHaveProperty('trustProxy');
    expect(parse(['--trust-proxy', '127.0.0.1, 10.0.0.0/8,::1'])).toMatchObject({
      trustProxy: ['127.0.0.1', '10.0.0.0/8', '::1'],
    });
    expect(parse([], { RK_TRUST_PROXY: 'fd00::/8' })).toMatchObject({ trustProxy: ['fd00::/8'] });
  });

  it('takes the origins that may frame the table and player pages, from --frame-ancestors or RK_FRAME_ANCESTORS', () => {
    expect(parse([])).not.toHaveProperty('frameAncestors');
    expect(parse(['--frame-ancestors', 'https://vtt.example, http://localhost:8080/'])).toMatchObject({
      frameAncestors: ['https://vtt.example', 'http://localhost:8080'],
    });
    expect(parse([], { RK_FRAME_ANCESTORS: 'https://obs.example' })).toMatchObject({
      frameAncestors: ['https://obs.example'],
    });
  });

  it('refuses what it cannot start from with a sentence that says what would work', () => {
    const refusal = (args: string[], env: NodeJS.ProcessEnv = {}) => {
      try {
        parse(args, env);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error(`accepted ${args.join(' ')}`);
    };
    expect(refusal(['--port', 'eighty'])).toBe(
      '--port must be a whole number from 0 to 65535, not "eighty".',
    );
    expect(refusal([], { PORT: '70000' })).toBe('PORT must be a whole number from 0 to 65535, not "70000".');
    expect(refusal([], { PORT: '99999' })).toMatch(/^PORT must/);
    expect(refusal([], { RK_PORT: 'x', PORT: '80' })).toMatch(/^RK_PORT must/);
    expect(refusal(['--port', 'x'], { PORT: '80' })).toMatch(/^--port must/);
    expect(refusal(['--frame-ancestors', 'vtt.example'])).toContain('"vtt.example" is not one');
    expect(refusal(['--frame-ancestors', 'https://vtt.example/scene'])).toContain('(no path)');
    expect(refusal([], { RK_FRAME_ANCESTORS: 'ftp://x.example' })).toContain('"ftp://x.example" is not one');
    expect(refusal(['--frame-ancestors', ' , '])).toContain('needs the origins');
    expect(refusal(['--port=-1'])).toContain('not "-1"');
    expect(refusal(['--lan', '--host', '0.0.0.0'])).toContain('leave out --host');
    expect(refusal([], { RK_LAN: 'yes' })).toContain('RK_LAN is 1');
    expect(refusal(['--public-url', 'rk.example.org'])).toContain('a full address such as https://');
    expect(refusal(['--public-url', 'ftp://rk.example.org'])).toContain('http:// or https://');
    expect(refusal(['--public-url', 'https://rk.example.org/rk'])).toContain('without a path');
    expect(refusal(['--log-level', 'loud'])).toContain('fatal, error, warn, info, debug');
    expect(refusal(['--synchronous', 'sometimes'])).toContain('"normal" or "full"');
    expect(refusal(['--rate-limit', '1.5'])).toContain('whole number ≥ 0');
    expect(refusal(['--socket-rate', 'many'])).toContain('--socket-rate must be a whole number ≥ 0');
    expect(refusal(['--encounter-budget', 'lots'])).toContain(
      '--encounter-budget must be a whole number ≥ 0',
    );
    expect(refusal(['--colour'])).toContain("'--colour'");
    expect(refusal(['--trust-proxy', 'lb.internal'])).toBe(
      '--trust-proxy takes addresses or ranges of addresses such as 127.0.0.1 or 10.0.0.0/8, separated by commas; "lb.internal" is neither.',
    );
    expect(refusal(['--trust-proxy', '10.0.0.0/33'])).toContain('"10.0.0.0/33" is neither');
    expect(refusal(['--trust-proxy', '10.0.0.1/8/8'])).toContain('"10.0.0.1/8/8" is neither');
    expect(refusal(['--trust-proxy', ' , '])).toContain("needs the load balancer's addresses");
  });

  it('lists every option and its environment variable in --help', () => {
    expect(parse(['--help'])).toBe('help');
    for (const word of [
      '--port',
      'RK_PORT or PORT',
      '--host',
      'RK_HOST or HOST',
      '--lan',
      'RK_LAN',
      '--public-url',
      'RK_PUBLIC_URL',
      '--data-dir',
      'RK_DATA_DIR',
      '--web-root',
      'RK_WEB_ROOT',
      '--log-level',
      'RK_LOG_LEVEL',
      '--rate-limit',
      'RK_RATE_LIMIT',
      '--socket-rate',
      'RK_SOCKET_RATE',
      '--encounter-budget',
      'RK_ENCOUNTER_BUDGET',
      '--synchronous',
      'RK_SYNCHRONOUS',
      '--trust-proxy',
      'RK_TRUST_PROXY',
      '--frame-ancestors',
      'RK_FRAME_ANCESTORS',
      'MALLOC_ARENA_MAX',
      'MALLOC_MMAP_THRESHOLD_',
    ]) {
      expect(SERVER_HELP).toContain(word);
    }
  });

  it('tells the GM where phones go when it listens on the local network', () => {
    const server = {
      url: 'http://127.0.0.1:4321',
      lanUrls: ['http://192.168.1.20:4321', 'http://10.0.0.5:4321'],
    };
    const message = startupMessage(server, { lan: true });
    expect(message).toContain('Roundkeeper listening on http://127.0.0.1:4321\n');
    expect(message).toContain('open: http://192.168.1.20:4321');
    expect(message).toContain('other addresses of this machine: http://10.0.0.5:4321');
    expect(message).toContain('Share links point to http://192.168.1.20:4321');
    expect(startupMessage({ ...server, lanUrls: [] }, { lan: true })).toContain('connect it to the Wi-Fi');
    expect(startupMessage(server, { lan: true, publicUrl: 'https://rk.example.org' })).toContain(
      'Share links point to https://rk.example.org',
    );
    expect(startupMessage(server, {})).toBe('Roundkeeper listening on http://127.0.0.1:4321\n');
  });
});

describe('addresses on the local network', () => {
  const info = (address: string, internal = false) => ({
    address,
    family: 'IPv4' as const,
    internal,
    netmask: '255.255.255.0',
    mac: '00:00:00:00:00:00',
    cidr: `${address}/24`,
  });

  it('lists IPv4 addresses but the loopback and link-local ones, home networks and real interfaces first', () => {
    const found = lanAddresses({
      lo: [info('127.0.0.1', true)],
      docker0: [info('172.17.0.1')],
      eth1: [info('169.254.10.2'), info('10.1.2.3')],
      wlan0: [info('192.168.1.20'), { ...info('fe80::1'), family: 'IPv6', scopeid: 2 }],
      enp3s0: [info('198.18.0.1')],
    });
    expect(found).toEqual([
      { address: '192.168.1.20', interface: 'wlan0' },
      { address: '10.1.2.3', interface: 'eth1' },
      { address: '198.18.0.1', interface: 'enp3s0' },
      { address: '172.17.0.1', interface: 'docker0' },
    ]);
  });

  it('points links at the public URL, else at the LAN address for a page opened on this machine', () => {
    const lanOrigin = 'http://192.168.1.20:4321';
    expect(linkOrigin('http://127.0.0.1:4321', { lanOrigin })).toBe(lanOrigin);
    expect(linkOrigin('http://localhost:4321', { lanOrigin })).toBe(lanOrigin);
    expect(linkOrigin('http://[::1]:4321', { lanOrigin })).toBe(lanOrigin);
    // Opened at an address phones reach already: that one (it is the network the GM chose).
    expect(linkOrigin('http://10.1.2.3:4321', { lanOrigin })).toBe('http://10.1.2.3:4321');
    expect(linkOrigin('http://127.0.0.1:4321', {})).toBe('http://127.0.0.1:4321');
    expect(linkOrigin('http://127.0.0.1:4321', { lanOrigin, publicUrl: 'https://rk.example.org' })).toBe(
      'https://rk.example.org',
    );
    expect(isLoopbackHost('127.0.1.1')).toBe(true);
    expect(isLoopbackHost('rk.example.org')).toBe(false);
    expect(parsePublicUrl('https://rk.example.org:8443')).toEqual({ origin: 'https://rk.example.org:8443' });
  });
});

describe("the server's heap", () => {
  // A child process with the built command line (the test process's own V8 flags stay as they are): ~25 MB
  // that stays, then a burst of objects that live long enough to reach the old generation and die there.
  // With V8's own sizing the heap reached 200 MB here before a full collection; bounded, 63–64 MB.
  const burst = () => {
    const script = `
      import { boundHeapGrowth, holdYoungGeneration } from ${JSON.stringify(new URL('../dist/command-line.js', import.meta.url).href)};
      holdYoungGeneration();
      boundHeapGrowth();
      const kept = [];
      for (let i = 0; i < 300_000; i++) kept.push({ a: i, b: 's' + i, c: [i] });
      const ring = new Array(20_000);
      let most = 0;
      for (let i = 0; i < 3_000_000; i++) {
        ring[i % ring.length] = { i, s: 'x' + i, pair: [i, i + 1] };
        if (i % 10_000 === 0) most = Math.max(most, process.memoryUsage().heapTotal);
      }
      process.stdout.write(JSON.stringify({ most, kept: kept.length }));
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { most: number }).most / 1e6;
  };

  it(`collects the old generation before it grows ${HEAP_GROWING_PERCENT} % past what is live`, () => {
    expect(burst()).toBeLessThan(100);
  });
});
