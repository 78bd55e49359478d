import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { LookupError } from '../../../src/contract/errors';
import { createAddressGuard, normaliseAddress } from '../../../src/engine/guard';
import type { LookupFunction, WebOptions } from '../../../src/engine/web/fetcher';
import { icons } from '../../../src/engine/web/icons';
import { redirects } from '../../../src/engine/web/redirects';
import { unfurl } from '../../../src/engine/web/unfurl';
import { startWebServer, type WebFixture } from '../../support/web-server';

const blockedCode = (err: unknown) => {
  assert.ok(err instanceof LookupError, String(err));
  assert.equal(err.code, 'blocked_target');
  assert.ok(!/127\.0\.0|::1/.test(err.detail), 'no internal address in the detail');
  return true;
};

describe('address guard: the table of address forms', () => {
  const guard = createAddressGuard();
  // [form, what it is judged as, refused?]
  const table: Array<[string, string, boolean]> = [
    ['8.8.8.8', '8.8.8.8', false],
    ['2606:4700::1111', '2606:4700::1111', false],
    ['[2606:4700::1111]', '2606:4700::1111', false],
    ['127.0.0.1', '127.0.0.1', true],
    ['0.0.0.0', '0.0.0.0', true],
    ['0.1.2.3', '0.1.2.3', true],
    ['10.1.2.3', '10.1.2.3', true],
    ['100.64.0.1', '100.64.0.1', true],
    ['169.254.169.254', '169.254.169.254', true],
    ['192.0.0.8', '192.0.0.8', true],
    ['192.0.2.1', '192.0.2.1', true],
    ['198.18.0.1', '198.18.0.1', true],
    ['240.0.0.1', '240.0.0.1', true],
    ['255.255.255.255', '255.255.255.255', true],
    ['224.0.0.251', '224.0.0.251', true],
    // AS112 (RFC 7534) is anycast DNS service, globally reachable
    ['192.175.48.1', '192.175.48.1', false],
    ['::', '::', true],
    ['::1', '::1', true],
    ['[::1]', '::1', true],
    ['fe80::1%eth0', 'fe80::1', true],
    ['[fe80::1%25eth0]', 'fe80::1', true],
    ['fd00:ec2::254', 'fd00:ec2::254', true],
    ['fec0::1', 'fec0::1', true],
    ['ff02::1', 'ff02::1', true],
    ['2001:db8::1', '2001:db8::1', true],
    ['100::1', '100::1', true],
    ['2001::1', '2001::1', true], // Teredo
    ['::ffff:0:7f00:1', '::ffff:0:7f00:1', true], // IPv4-translated (RFC 6145)
    // IPv4-mapped
    ['::ffff:127.0.0.1', '127.0.0.1', true],
    ['::ffff:7f00:1', '127.0.0.1', true],
    ['[::ffff:a9fe:a9fe]', '169.254.169.254', true],
    ['::ffff:8.8.8.8', '8.8.8.8', false],
    // IPv4-compatible (RFC 4291 section 2.5.5.1): the hex form once passed as unicast
    ['::7f00:1', '127.0.0.1', true],
    ['[::7f00:1]', '127.0.0.1', true],
    ['::127.0.0.1', '127.0.0.1', true],
    ['::a9fe:a9fe', '169.254.169.254', true],
    ['::a00:1', '10.0.0.1', true],
    ['::2', '0.0.0.2', true],
    ['::808:808', '8.8.8.8', false],
    // NAT64 well-known prefix (RFC 6052)
    ['64:ff9b::7f00:1', '127.0.0.1', true],
    ['64:ff9b::10.0.0.1', '10.0.0.1', true],
    ['64:ff9b::808:808', '8.8.8.8', false],
    ['64:ff9b:1::a00:1', '64:ff9b:1::a00:1', true], // local-use NAT64 (RFC 8215)
    // 6to4 (RFC 3056)
    ['2002:7f00:1::', '127.0.0.1', true],
    ['2002:a9fe:a9fe::1', '169.254.169.254', true],
    ['2002:c0a8:101::', '192.168.1.1', true],
    ['2002:808:808::1', '8.8.8.8', false],
  ];
  for (const [form, judged, refused] of table) {
    it(`${form} is judged as ${judged} and ${refused ? 'refused' : 'allowed'}`, () => {
      assert.equal(normaliseAddress(form)?.toString(), judged);
      assert.equal(guard.refusal(form) !== undefined, refused, guard.refusal(form));
    });
  }

  it('refuses what is not an address, and applies allowed ranges to the embedded IPv4', () => {
    assert.equal(guard.refusal('localhost'), 'not an IP address');
    assert.equal(normaliseAddress('example.com'), undefined);
    const allowing = createAddressGuard(['127.0.0.0/8', '::ffff:10.0.0.0/104']);
    for (const form of ['127.0.0.5', '::ffff:127.0.0.5', '::7f00:5', '10.9.9.9']) {
      assert.equal(allowing.refusal(form), undefined, form);
    }
    assert.notEqual(
      allowing.refusal('10.9.9.9') === undefined && allowing.refusal('::1'),
      undefined,
    );
    assert.throws(
      () => allowing.check('::1'),
      (err: LookupError) => err.code === 'blocked_target',
    );
  });
});

