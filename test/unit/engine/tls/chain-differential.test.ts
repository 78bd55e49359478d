// `trusted` against openssl s_client -verify_return_error -verify_hostname on generated chains:
// for each case an intermediate under the trusted root or a stranger root, a CA or not, and a
// leaf under it, each on a key of four (EC P-256, P-384, RSA 2048, RSA 1024), signed with SHA-256
// or SHA-1, valid, expired or not yet valid, the leaf for TLS servers or for clients only; sent
// with its intermediate, alone, or with the root too; asked by its name or another. SEED=N draws
// other chains.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectTls } from '../../../../src/engine/tls/index';
import { startDnsServer, type DnsFixture } from '../../../support/dns-server';
import { seeded } from '../../../support/prng';
import { describeTool, needTools, type ReferenceTool } from '../../../support/reference-tools';
import { certificateWorkbench, type Served } from '../../../support/tls-pki';
import { serveTls } from '../../../support/tls-server';

const SEED = Number(process.env.SEED ?? 1);
const CASES = 40;

const KEYS: Record<string, string[]> = {
  ec256: ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'],
  ec384: ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-384'],
  rsa2048: ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048'],
  rsa1024: ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024'],
};

interface Case {
  served: Served;
  /** what the case is made of, for the report */
  made: string;
}

describe('engine/tls trusted against openssl s_client on generated chains', function () {
  this.timeout(300_000);
  let dir: string;
  let caFile: string;
  let ca: string;
  let cases: Case[];
  let dns: DnsFixture;
  let openssl: ReferenceTool;

  before(async function () {
    openssl = needTools(this, 'openssl').openssl;
    dir = mkdtempSync(join(tmpdir(), 'hostlens-chains-'));
    const wb = certificateWorkbench(dir);
    for (const [name, args] of Object.entries(KEYS)) {
      execFileSync(openssl.path, ['genpkey', ...args, '-out', `${name}.key`], {
        cwd: dir,
        stdio: 'pipe',
      });
    }
    wb.root('trusted_root', 'Chain Test Root');
    wb.root('stranger_root', 'Chain Stranger Root');
    caFile = wb.file('trusted_root.pem');
    ca = wb.read('trusted_root.pem');

    const random = seeded(SEED);
    const pick = <T>(weighted: Array<[T, number]>): T => {
      let r = random() * weighted.reduce((sum, [, w]) => sum + w, 0);
      for (const [value, w] of weighted) if ((r -= w) < 0) return value;
      return weighted[weighted.length - 1][0];
    };
    const now = Date.now();
    const dates = (when: 'valid' | 'expired' | 'not yet valid') =>
      when === 'valid'
        ? { start: wb.utc(now - wb.day), end: wb.utc(now + 300 * wb.day) }
        : when === 'expired'
          ? { start: wb.utc(now - 60 * wb.day), end: wb.utc(now - 30 * wb.day) }
          : { start: wb.utc(now + 30 * wb.day), end: wb.utc(now + 300 * wb.day) };
    const keyOf = () =>
      pick<string>([
        ['ec256', 8],
        ['ec384', 2],
        ['rsa2048', 3],
        ['rsa1024', 1],
      ]);
    const md = () =>
      pick<string>([
        ['sha256', 12],
        ['sha1', 1],
      ]);
    const validity = () =>
      pick<'valid' | 'expired' | 'not yet valid'>([
        ['valid', 16],
        ['expired', 1],
        ['not yet valid', 1],
      ]);

    cases = [];
    for (let i = 0; i < CASES; i++) {
      const issuer = pick([
        ['trusted_root', 10],
        ['stranger_root', 1],
      ]);
      const inter = {
        key: keyOf(),
        md: md(),
        when: validity(),
        ext: pick<'ca_ext' | 'leaf'>([
          ['ca_ext', 16],
          ['leaf', 1],
        ]),
      };
      wb.sign(`inter${i}`, issuer, `/CN=Chain ${i} Intermediate`, {
        keyFile: `${inter.key}.key`,
        md: inter.md,
        ext: inter.ext,
        ...dates(inter.when),
      });
      const name = `leaf${i}.chain.test`;
      const leaf = {
        key: keyOf(),
        md: md(),
        when: validity(),
        ext: pick<'leaf' | 'client_leaf'>([
          ['leaf', 16],
          ['client_leaf', 1],
        ]),
      };
      wb.sign(`leaf${i}`, `inter${i}`, `/CN=${name}`, {
        san: `DNS:${name}`,
        keyFile: `${leaf.key}.key`,
        md: leaf.md,
        ext: leaf.ext,
        ...dates(leaf.when),
      });
      const sent = pick<'chain' | 'leaf alone' | 'chain and root'>([
        ['chain', 8],
        ['leaf alone', 1],
        ['chain and root', 1],
      ]);
      const chain =
        wb.read(`leaf${i}.pem`) +
        (sent === 'leaf alone' ? '' : wb.read(`inter${i}.pem`)) +
        (sent === 'chain and root' ? wb.read(`${issuer}.pem`) : '');
      const asked = random() < 0.9 ? name : `other${i}.chain.test`;
      cases.push({
        served: { chain, key: wb.read(`leaf${i}.key`), host: asked },
        made:
          `${asked}: intermediate under ${issuer} (${inter.key} ${inter.md} ${inter.when} ${inter.ext}), ` +
          `leaf (${leaf.key} ${leaf.md} ${leaf.when} ${leaf.ext}), ${sent} sent`,
      });
    }
    dns = await startDnsServer({
      records: cases.map((c) => ({ name: c.served.host, type: 'A', data: '127.0.0.1' })),
    });
  });
  after(async () => {
    await dns?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** openssl's verdict: exit 0 when the handshake passed verification of chain and name. */
  const opensslTrusts = (port: number, host: string): Promise<boolean> =>
    new Promise((resolve) => {
      const args = ['s_client', '-connect', `127.0.0.1:${port}`, '-servername', host];
      args.push('-verify_hostname', host, '-verify_return_error', '-CAfile', caFile);
      const child = execFile(openssl.path, args, { timeout: 10_000 }, (err) =>
        resolve(err === null),
      );
      child.stdin?.end();
    });

  it(`trusted equals openssl's verdict on ${CASES} generated chains`, async () => {
    console.log(
      `      ${describeTool(openssl, `s_client -verify_return_error -verify_hostname, seed ${SEED}`)}`,
    );
    const differences: string[] = [];
    let trusted = 0;
    for (const c of cases) {
      const server = await serveTls(c.served);
      try {
        const result = await inspectTls(
          { host: c.served.host, port: String(server.port), server: dns.address },
          { extraCa: [ca] },
        );
        const theirs = await opensslTrusts(server.port, c.served.host);
        if (theirs) trusted++;
        if (result.trusted !== theirs) {
          const codes = result.problems.map((p) => p.code).join(', ');
          differences.push(`${c.made}: ours ${result.trusted} (${codes}), openssl ${theirs}`);
        }
      } finally {
        await server.close();
      }
    }
    console.log(`      openssl trusted ${trusted} of ${CASES} chains`);
    assert.deepEqual(differences, []);
    assert.ok(trusted >= CASES / 10 && trusted <= CASES - CASES / 10, `${trusted} trusted`);
  });
});
