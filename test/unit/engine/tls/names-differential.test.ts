// Whether a certificate is for a host, against `openssl verify -verify_hostname` / `-verify_ip`
// (the check `openssl s_client -verify_hostname` makes) on generated certificates: DNS names and
// CNs with stars at every place of a label and in several labels, IDNA labels, names that end in
// a dot, upper case, IP names, certificates without a DNS name (the CN fallback); hosts made
// from them to match and to almost match. Every host is checked against every certificate: one
// openssl run per host. SEED=N runs another set.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalizeHost } from '../../../../src/engine/names';
import { certificateNames } from '../../../../src/engine/certificate-names';
import { seeded } from '../../../support/prng';
import { describeTool, needTools } from '../../../support/reference-tools';

const SEED = Number(process.env.SEED ?? 1);
const CERTIFICATES = 40;
const HOSTS_EACH = 3;

const LABELS = ['www', 'a', 'mail', 'xn--bcher-kva', 'foo', 'Foo', 'b-c', 'x1', 'co', 'uk', 'test'];
const PARTIAL_STARS = ['f*', '*o', 'w*w', 'xn--*', '*x', 'a*b'];
const FILLS = ['www', 'a', 'foo', 'xn--bcher-kva', 'fo', 'f', 'wxw', 'ab', 'a.b'];

interface Generated {
  subject: string;
  altNames: string;
  names: string[];
}

function generator(seed: number) {
  const random = seeded(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const name = () =>
    Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(LABELS)).join('.');
  const pattern = (): string => {
    const r = random();
    const base = name();
    if (r < 0.3) return base;
    if (r < 0.5) return `*.${base}`;
    if (r < 0.6) return `${pick(PARTIAL_STARS)}.${base}`;
    if (r < 0.65) return `${base}.`;
    if (r < 0.7) return `*.${base}.`;
    if (r < 0.75) return base.toUpperCase();
    if (r < 0.85) return pick(['*', `*.*.${base}`, `${base}.*`, `a.*.${base}`, `**.${base}`]);
    return pick(['127.0.0.1', '192.0.2.1', '::1', '2001:db8::1']);
  };
  // Each subject is made unique by its O (which no name check reads): openssl verify looks a
  // self-signed certificate up in the store by its subject.
  const certificate = (serial: number): Generated => {
    const altNames = Array.from({ length: Math.floor(random() * 4) }, pattern);
    const r = random();
    const cns = r < 0.75 ? [pattern()] : r < 0.9 ? [] : [pattern(), pattern()];
    return {
      subject: `/O=Certificate ${serial}${cns.map((cn) => `/CN=${cn}`).join('')}`,
      altNames: altNames.map((n) => (isIP(n) ? `IP:${n}` : `DNS:${n}`)).join(','),
      names: [...altNames, ...cns],
    };
  };
  const host = (names: string[]): string => {
    const from = names.length > 0 ? pick(names) : 'example.test';
    const r = random();
    if (r < 0.5) return from.replace(/\*/g, () => pick(FILLS));
    if (r < 0.6) return `${pick(LABELS)}.${from.replace(/^\*\./, '')}`;
    if (r < 0.7) return from.replace(/^\*\./, '');
    if (r < 0.8) return pick(['127.0.0.1', '192.0.2.1', '::1', '0:0::1', '2001:DB8:0::1']);
    if (r < 0.9) return from.toUpperCase().replace(/\*/g, 'W');
    return `${name()}${pick(['', '.'])}`;
  };
  return { certificate, host };
}

/** The host as the TLS look-up hands it on (hostOf in engine/tls/index.ts), or undefined. */
function lookedUp(host: string): string | undefined {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) !== 0) return bare;
  try {
    return normalizeHost(bare);
  } catch {
    return undefined;
  }
}

