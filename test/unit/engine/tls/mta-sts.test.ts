// MTA-STS (RFC 8461): the policy file's grammar, MX pattern matching, and the whole look-up
// against a loopback DNS fixture and a loopback HTTPS policy host presenting a certificate of
// the test PKI: each way a policy goes missing for senders is its own problem code.
import * as assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { createSecureContext } from 'node:tls';
import type { MtaStsResult } from '../../../../src/contract/shapes';
import {
  inspectMtaSts,
  mxMatchesPattern,
  parsePolicy,
  type MtaStsOptions,
} from '../../../../src/engine/tls/mta-sts';
import type { DomainService } from '../../../../src/contract/services';
import { renderText } from '../../../../src/cli/text/index';
import { makeGlyphs, makeStyle } from '../../../../src/cli/text/style';
import { EmbeddedServices } from '../../../../src/services/embedded';
import { mailSetup } from '../../../../src/services/mail';
import { serveSmtp } from '../../../support/tls-server';
import { startDnsServer, type DnsFixture } from '../../../support/dns-server';
import { OpenApiChecker } from '../../../support/openapi';
import { code } from '../../../support/settled';
import { makeTestPki, type Flaw, type Served, type TestPki } from '../../../support/tls-pki';

/**
 * Policy hosts whose certificate a sender must refuse (RFC 8461 section 3.3: valid for the
 * name, chaining to a trusted root, not expired), each serving a case of the test PKI; the
 * policy itself is good.
 */
const BAD_CERTIFICATES = {
  'mismatch.test': 'name_mismatch',
  'untrusted.test': 'untrusted_root_unsent',
  'expired.test': 'expired',
  'selfsigned.test': 'self_signed',
  'sha1.test': 'sha1',
  'weak.test': 'weak_key',
} as const;

/** The flawed leaves made for the policy hosts; the other two cases serve the PKI's own. */
const FLAWED: Record<string, Flaw> = Object.fromEntries(
  Object.entries(BAD_CERTIFICATES).flatMap(([domain, flaw]) =>
    flaw === 'name_mismatch' || flaw === 'self_signed' ? [] : [[`mta-sts.${domain}`, flaw]],
  ),
);

const GOOD_POLICY =
  'version: STSv1\r\nmode: enforce\r\nmx: mx1.shop.test\r\nmx: *.mail.shop.test\r\nmax_age: 604800\r\n';

