// DNS over TLS (RFC 7858) and DNS over HTTPS (RFC 8484) as nameserver choices, against
// loopback fronts of the fixture server with a CA made at test time: the same answers as
// plain DNS, certificates verified (an untrusted one and a wrong name refused), one TLS
// connection per look-up for DoT, and one HTTP/2 connection kept across look-ups for DoH.
import assert from 'node:assert/strict';
import type { QueryResult } from '../../../../src/contract/shapes';
import { closeHttpsClients } from '../../../../src/engine/dns/doh';
import { query, type DnsOptions } from '../../../../src/engine/dns/query';
import { closeTlsConnections, exchange } from '../../../../src/engine/dns/transport';
import { loadFixtureZones, startDnsServer, type DnsFixture } from '../../../support/dns-server';
import {
  makeTestPki,
  startDohFront,
  startDotFront,
  type EncryptedFront,
  type TestPki,
} from '../../../support/dns-encrypted';
import { describeTool, needTools } from '../../../support/reference-tools';
import { codeAndDetail as code } from '../../../support/settled';

describe('engine/dns over TLS and HTTPS', function () {
  this.timeout(30000);
  let pki: TestPki;
  let dns: DnsFixture;
  const fronts: EncryptedFront[] = [];
  let dot: EncryptedFront;
  let dotUntrusted: EncryptedFront;
  let doh: EncryptedFront;
  let dohUntrusted: EncryptedFront;
  let dohBroken: EncryptedFront;
  let options: DnsOptions;
  let plain: QueryResult;

  before(async function () {
    const { openssl } = needTools(this, 'openssl');
    console.log(`    ${describeTool(openssl, 'makes the test CA and certificates (req, x509)')}`);
    pki = makeTestPki();
    dns = await startDnsServer({ records: loadFixtureZones() });
    const upstream = { host: dns.host, port: dns.port };
    const good = { key: pki.key, cert: pki.cert };
    const bad = { key: pki.untrustedKey, cert: pki.untrustedCert };
    dot = await startDotFront(upstream, good);
    dotUntrusted = await startDotFront(upstream, bad);
    doh = await startDohFront(upstream, good);
    dohUntrusted = await startDohFront(upstream, bad);
    dohBroken = await startDohFront(upstream, { ...good, status: 500 });
    fronts.push(dot, dotUntrusted, doh, dohUntrusted, dohBroken);
    // dns.test and other.test are loopback names here; the CA is the test's own.
    options = {
      timeoutMs: 5000,
      tries: 1,
      ca: pki.ca,
      lookup: () => Promise.resolve(['127.0.0.1']),
    };
    plain = await query({ host: 'example.test', server: dns.address }, options);
  });

  after(async () => {
    closeTlsConnections();
    await closeHttpsClients();
    await Promise.all(fronts.map((f) => f.close()));
    await dns?.close();
  });

  describe('DNS over TLS', () => {
    it('answers all ten types as plain DNS does, over one TLS connection', async () => {
      const before = dot.connections;
      const r = await query(
        { host: 'example.test', server: `tls://dns.test:${dot.port}` },
        options,
      );
      assert.deepEqual(r, plain);
      assert.equal(dot.connections - before, 1, 'the ten questions share one connection');
    });

    it('keeps its connection between look-ups (RFC 7858 section 3.4)', async () => {
      await query(
        { host: 'example.test', types: ['A'], server: `tls://dns.test:${dot.port}` },
        options,
      );
      const before = dot.connections;
      for (let i = 0; i < 3; i++) {
        await query(
          { host: 'www.example.test', types: ['A', 'TXT'], server: `tls://dns.test:${dot.port}` },
          options,
        );
      }
      assert.equal(dot.connections, before, 'no new connection after the first');
      // Another trust is another connection: a kept one is never used unchecked.
      const { ca: _ca, ...system } = options;
      assert.match(
        await code(
          query(
            { host: 'example.test', types: ['A'], server: `tls://dns.test:${dot.port}` },
            system,
          ),
        ),
        /certificate/,
      );
    });

    it('takes an IP address the certificate names, and the default port form', async () => {
      const r = await query(
        { host: 'www.example.test', types: ['A'], server: `tls://127.0.0.1:${dot.port}` },
        options,
      );
      assert.deepEqual(
        r.records.map((x) => x.value),
        ['192.0.2.30', '192.0.2.31'],
      );
    });

    it('refuses a certificate no trusted CA signed', async () => {
      const got = await code(
        query(
          { host: 'example.test', types: ['A'], server: `tls://dns.test:${dotUntrusted.port}` },
          options,
        ),
      );
      assert.match(got, /^upstream_error: .*certificate/);
    });

    it('refuses a certificate for another name', async () => {
      const got = await code(
        query(
          { host: 'example.test', types: ['A'], server: `tls://other.test:${dot.port}` },
          options,
        ),
      );
      assert.match(got, /^upstream_error: .*certificate/);
    });

    it('refuses the test certificate when only the system CAs are trusted', async () => {
      const { ca: _ca, ...system } = options;
      const got = await code(
        query({ host: 'example.test', types: ['A'], server: `tls://dns.test:${dot.port}` }, system),
      );
      assert.match(got, /^upstream_error: .*certificate/);
    });
  });

  describe('DNS over HTTPS', () => {
    const url = () => `https://dns.test:${doh.port}/dns-query`;

    it('answers all ten types as plain DNS does, over HTTP/2', async () => {
      const r = await query({ host: 'example.test', server: url() }, options);
      assert.deepEqual(r, plain);
      assert.ok(doh.httpVersions.length >= 10);
      assert.ok(
        doh.httpVersions.every((v) => v === '2.0'),
        doh.httpVersions.join(),
      );
    });

    it('keeps its connection between look-ups', async () => {
      await query({ host: 'example.test', types: ['A'], server: url() }, options);
      const before = doh.connections;
      for (let i = 0; i < 3; i++) {
        await query({ host: 'www.example.test', types: ['A', 'TXT'], server: url() }, options);
      }
      assert.equal(doh.connections, before, 'no new connection after the first');
    });

    it('hands the DNSSEC engine a parsed reply with the DO bit asked', async () => {
      const reply = await exchange(
        { name: 'example.test', type: 'SOA' },
        { transport: 'https', address: '127.0.0.1', port: doh.port, url: url() },
        { ca: pki.ca, dnssecOk: true },
      );
      assert.equal(reply.transport, 'https');
      assert.equal(reply.parsed.answers[0]?.type, 6);
    });

    it('refuses a certificate no trusted CA signed', async () => {
      const got = await code(
        query(
          {
            host: 'example.test',
            types: ['A'],
            server: `https://dns.test:${dohUntrusted.port}/dns-query`,
          },
          options,
        ),
      );
      assert.match(got, /^upstream_error: .*certificate/);
    });

    it('an HTTP error status is upstream_error for every type', async () => {
      const got = await code(
        query(
          {
            host: 'example.test',
            types: ['A', 'MX'],
            server: `https://dns.test:${dohBroken.port}/dns-query`,
          },
          options,
        ),
      );
      assert.match(got, /^upstream_error/);
    });

    it('cancelling mid-question rejects with cancelled', async () => {
      const controller = new AbortController();
      controller.abort();
      const got = await code(
        query({ host: 'example.test', server: url() }, { ...options, signal: controller.signal }),
      );
      assert.match(got, /^cancelled/);
    });
  });
});
