// Port 43 against a loopback server: referrals, loops, hop limit, timeouts, size cap,
// rate-limit replies and both encodings. Every server name resolves to the loopback fixture
// through serverOverride; the query syntax tells the hops apart.
import assert from 'node:assert/strict';
import {
  decodeReply,
  lookupPort43,
  queryLine,
  queryServer,
  registryServer,
} from '../../../../src/engine/whois/port43';
import { startWhoisServer, type WhoisFixture } from '../../../support/whois-server';
import { code } from '../../../support/settled';

const REGISTRY = [
  'Domain Name: EXAMPLE.COM',
  'Registry Domain ID: 2336799_DOMAIN_COM-VRSN',
  'Registrar WHOIS Server: whois.registrar.test',
  'Updated Date: 2024-08-14T07:01:34Z',
  'Creation Date: 1995-08-14T04:00:00Z',
  'Registry Expiry Date: 2025-08-13T04:00:00Z',
  'Registrar: Registry Copy Of Registrar',
  'Registrar IANA ID: 376',
  'Domain Status: clientDeleteProhibited https://icann.org/epp#clientDeleteProhibited',
  'Name Server: A.IANA-SERVERS.NET',
  'Name Server: B.IANA-SERVERS.NET',
  'DNSSEC: signedDelegation',
  '',
].join('\r\n');

const REGISTRAR = [
  'Domain Name: example.com',
  'Registrar WHOIS Server: whois.registrar.test',
  'Registrar URL: https://registrar.test',
  'Registrar: Registrar Test, Inc.',
  'Registrar IANA ID: 376',
  'Registrant Name: REDACTED FOR PRIVACY',
  'Domain Status: clientDeleteProhibited',
  'Name Server: a.iana-servers.net',
  'Name Server: b.iana-servers.net',
  '',
].join('\r\n');