describe('MTA-STS', () => {
  describe('the policy file (RFC 8461 section 3.2)', () => {
    it('reads version, mode, max_age and every mx line, CRLF or LF', () => {
      for (const text of [GOOD_POLICY, GOOD_POLICY.replace(/\r\n/g, '\n')]) {
        const { policy, problems } = parsePolicy(text);
        assert.deepEqual(policy, {
          version: 'STSv1',
          mode: 'enforce',
          max_age: 604800,
          mx: ['mx1.shop.test', '*.mail.shop.test'],
        });
        assert.deepEqual(problems, []);
      }
    });
    it('ignores unknown fields and keeps the first of a repeated one', () => {
      const { policy, problems } = parsePolicy(
        'version: STSv1\nmode: testing\nmode: enforce\nx-note: hi\nmx: a.test\nmax_age: 90000\n',
      );
      assert.equal(policy?.mode, 'testing');
      assert.deepEqual(problems, []);
    });
    it('names what is wrong: version, mode, max_age, mx, a line without a colon', () => {
      const codes = (text: string) => parsePolicy(text).problems.map((p) => p.code);
      assert.deepEqual(codes('version: STSv2\nmode: enforce\nmx: a.test\nmax_age: 90000'), [
        'policy_invalid',
      ]);
      // field names and values are case-sensitive
      assert.deepEqual(codes('version: STSv1\nmode: Enforce\nmx: a.test\nmax_age: 90000'), [
        'policy_invalid',
      ]);
      assert.deepEqual(codes('version: STSv1\nmode: enforce\nmx: a.test\nmax_age: 31557601'), [
        'policy_invalid',
      ]);
      assert.deepEqual(codes('version: STSv1\nmode: enforce\nmax_age: 90000'), ['policy_invalid']);
      assert.deepEqual(codes('version: STSv1\nmode: enforce\nmx: a b\nmax_age: 90000'), [
        'policy_invalid',
      ]);
      assert.deepEqual(codes('version: STSv1\nmode enforce\nmx: a.test\nmax_age: 90000'), [
        'policy_invalid',
        'policy_invalid',
      ]);
      assert.deepEqual(codes('version: STSv1\nmode: enforce\nmx: a.test\nmax_age: 3600'), [
        'max_age_short',
      ]);
      // mode none withdraws the policy: no mx needed, a short max_age is how it is withdrawn
      assert.deepEqual(codes('version: STSv1\nmode: none\nmax_age: 0'), []);
    });
    it('a page that is no policy at all is no policy', () => {
      assert.equal(parsePolicy('<html><body>hello</body></html>').policy, null);
    });
  });

  describe('mx patterns (RFC 8461 section 4.1)', () => {
    it('match the host itself, or one leftmost label under a *.', () => {
      assert.ok(mxMatchesPattern('mx1.shop.test', 'MX1.shop.test.'));
      assert.ok(mxMatchesPattern('*.mail.shop.test', 'a.mail.shop.test'));
      assert.ok(!mxMatchesPattern('*.mail.shop.test', 'a.b.mail.shop.test'));
      assert.ok(!mxMatchesPattern('*.mail.shop.test', 'mail.shop.test'));
      assert.ok(!mxMatchesPattern('mx1.shop.test', 'mx10.shop.test'));
    });
  });

  describe('the look-up over loopback', function () {
    this.timeout(60_000);
    let pki: TestPki;
    let dns: DnsFixture;
    let site: PolicySite;
    const schema = new OpenApiChecker();

    before(async function () {
      this.timeout(120_000);
      const domains = [
        'shop.test',
        'stray.test',
        'moved.test',
        'html.test',
        'big.test',
        'gone.test',
        ...Object.keys(BAD_CERTIFICATES),
      ];
      pki = makeTestPki({
        hostile: false,
        names: [
          ...domains.filter((d) => !(d in BAD_CERTIFICATES)).map((d) => `mta-sts.${d}`),
          'mx1.shop.test',
        ],
        flawed: FLAWED,
      });
      site = await servePolicies(pki);
      const txt = (name: string, text: string) => ({ name, type: 'TXT', data: [text] });
      dns = await startDnsServer({
        records: [
          ...domains.flatMap((d) => [
            { name: `mta-sts.${d}`, type: 'A', data: '127.0.0.1' },
            txt(`_mta-sts.${d}`, 'v=STSv1; id=20260101T000000'),
            { name: d, type: 'MX', data: { preference: 10, exchange: `mx1.${d}` } },
            { name: d, type: 'MX', data: { preference: 20, exchange: `b.mail.${d}` } },
          ]),
          {
            name: 'stray.test',
            type: 'MX',
            data: { preference: 30, exchange: 'backup.other.test' },
          },
          { name: 'mx1.shop.test', type: 'A', data: '127.0.0.1' },
          { name: 'b.mail.shop.test', type: 'A', data: '127.0.0.1' },
          { name: 'mta-sts.plain.test', type: 'A', data: '127.0.0.1' },
          { name: 'plain.test', type: 'MX', data: { preference: 10, exchange: 'mx1.plain.test' } },
        ],
      });
    });
    after(async () => {
      await dns?.close();
      await site?.close();
      pki?.close();
    });

    const look = (host: string, extra: MtaStsOptions = {}): Promise<MtaStsResult> =>
      inspectMtaSts(
        { host, server: dns.address },
        { extraCa: [pki.ca], policyPort: site.port, ...extra },
      );
    const codes = (r: MtaStsResult) => r.problems.map((p) => `${p.code}:${p.severity}`);

    it('a good policy covering every MX host: no problem, each MX with its pattern', async () => {
      const result = await look('shop.test');
      assert.deepEqual(codes(result), []);
      assert.equal(result.record, 'v=STSv1; id=20260101T000000');
      assert.equal(result.id, '20260101T000000');
      assert.equal(result.policy?.mode, 'enforce');
      assert.deepEqual(result.mx, [
        { host: 'mx1.shop.test', preference: 10, pattern: 'mx1.shop.test' },
        { host: 'b.mail.shop.test', preference: 20, pattern: '*.mail.shop.test' },
      ]);
      assert.equal(site.requests.at(-1), 'mta-sts.shop.test /.well-known/mta-sts.txt');
      const validate = schema.validator('#/components/schemas/MtaStsResult');
      assert.ok(validate(result), JSON.stringify(validate.errors));
    });

    it('an MX host no pattern matches is mx_not_covered, an error in enforce mode', async () => {
      const result = await look('stray.test');
      assert.deepEqual(codes(result), ['mx_not_covered:error']);
      assert.match(result.problems[0].message, /backup\.other\.test/);
      assert.equal(result.mx.find((m) => m.host === 'backup.other.test')?.pattern, null);
    });

    it('a redirect is not followed (section 3.3): policy_redirect, no policy', async () => {
      const result = await look('moved.test');
      assert.deepEqual(codes(result), ['policy_redirect:error']);
      assert.equal(result.policy, null);
      assert.equal(site.requests.filter((r) => r.includes('elsewhere')).length, 0);
    });

    it('a policy not served as text/plain is policy_media_type', async () => {
      assert.deepEqual(codes(await look('html.test')), ['policy_media_type:error']);
    });

    it('a policy over 64 KiB is cut off: policy_unavailable', async () => {
      const result = await look('big.test');
      assert.deepEqual(codes(result), ['policy_unavailable:error']);
      assert.match(result.problems[0].message, /64 KiB/);
    });

    it('a 404 is policy_unavailable', async () => {
      const result = await look('gone.test');
      assert.deepEqual(codes(result), ['policy_unavailable:error']);
      assert.match(result.problems[0].message, /HTTP 404/);
    });

    it('a policy host whose certificate does not validate is policy_certificate_invalid', async () => {
      // the same hosts without the test root among the trusted CAs
      const result = await look('shop.test', { extraCa: [] });
      assert.deepEqual(codes(result), ['policy_certificate_invalid:error']);
      assert.equal(result.policy, null);
    });

    for (const [domain, served] of Object.entries(BAD_CERTIFICATES)) {
      it(`a policy host with a certificate a sender refuses (${served}) is policy_certificate_invalid, no policy`, async () => {
        const before = site.requests.length;
        const result = await look(
          domain,
          domain === 'weak.test' ? { policyPort: site.rsaPort } : {},
        );
        assert.deepEqual(codes(result), ['policy_certificate_invalid:error']);
        assert.equal(result.policy, null);
        assert.deepEqual(result.mx, []);
        // refused in the handshake: no request reached the policy host
        assert.equal(site.requests.length, before);
      });
    }

    it('no _mta-sts record: no policy, and nothing is fetched', async () => {
      const before = site.requests.length;
      const result = await look('plain.test');
      assert.equal(result.record, null);
      assert.equal(result.policy, null);
      assert.deepEqual(result.problems, []);
      assert.equal(site.requests.length, before);
    });

    it('server mode: a policy host at a loopback address is blocked_target, no request made', async () => {
      const before = site.requests.length;
      // allowed by the operator (allowCidrs): fetched as usual
      const allowed = await look('shop.test', { blockPrivate: true, allowCidrs: ['127.0.0.0/8'] });
      assert.equal(allowed.policy?.mode, 'enforce');
      assert.equal(site.requests.length, before + 1);
      // not allowed: refused before any connection
      assert.equal(await code(look('shop.test', { blockPrivate: true })), 'blocked_target');
      assert.equal(site.requests.length, before + 1);
    });

    it('a policy host that never answers: upstream_timeout within the deadline', async () => {
      const started = Date.now();
      const pending = look('shop.test', { policyPort: site.silentPort, timeoutMs: 1500 });
      assert.equal(await code(pending), 'upstream_timeout');
      assert.ok(Date.now() - started < 2500, `took ${Date.now() - started} ms`);
    });

    it('the mail set-up: STARTTLS per MX host over loopback SMTP, the policy against them', async () => {
      const log: string[] = [];
      const good = await serveSmtp({ served: pki.leaves['mx1.shop.test'], log });
      const plain = await serveSmtp({ starttls: false });
      const embedded = new EmbeddedServices({ extraCa: [pki.ca] });
      // Port 25 and 443 are the protocol's; here each MX host's server and the policy host
      // listen where the loopback servers do.
      const domain: DomainService = {
        ...embedded,
        tls: (p, o) =>
          embedded.tls({ ...p, port: p.host === 'mx1.shop.test' ? good.port : plain.port }, o),
        mtaSts: (p, o) =>
          inspectMtaSts(p, { extraCa: [pki.ca], policyPort: site.port, signal: o?.signal }),
      };
      try {
        const setup = await mailSetup(domain, 'shop.test', { server: dns.address });
        assert.ok(Array.isArray(setup.transport));
        const [mx1, backup] = setup.transport;
        assert.equal(mx1.host, 'mx1.shop.test');
        assert.ok(!('error' in mx1.tls));
        assert.equal(mx1.tls.trusted, true);
        assert.equal(mx1.tls.starttls, 'smtp');
        assert.deepEqual(mx1.tls.problems, []);
        assert.ok(!('error' in backup.tls));
        assert.deepEqual(
          backup.tls.problems.map((p) => p.code),
          ['no_starttls'],
        );
        assert.equal(log[1], 'STARTTLS');
        const policy = setup.mta_sts_policy;
        assert.ok(policy !== undefined && !('error' in policy));
        assert.equal(policy.policy?.mode, 'enforce');
        const text = renderText('mail', setup, {
          style: makeStyle(false),
          glyphs: makeGlyphs(true),
          now: new Date(),
          width: Infinity,
          params: { host: 'shop.test' },
        });
        assert.match(text, /mx1\.shop\.test \(10\) +STARTTLS TLSv1\.3.*trusted/);
        assert.match(text, /no_starttls/);
        assert.match(text, /b\.mail\.shop\.test matches \*\.mail\.shop\.test/);
      } finally {
        await good.close();
        await plain.close();
      }
    });

    it('bad input: a host that is not a name is invalid_host', async () => {
      assert.equal(await code(look('a b')), 'invalid_host');
    });
  });
});

