import assert from 'node:assert/strict';
import { LookupError } from '../../../../src/contract/errors';
import { formatServer, parseServer, resolveServer } from '../../../../src/engine/dns/server';

describe('engine/dns server', () => {
  const good: Array<[string, ReturnType<typeof parseServer>]> = [
    ['1.1.1.1', { address: '1.1.1.1', port: 53, family: 4 }],
    ['1.1.1.1:5353', { address: '1.1.1.1', port: 5353, family: 4 }],
    [' 192.0.2.1:53 ', { address: '192.0.2.1', port: 53, family: 4 }],
    ['2606:4700::1', { address: '2606:4700::1', port: 53, family: 6 }],
    ['[2606:4700::1]', { address: '2606:4700::1', port: 53, family: 6 }],
    ['[2606:4700::1]:53', { address: '2606:4700::1', port: 53, family: 6 }],
    ['[::1]:65535', { address: '::1', port: 65535, family: 6 }],
    ['ns1.example.test', { address: 'ns1.example.test', port: 53, family: 0 }],
    ['NS1.Example.Test.', { address: 'ns1.example.test', port: 53, family: 0 }],
    ['localhost:8053', { address: 'localhost', port: 8053, family: 0 }],
    ['ns.bücher.test', { address: 'ns.xn--bcher-kva.test', port: 53, family: 0 }],
  ];
  for (const [input, expected] of good) {
    it(`parses ${JSON.stringify(input)}`, () => assert.deepEqual(parseServer(input), expected));
  }

  const bad = [
    '',
    ' ',
    '1.1.1.1:',
    '1.1.1.1:0',
    '1.1.1.1:65536',
    '1.1.1.1:53:53',
    '1.1.1.1:-1',
    '10.0.1',
    '300.1.1.1',
    '[1.1.1.1]',
    '[::1',
    '[::1]53',
    '[::1]:',
    '[gg::1]:53',
    'udp://1.1.1.1',
    '1.1.1.1#53',
    'ns1..example',
    'name with space',
    '.',
    `${'x'.repeat(64)}.test`,
  ];
  for (const input of bad) {
    it(`refuses ${JSON.stringify(input)} with invalid_server`, () => {
      assert.throws(
        () => parseServer(input),
        (err) => err instanceof LookupError && err.code === 'invalid_server',
      );
    });
  }

  it('formats addresses the way Resolver.setServers takes them', () => {
    assert.equal(formatServer('192.0.2.1', 53), '192.0.2.1:53');
    assert.equal(formatServer('2001:db8::1', 5353), '[2001:db8::1]:5353');
  });

  it('resolves a name to every address it has, keeping the port, dropping repeats', async () => {
    const servers = await resolveServer('ns.test:5300', {
      lookup: () => Promise.resolve(['192.0.2.1', '2001:db8::1', '192.0.2.1', 'junk']),
    });
    assert.deepEqual(servers, ['192.0.2.1:5300', '[2001:db8::1]:5300']);
  });

  it('does not look up an address', async () => {
    const servers = await resolveServer('[::1]:53', {
      lookup: () => Promise.reject(new Error('must not be called')),
    });
    assert.deepEqual(servers, ['[::1]:53']);
  });
});
