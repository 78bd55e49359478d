// The TLS inspection against a PKI made at test time (test/support/tls-pki.ts), each case on
// its own loopback server: the problem codes each case must raise, the trusted verdict equal
// to `openssl s_client -verify_return_error -verify_hostname` on every case, SMTP STARTTLS,
// and hostile servers, each a coded error within the deadline.
import * as assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LookupError } from '../../../../src/contract/errors';
import type { TlsResult } from '../../../../src/contract/shapes';
import { inspectTls, type TlsOptions } from '../../../../src/engine/tls/index';
import { startDnsServer, type DnsFixture } from '../../../support/dns-server';
import {
  CASES,
  makeTestPki,
  opensslVersion,
  type CaseName,
  type TestPki,
} from '../../../support/tls-pki';
import {
  serveGarbage,
  serveSilence,
  serveSmtp,
  serveTls,
  type Listening,
} from '../../../support/tls-server';
import { code } from '../../../support/settled';
import { OpenApiChecker } from '../../../support/openapi';

/** The codes each case must raise (and no other error). */
const EXPECTED: Record<CaseName, { trusted: boolean; codes: string[] }> = {
  good: { trusted: true, codes: [] },
  expired: { trusted: false, codes: ['expired'] },
  not_yet_valid: { trusted: false, codes: ['not_yet_valid'] },
  other_name: { trusted: false, codes: ['name_mismatch'] },
  inner_wildcard: { trusted: false, codes: ['name_mismatch'] },
  self_signed: { trusted: false, codes: ['self_signed'] },
  missing_intermediate: { trusted: false, codes: ['incomplete_chain'] },
  weak_key: { trusted: false, codes: ['weak_key'] },
  sha1: { trusted: false, codes: ['sha1_signature'] },
  expires_soon: { trusted: true, codes: ['expires_soon'] },
  untrusted_root: { trusted: false, codes: ['untrusted'] },
  untrusted_root_unsent: { trusted: false, codes: ['untrusted'] },
};

/** `openssl verify` of a leaf with the rest of a chain as -untrusted: null when it verifies. */
function opensslVerify(dir: string, caFile: string, chain: string): string | null {
  const [leaf, ...rest] = chain.match(
    /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n/g,
  )!;
  const leafFile = join(dir, 'verify-leaf.pem');
  const restFile = join(dir, 'verify-rest.pem');
  writeFileSync(leafFile, leaf);
  writeFileSync(restFile, rest.join(''));
  try {
    execFileSync(
      'openssl',
      ['verify', '-CAfile', caFile, ...(rest.length > 0 ? ['-untrusted', restFile] : []), leafFile],
      { stdio: 'pipe' },
    );
    return null;
  } catch (err) {
    return (
      String((err as { stdout?: Buffer }).stdout ?? '') +
      String((err as { stderr?: Buffer }).stderr ?? '')
    );
  }
}

/** openssl's verdict: exit 0 when the handshake passed verification of chain and name. */
function opensslTrusts(pki: TestPki, port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = execFile(
      'openssl',
      [
        's_client',
        '-connect',
        `127.0.0.1:${port}`,
        '-servername',
        host,
        '-verify_hostname',
        host,
        '-verify_return_error',
        '-CAfile',
        pki.caFile,
      ],
      { timeout: 10_000 },
      (err) => resolve(err === null),
    );
    child.stdin?.end();
  });
}