interface PolicySite {
  port: number;
  /** a port that accepts connections and never answers */
  silentPort: number;
  /** mta-sts.weak.test's, whose RSA key SNI cannot switch to */
  rsaPort: number;
  /** "host path" of each request */
  requests: string[];
  close(): Promise<void>;
}

/** One HTTPS server for every policy host (SNI picks the certificate); each domain a case. */
async function servePolicies(pki: TestPki): Promise<PolicySite> {
  const requests: string[] = [];
  // level 0, so that the weak key and the SHA-1 chain are served for the client to judge
  const context = (served: Served) => ({
    cert: served.chain,
    key: served.key,
    ciphers: 'DEFAULT:@SECLEVEL=0',
  });
  const policies = (req: IncomingMessage, res: ServerResponse) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    requests.push(`${host} ${req.url ?? ''}`);
    const domain = host.replace(/^mta-sts\./, '');
    if (req.url !== '/.well-known/mta-sts.txt') return void res.writeHead(404).end();
    switch (domain) {
      case 'moved.test':
        return void res.writeHead(301, { location: 'https://elsewhere.test/' }).end();
      case 'html.test':
        return void res.writeHead(200, { 'content-type': 'text/html' }).end(GOOD_POLICY);
      case 'big.test':
        return void res
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(GOOD_POLICY + `x-pad: ${'a'.repeat(70 * 1024)}\n`);
      case 'gone.test':
        return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      default:
        return void res
          .writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
          .end(GOOD_POLICY.replace(/shop\.test/g, domain));
    }
  };
  const server = createServer(
    {
      ...context(pki.leaves['mta-sts.shop.test']),
      SNICallback: (name, done) => {
        const served =
          name === 'mta-sts.mismatch.test'
            ? pki.cases.other_name
            : name === 'mta-sts.selfsigned.test'
              ? pki.cases.self_signed
              : pki.leaves[name];
        done(null, served ? createSecureContext(context(served)) : undefined);
      },
    },
    policies,
  );
  // node's SNI cannot turn this EC context into one with an RSA key: the weak key's own server
  const rsa = createServer(context(pki.leaves['mta-sts.weak.test']), policies);
  await new Promise<void>((resolve) => rsa.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // a TCP listener that never speaks TLS
  const muted = new Set<Socket>();
  const mute = createTcpServer((socket) => {
    muted.add(socket);
    socket.on('close', () => muted.delete(socket));
  });
  await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    silentPort: (mute.address() as AddressInfo).port,
    rsaPort: (rsa.address() as AddressInfo).port,
    requests,
    close: async () => {
      server.closeAllConnections();
      rsa.closeAllConnections();
      for (const socket of muted) socket.destroy();
      await Promise.all([
        new Promise((resolve) => server.close(resolve)),
        new Promise((resolve) => rsa.close(resolve)),
        new Promise((resolve) => mute.close(resolve)),
      ]);
    },
  };
}