describe('web address guard', () => {
  let site: WebFixture;
  before(async () => {
    site = await startWebServer();
  });
  after(() => site.close());

  it('lets WHATWG URL normalise the numeric IPv4 forms to one address', () => {
    for (const form of ['2130706433', '0177.0.0.1', '0x7f000001', '0x7f.0.0.1', '127.1']) {
      assert.equal(new URL(`http://${form}/`).hostname, '127.0.0.1', form);
    }
  });

  it('classifies addresses: only global unicast passes', () => {
    const guard = createAddressGuard();
    for (const address of ['93.184.216.34', '2606:4700::1111', '1.1.1.1']) {
      assert.equal(guard.refusal(address), undefined, address);
    }
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '224.0.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'fd00:ec2::254',
      'fc00::1',
      '::ffff:127.0.0.1',
      '64:ff9b::7f00:1',
      'ff02::1',
      '2002:7f00:1::',
    ]) {
      assert.notEqual(guard.refusal(address), undefined, address);
    }
    assert.equal(createAddressGuard(['127.0.0.0/8']).refusal('127.0.0.5'), undefined);
    assert.throws(
      () => createAddressGuard(['10.0.0.0/99']),
      (err: LookupError) => err.code === 'invalid_argument',
    );
  });

  const forms = [
    '127.0.0.1',
    '2130706433',
    '0177.0.0.1',
    '0x7f000001',
    '0.0.0.0',
    '[::]',
    '[::1]',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '169.254.169.254',
    '[fd00:ec2::254]',
    '10.0.0.1',
    '192.168.0.1',
    '172.31.255.255',
    '100.64.0.1',
    '224.0.0.1',
    '[fe80::1]',
  ];
  for (const form of forms) {
    it(`refuses http://${form}/ before connecting when the guard is on`, async () => {
      await assert.rejects(
        redirects({ url: `http://${form}:${site.port}/final` }, { blockPrivate: true }),
        blockedCode,
      );
    });
  }

  it('refuses a private target reached through a redirect, on every hop', async () => {
    const before = site.requests.length;
    const options: WebOptions = { blockPrivate: true, allowCidrs: ['127.0.0.1/32'] };
    for (const target of [
      `http://127.0.0.2:${site.port}/final`,
      `http://[::ffff:7f00:2]:${site.port}/final`,
      `http://2130706434:${site.port}/`,
    ]) {
      const url = `${site.url('/redirect-to')}?target=${encodeURIComponent(target)}`;
      await assert.rejects(redirects({ url }, options), blockedCode);
    }
    assert.equal(
      site.requests.length - before,
      3,
      'only the allowed first hops reached the server',
    );
  });

  it('checks every DNS answer at connect time, so a rebinding name is refused', async () => {
    let calls = 0;
    const lookup: LookupFunction = (hostname) => {
      assert.equal(hostname, 'rebind.test');
      calls += 1;
      return Promise.resolve([{ address: calls === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }]);
    };
    const options: WebOptions = { blockPrivate: true, allowCidrs: ['127.0.0.1/32'], lookup };
    const url = `http://rebind.test:${site.port}/final`;
    assert.equal((await redirects({ url }, options)).final_status_code, 200);
    await assert.rejects(redirects({ url }, options), blockedCode);
    assert.equal(calls, 2);
  });

  it('refuses a name whose answer mixes a public and a private address', async () => {
    const lookup: LookupFunction = () =>
      Promise.resolve([
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ]);
    await assert.rejects(
      unfurl({ url: 'http://mixed.test/' }, { blockPrivate: true, lookup }),
      blockedCode,
    );
  });

  it('checks the address a socket actually connected to', async () => {
    // A connector that ignores the resolved address and lands on loopback anyway.
    const connector: NonNullable<WebOptions['connector']> = (_options, callback) => {
      const socket = connect(site.port, '127.0.0.1');
      socket.once('connect', () => callback(null, socket));
      socket.once('error', (err) => callback(err, null));
    };
    const lookup: LookupFunction = () => Promise.resolve([{ address: '93.184.216.34', family: 4 }]);
    await assert.rejects(
      redirects({ url: 'http://public.test/final' }, { blockPrivate: true, lookup, connector }),
      blockedCode,
    );
    // Off by default: the extension and the command line inspect the user's own network.
    assert.equal(
      (await redirects({ url: 'http://public.test/final' }, { lookup, connector }))
        .final_status_code,
      200,
    );
  });

  it('drops icons that point at internal addresses instead of fetching them', async () => {
    const href = `http://[::ffff:127.0.0.1]:${site.port}/img/touch.png`;
    const url = `${site.url('/icons/link')}?href=${encodeURIComponent(href)}`;
    const open = await icons({ url });
    assert.deepEqual(
      open.icons.map((i) => [i.url, i.width]),
      [
        [new URL(href).href, 180],
        [site.url('/favicon.ico'), 64],
      ],
    );
    // The mapped form is 127.0.0.1 itself, so a guard that allows 127.0.0.1 allows it too.
    const allowing = await icons({ url }, { blockPrivate: true, allowCidrs: ['127.0.0.1/32'] });
    assert.equal(allowing.icons.length, 2);
    for (const internal of ['[::ffff:127.0.0.2]', '[::7f00:2]', '[64:ff9b::a00:1]', '10.0.0.1']) {
      const link = `${site.url('/icons/link')}?href=${encodeURIComponent(`http://${internal}:${site.port}/img/touch.png`)}`;
      const guarded = await icons(
        { url: link },
        { blockPrivate: true, allowCidrs: ['127.0.0.1/32'] },
      );
      assert.deepEqual(
        guarded.icons.map((i) => i.url),
        [site.url('/favicon.ico')],
        internal,
      );
    }
  });
});