describe('TLS inspection', function () {
  this.timeout(120_000);
  let pki: TestPki;
  let dns: DnsFixture;
  const schema = new OpenApiChecker();
  const options = (extra: TlsOptions = {}): TlsOptions => ({ extraCa: [pki.ca], ...extra });

  before(async function () {
    this.timeout(180_000);
    pki = makeTestPki();
    const hosts = [...CASES.map((c) => pki.cases[c].host), 'deep.test', 'huge.test', 'mx.test'];
    dns = await startDnsServer({
      records: [
        ...hosts.map((name) => ({ name, type: 'A', data: '127.0.0.1' })),
        { name: 'private.test', type: 'A', data: '10.1.2.3' },
        // RFC 8659 tree climbing: good.test has none of its own, test has one for the test CA;
        // other.test names a CA that did not issue its certificate.
        {
          name: 'test',
          type: 'CAA',
          data: { flags: 0, tag: 'issue', value: 'hostlenstest.example' },
        },
        {
          name: 'self.test',
          type: 'CAA',
          data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' },
        },
      ],
    });
  });
  after(async () => {
    await dns?.close();
    pki?.close();
  });

  const inspect = (port: number, host: string, extra: TlsOptions = {}, starttls?: 'smtp') =>
    inspectTls(
      { host, port: String(port), server: dns.address, ...(starttls ? { starttls } : {}) },
      options(extra),
    );

  describe('each case of the test PKI', () => {
    for (const name of CASES) {
      it(`${name}: ${EXPECTED[name].codes.join(', ') || 'no problem'}`, async () => {
        const served = pki.cases[name];
        const server = await serveTls(served);
        try {
          const result = await inspect(server.port, served.host);
          const errors: string[] = result.problems
            .filter((p) => p.severity === 'error')
            .map((p) => p.code);
          const all: string[] = result.problems.map((p) => p.code);
          for (const c of EXPECTED[name].codes)
            assert.ok(all.includes(c), `${c} in ${all.join(',')}`);
          for (const c of errors) assert.ok(EXPECTED[name].codes.includes(c), `unexpected ${c}`);
          assert.equal(result.trusted, EXPECTED[name].trusted);
          assert.equal(result.protocol, 'TLSv1.3');
          assert.equal(result.alpn, 'h2');
          const validate = schema.validator('#/components/schemas/TlsResult');
          assert.ok(validate(result), JSON.stringify(validate.errors));
        } finally {
          await server.close();
        }
      });
    }
  });

  it(`trusted equals openssl s_client -verify_return_error -verify_hostname on every case (${opensslVersion()})`, async () => {
    console.log(`      differential against ${opensslVersion()}`);
    const rows: string[] = [];
    for (const name of CASES) {
      const served = pki.cases[name];
      const server = await serveTls(served);
      try {
        const ours = (await inspect(server.port, served.host)).trusted;
        const theirs = await opensslTrusts(pki, server.port, served.host);
        rows.push(`${name}: hostlens ${ours} openssl ${theirs}`);
        assert.equal(ours, theirs, `${name}: hostlens says ${ours}, openssl ${theirs}`);
      } finally {
        await server.close();
      }
    }
    console.log(rows.map((r) => `        ${r}`).join('\n'));
  });

  it('incomplete_chain or untrusted: the missing certificate is what openssl verify needs to pass', async () => {
    // openssl verify says "unable to get local issuer certificate" (20) for both; which one the
    // certificate the chain lacks is shows in what makes it verify.
    const stranger = join(pki.dir, 'verify-stranger-root.pem');
    writeFileSync(stranger, pki.untrustedRoot);
    const intermediate = readFileSync(join(pki.dir, 'inter.pem'), 'utf8');
    const diagnosis = async (name: CaseName) => {
      const server = await serveTls(pki.cases[name]);
      try {
        const result = await inspect(server.port, pki.cases[name].host);
        return result.problems.map((p) => p.code).filter((c) => c !== 'caa_mismatch');
      } finally {
        await server.close();
      }
    };

    const missing = pki.cases.missing_intermediate.chain;
    assert.match(
      opensslVerify(pki.dir, pki.caFile, missing) ?? '',
      /error 20 .*unable to get local issuer certificate/,
    );
    // the intermediate the server left out completes it
    assert.equal(opensslVerify(pki.dir, pki.caFile, missing + intermediate), null);
    assert.deepEqual(await diagnosis('missing_intermediate'), ['incomplete_chain']);

    const unsent = pki.cases.untrusted_root_unsent.chain;
    assert.match(
      opensslVerify(pki.dir, pki.caFile, unsent) ?? '',
      /error 20 .*unable to get local issuer certificate/,
    );
    // sending the root does not complete it (error 19, self-signed root in the chain); only
    // trusting that root does
    assert.match(opensslVerify(pki.dir, pki.caFile, unsent + pki.untrustedRoot) ?? '', /error 19 /);
    assert.equal(opensslVerify(pki.dir, stranger, unsent), null);
    const problems = await diagnosis('untrusted_root_unsent');
    assert.deepEqual(problems, ['untrusted']);
  });

  it('lists the chain as sent: leaf then intermediate, the root from the store left out', async () => {
    const server = await serveTls(pki.cases.good);
    try {
      const result = await inspect(server.port, 'good.test');
      assert.deepEqual(
        result.chain.map((c) => c.subject),
        ['CN=good.test', 'CN=HostLens Test Intermediate'],
      );
      const [leaf] = result.chain;
      assert.deepEqual(leaf.dns_names, ['good.test']);
      assert.equal(leaf.key_type, 'EC');
      assert.equal(leaf.key_bits, 256);
      assert.equal(leaf.signature_algorithm, 'ecdsa-with-SHA256');
      assert.match(leaf.sha256, /^[0-9a-f]{64}$/);
      assert.ok(leaf.days_left >= 88 && leaf.days_left <= 90);
      assert.equal(result.address, '127.0.0.1');
    } finally {
      await server.close();
    }
  });

  it('reads the weak key and the SHA-1 signature as they are', async () => {
    for (const [name, field, value] of [
      ['weak_key', 'key_bits', 1024],
      ['sha1', 'signature_algorithm', 'sha1WithRSAEncryption'],
    ] as const) {
      const server = await serveTls(pki.cases[name]);
      try {
        const result = await inspect(server.port, pki.cases[name].host);
        if (field === 'key_bits') assert.equal(result.chain[0].key_bits, value);
        // the leaf is EC, signed by the EC intermediate with SHA-1
        else assert.equal(result.chain[0].signature_algorithm, 'ecdsa-with-SHA1');
      } finally {
        await server.close();
      }
    }
  });

  it('CAA: a CA the closest CAA set does not allow is caa_mismatch; one it allows is not', async () => {
    const self = await serveTls(pki.cases.self_signed);
    const good = await serveTls(pki.cases.good);
    try {
      const mismatch = await inspect(self.port, 'self.test');
      const problem = mismatch.problems.find((p) => p.code === 'caa_mismatch');
      assert.equal(problem?.severity, 'warning');
      assert.match(problem?.message ?? '', /letsencrypt\.org/);
      const allowed = await inspect(good.port, 'good.test');
      assert.ok(
        !allowed.problems.some((p) => p.code === 'caa_mismatch'),
        'test. allows the test CA',
      );
    } finally {
      await self.close();
      await good.close();
    }
  });

  it('SMTP STARTTLS: greeting, EHLO, STARTTLS, then the handshake; no ALPN', async () => {
    const log: string[] = [];
    const smtp = await serveSmtp({ served: { ...pki.cases.good, host: 'good.test' }, log });
    try {
      const result = await inspect(smtp.port, 'good.test', {}, 'smtp');
      assert.equal(result.trusted, true);
      assert.equal(result.starttls, 'smtp');
      assert.equal(result.alpn, '');
      assert.match(log[0], /^EHLO \[127\.0\.0\.1\]$/);
      assert.equal(log[1], 'STARTTLS');
    } finally {
      await smtp.close();
    }
  });

  it('SMTP without STARTTLS is no_starttls, an error, with no chain', async () => {
    const smtp = await serveSmtp({ starttls: false });
    try {
      const result: TlsResult = await inspect(smtp.port, 'mx.test', {}, 'smtp');
      assert.deepEqual(
        result.problems.map((p) => [p.code, p.severity]),
        [['no_starttls', 'error']],
      );
      assert.deepEqual(result.chain, []);
      assert.equal(result.trusted, false);
    } finally {
      await smtp.close();
    }
  });

  it('an SMTP server that refuses the session is upstream_error', async () => {
    const smtp = await serveSmtp({ greeting: 554 });
    try {
      assert.equal(await code(inspect(smtp.port, 'mx.test', {}, 'smtp')), 'upstream_error');
    } finally {
      await smtp.close();
    }
  });

  describe('hostile servers: a coded error within the deadline', () => {
    const within = async (server: Listening, host: string, expected: string, deadline = 3000) => {
      const started = Date.now();
      try {
        const err = await inspect(server.port, host, { timeoutMs: deadline }).then(
          () => undefined,
          (e: unknown) => e,
        );
        assert.ok(err instanceof LookupError, `a LookupError, got ${String(err)}`);
        assert.equal(err.code, expected, err.detail);
        assert.ok(Date.now() - started < deadline + 1000, `took ${Date.now() - started} ms`);
      } finally {
        await server.close();
      }
    };
    it('garbage instead of a handshake', async () =>
      within(await serveGarbage(), 'mx.test', 'upstream_error'));
    it('a server that never answers', async () =>
      within(await serveSilence(), 'mx.test', 'upstream_timeout', 1500));
    it('a 100-certificate chain', async () =>
      within(await serveTls(pki.deepChain), 'deep.test', 'response_too_large'));
    it('a 1 MB certificate', async () =>
      within(await serveTls(pki.hugeCertificate), 'huge.test', 'response_too_large'));
    it('a closed port', async () => {
      const server = await serveSilence();
      const port = server.port;
      await server.close();
      assert.equal(await code(inspect(port, 'mx.test')), 'upstream_error');
    });
  });

  describe('bad input', () => {
    it('a port that is not 1-65535 is invalid_argument', async () => {
      for (const port of ['0', '65536', 'https', '-1']) {
        assert.equal(
          await code(inspectTls({ host: 'good.test', port }, options())),
          'invalid_argument',
        );
      }
    });
    it('a starttls other than smtp is invalid_argument', async () => {
      assert.equal(
        await code(inspectTls({ host: 'good.test', starttls: 'imap' }, options())),
        'invalid_argument',
      );
    });
    it('a host that is not a name is invalid_host', async () => {
      assert.equal(await code(inspectTls({ host: 'a b' }, options())), 'invalid_host');
    });
    it('a name without an address is not_found', async () => {
      assert.equal(await code(inspect(443, 'nowhere.test')), 'not_found');
    });
    it('server mode: a loopback host is blocked_target, and no connection is made', async () => {
      const server = await serveTls(pki.cases.good);
      try {
        const blocked = inspectTls(
          { host: '127.0.0.1', port: String(server.port) },
          options({ blockPrivate: true }),
        );
        assert.equal(await code(blocked), 'blocked_target');
        // the nameserver allowed, the address its answer names is not
        const byName = inspectTls(
          { host: 'private.test', port: String(server.port), server: dns.address },
          options({ blockPrivate: true, allowCidrs: ['127.0.0.1/32'] }),
        );
        assert.equal(await code(byName), 'blocked_target');
        assert.equal(server.connections(), 0);
      } finally {
        await server.close();
      }
    });
    it('cancelled is cancelled', async () => {
      const server = await serveSilence();
      try {
        const controller = new AbortController();
        const pending = inspect(server.port, 'mx.test', { signal: controller.signal });
        setTimeout(() => controller.abort(), 100);
        assert.equal(await code(pending), 'cancelled');
      } finally {
        await server.close();
      }
    });
  });
});