describe('port43', function () {
  let server: WhoisFixture | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('asks the registry with its syntax, then follows the referral to the registrar', async function () {
    server = await startWhoisServer({ 'domain example.com': REGISTRY, 'example.com': REGISTRAR });
    const { result, servers } = await lookupPort43('example.com', {
      serverOverride: server.address,
    });
    assert.deepEqual(server.queries, ['domain example.com', 'example.com']);
    assert.deepEqual(servers, ['whois.verisign-grs.com', 'whois.registrar.test']);
    assert.equal(result.source, 'whois');
    assert.equal(result.domain.id, '2336799_DOMAIN_COM-VRSN');
    assert.equal(result.domain.whois_server, 'whois.registrar.test');
    assert.deepEqual(result.domain.name_servers, ['a.iana-servers.net', 'b.iana-servers.net']);
    assert.deepEqual(result.domain.status, ['clientdeleteprohibited']);
    assert.equal(result.domain.dnssec, true);
    assert.equal(result.domain.created_date, '1995-08-14T04:00:00Z');
    assert.equal(result.domain.expiration_date_in_time, '2025-08-13T04:00:00Z');
    // The registrar's own reply is the more specific one.
    assert.deepEqual(result.registrar, {
      id: '376',
      name: 'Registrar Test, Inc.',
      referral_url: 'https://registrar.test',
    });
    assert.ok(result.raw?.includes('Registry Expiry Date') && result.raw.includes('Registrar URL'));
    assert.ok(!JSON.stringify([result.domain, result.registrar]).includes('REDACTED'));
  });

  it('stops a referral loop', async function () {
    const loop = REGISTRAR.replace('whois.registrar.test', 'whois.verisign-grs.com');
    server = await startWhoisServer({ 'domain example.com': REGISTRY, 'example.com': loop });
    await lookupPort43('example.com', { serverOverride: server.address });
    assert.deepEqual(server.queries, ['domain example.com', 'example.com']);
  });

  it('follows at most 3 referral hops', async function () {
    const refer = (to: string): string => REGISTRY.replace('whois.registrar.test', to);
    server = await startWhoisServer({
      'domain example.com': refer('whois.denic.de'),
      '-T dn,ace example.com': refer('whois.jprs.jp'),
      'example.com/e': refer('whois.hop3.test'),
      'example.com': refer('whois.hop4.test'),
    });
    const { servers } = await lookupPort43('example.com', { serverOverride: server.address });
    assert.equal(server.queries.length, 4);
    assert.deepEqual(servers, [
      'whois.verisign-grs.com',
      'whois.denic.de',
      'whois.jprs.jp',
      'whois.hop3.test',
    ]);
  });

  it('keeps the registry answer when the registrar server fails', async function () {
    server = await startWhoisServer({
      'domain example.com': REGISTRY,
      'example.com': { kind: 'hang' },
    });
    const { result } = await lookupPort43('example.com', {
      serverOverride: server.address,
      totalTimeoutMs: 300,
    });
    assert.equal(result.registrar.name, 'Registry Copy Of Registrar');
    assert.equal(result.domain.whois_server, 'whois.registrar.test');
  });

  it('gives not_found for an unregistered name', async function () {
    server = await startWhoisServer({ 'domain nope.com': 'No match for "NOPE.COM".\r\n' });
    assert.equal(
      await code(lookupPort43('nope.com', { serverOverride: server.address })),
      'not_found',
    );
  });

  for (const reply of [
    'WHOIS LIMIT EXCEEDED - SEE WWW.PIR.ORG/WHOIS FOR DETAILS\r\n',
    '%ERROR:201: access denied\r\n% Query rate limit exceeded. Please slow down.\r\n',
    'Too many requests, try again later.\r\n',
    '55000000002 Connection refused; access control limit reached. Please try again later\r\n',
    'Your request has exceeded the allowed quota. Quota exceeded.\r\n',
  ]) {
    it(`gives rate_limited, never not_found, for "${reply.trim().slice(0, 40)}"`, async function () {
      server = await startWhoisServer({ 'domain example.com': reply });
      assert.equal(
        await code(lookupPort43('example.com', { serverOverride: server.address })),
        'rate_limited',
      );
    });
  }

  it('times out a server that never answers or closes', async function () {
    server = await startWhoisServer({ 'domain example.com': { kind: 'hang' } });
    const started = Date.now();
    assert.equal(
      await code(
        lookupPort43('example.com', { serverOverride: server.address, totalTimeoutMs: 300 }),
      ),
      'upstream_timeout',
    );
    assert.ok(Date.now() - started < 3000);
  });

  it('refuses a reply over 1 MB', async function () {
    server = await startWhoisServer({
      'domain example.com': { kind: 'huge', bytes: 3 * 1024 * 1024 },
    });
    assert.equal(
      await code(lookupPort43('example.com', { serverOverride: server.address })),
      'response_too_large',
    );
  });

  it('reports an empty reply and a refused connection as upstream_error', async function () {
    server = await startWhoisServer({ 'domain example.com': { kind: 'close' } });
    assert.equal(
      await code(lookupPort43('example.com', { serverOverride: server.address })),
      'upstream_error',
    );
    assert.equal(await code(queryServer('127.0.0.1:1', 'x')), 'upstream_error');
  });

  it('honours an abort signal', async function () {
    server = await startWhoisServer({ 'domain example.com': { kind: 'hang' } });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    assert.equal(
      await code(
        lookupPort43('example.com', { serverOverride: server.address, signal: ac.signal }),
      ),
      'cancelled',
    );
  });

  it('decodes Latin-1 and UTF-8 replies', async function () {
    const body = (name: string): string =>
      `Domain Name: example.com\r\nRegistrar: ${name}\r\nName Server: ns1.example.net\r\n`;
    server = await startWhoisServer({
      'domain example.com': Buffer.from(body('Société Générale'), 'latin1'),
      'domain example.net': Buffer.from(body('Müller & Söhne ÄÖÜ 株式会社'), 'utf8'),
    });
    const latin = await lookupPort43('example.com', { serverOverride: server.address });
    assert.equal(latin.result.registrar.name, 'Société Générale');
    const utf = await lookupPort43('example.net', { serverOverride: server.address });
    assert.equal(utf.result.registrar.name, 'Müller & Söhne ÄÖÜ 株式会社');
    assert.equal(decodeReply(new Uint8Array([0xff, 0xfe, 0x41])), 'ÿþA');
  });

  it('asks IANA for the server of a TLD the table lacks', async function () {
    server = await startWhoisServer({
      zz: 'domain:       ZZ\r\nrefer:        whois.nic.zz\r\n',
      'example.zz': 'Domain Name: example.zz\r\nName Server: ns1.example.zz\r\n',
    });
    assert.equal(await registryServer('zz', { serverOverride: server.address }), 'whois.nic.zz');
    const { servers } = await lookupPort43('example.zz', { serverOverride: server.address });
    assert.deepEqual(servers, ['whois.nic.zz']);
    assert.deepEqual(server.queries, ['zz', 'zz', 'example.zz']);
  });

  it('gives not_found when IANA knows no server for the TLD', async function () {
    server = await startWhoisServer({ qq: '% This query returned 0 objects.\r\n' });
    assert.equal(
      await code(lookupPort43('example.qq', { serverOverride: server.address })),
      'not_found',
    );
  });

  it('gives upstream_error, not not_found, for a TLD IANA lists without a WHOIS server', async function () {
    server = await startWhoisServer({
      qz: 'domain:       QZ\r\norganisation: Registry\r\nwhois:\r\nstatus:       ACTIVE\r\n',
    });
    assert.equal(
      await code(lookupPort43('example.qz', { serverOverride: server.address })),
      'upstream_error',
    );
  });

  it('writes each registry its own query syntax', function () {
    assert.equal(queryLine('whois.verisign-grs.com', 'a.com'), 'domain a.com');
    assert.equal(queryLine('whois.denic.de', 'a.de'), '-T dn,ace a.de');
    assert.equal(queryLine('whois.jprs.jp', 'a.jp'), 'a.jp/e');
    assert.equal(queryLine('whois.nic.fr', 'a.fr'), 'a.fr');
  });
});