describe('engine/tls certificate names against openssl verify -verify_hostname/-verify_ip', function () {
  this.timeout(120_000);
  let dir: string;
  let openssl: string;

  before(function () {
    const tools = needTools(this, 'openssl');
    openssl = tools.openssl.path;
    console.log(
      `      ${describeTool(tools.openssl, `verify -verify_hostname / -verify_ip, seed ${SEED}`)}`,
    );
    dir = mkdtempSync(join(tmpdir(), 'hostlens-names-'));
    execFileSync(
      openssl,
      ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'key.pem'],
      {
        cwd: dir,
        stdio: 'pipe',
      },
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A certificate with these names, made by openssl itself; undefined when it refuses them. */
  function make(g: Generated, file: string): X509Certificate | undefined {
    const args = ['req', '-new', '-x509', '-key', 'key.pem', '-days', '30', '-subj', g.subject];
    args.push('-multivalue-rdn', '-out', file);
    if (g.altNames !== '') args.push('-addext', `subjectAltName=${g.altNames}`);
    try {
      execFileSync(openssl, args, { cwd: dir, stdio: 'pipe' });
    } catch {
      return undefined;
    }
    return new X509Certificate(readFileSync(join(dir, file)));
  }

  /**
   * The files openssl verifies for `host` (all of them when it is undefined). The certificates
   * are self-signed and all in the trust store, so with every file verifying without a host, a
   * file that fails with one fails its name.
   */
  function opensslAccepts(files: string[], host?: string): Set<string> {
    const check =
      host === undefined ? [] : [isIP(host) === 0 ? '-verify_hostname' : '-verify_ip', host];
    const run = spawnSync(openssl, ['verify', ...check, '-CAfile', 'all.pem', ...files], {
      cwd: dir,
      encoding: 'utf8',
    });
    const accepted = new Set<string>();
    for (const m of run.stdout.matchAll(/^(\S+): OK$/gm)) accepted.add(m[1]);
    const failed = [...run.stderr.matchAll(/^error (\S+): verification failed$/gm)].length;
    assert.equal(accepted.size + failed, files.length, `openssl verify said: ${run.stderr}`);
    return accepted;
  }

  it(`gives openssl's verdict on every generated host against each of ${CERTIFICATES} generated certificates`, () => {
    const { certificate, host } = generator(SEED);
    const made: Array<{ file: string; cert: X509Certificate; g: Generated }> = [];
    const hosts = new Set<string>();
    for (let i = 0; i < CERTIFICATES; i++) {
      const g = certificate(i);
      const file = `cert${i}.pem`;
      const cert = make(g, file);
      if (cert === undefined) continue;
      made.push({ file, cert, g });
      for (let j = 0; j < HOSTS_EACH; j++) {
        const asked = lookedUp(host(g.names));
        if (asked !== undefined) hosts.add(asked);
      }
    }
    const files = made.map((m) => m.file);
    writeFileSync(join(dir, 'all.pem'), files.map((f) => readFileSync(join(dir, f))).join(''));
    assert.equal(
      opensslAccepts(files).size,
      files.length,
      'every certificate verifies without a name',
    );
    const differences: string[] = [];
    let matched = 0;
    for (const asked of hosts) {
      const accepted = opensslAccepts(files, asked);
      matched += accepted.size;
      for (const { file, cert, g } of made) {
        const ours = certificateNames(cert, asked);
        if (ours !== accepted.has(file)) {
          differences.push(
            `${asked} against ${g.subject} ${g.altNames}: ours ${ours}, openssl ${!ours}`,
          );
        }
      }
    }
    const pairs = hosts.size * made.length;
    console.log(
      `      ${hosts.size} hosts x ${made.length} certificates: openssl matched ${matched} of ${pairs} pairs`,
    );
    assert.deepEqual(differences, []);
    // the generator must reach both verdicts often, or the comparison says little
    assert.ok(
      matched >= hosts.size / 4 && pairs - matched >= pairs / 2,
      `${matched} of ${pairs} matched`,
    );
  });

  describe('the cases where node:tls checkServerIdentity disagreed with openssl', () => {
    const cases: Array<[string, Generated, string, boolean]> = [
      [
        'a star inside a label is no wildcard',
        { subject: '/CN=w*w.example.test', altNames: 'DNS:w*w.example.test', names: [] },
        'wxw.example.test',
        false,
      ],
      [
        'a DNS name that ends in a dot names no host',
        { subject: '/O=x', altNames: 'DNS:*.example.test.', names: [] },
        'www.example.test',
        false,
      ],
      [
        'a star at the end of the label is one',
        { subject: '/O=x', altNames: 'DNS:w*.example.test', names: [] },
        'wxw.example.test',
        true,
      ],
      [
        'the CN counts when the only names are addresses',
        { subject: '/CN=www.example.test', altNames: 'IP:192.0.2.1', names: [] },
        'www.example.test',
        true,
      ],
      [
        'an address matches an IP name, not a CN that spells it',
        { subject: '/CN=192.0.2.1', altNames: '', names: [] },
        '192.0.2.1',
        false,
      ],
    ];
    cases.forEach(([what, g, asked, expected], i) => {
      it(`${what}: ${asked} against ${g.altNames || g.subject}`, () => {
        const file = `case${i}.pem`;
        const cert = make(g, file);
        assert.ok(cert, 'openssl made the certificate');
        writeFileSync(join(dir, 'all.pem'), readFileSync(join(dir, file)));
        assert.equal(opensslAccepts([file], asked).has(file), expected, 'openssl');
        assert.equal(certificateNames(cert, asked), expected, 'ours');
      });
    });
  });
});
