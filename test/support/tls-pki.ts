// A test PKI made at test time with the openssl command line: a root CA, an intermediate, and
// leaf certificates for each case the TLS inspection must tell apart, each with the chain a
// server would send. Nothing is kept between runs; every run makes fresh keys.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Served {
  /** what the server sends: leaf first, then intermediates (PEM) */
  chain: string;
  key: string;
  /** the name a client asks for */
  host: string;
}

export const CASES = [
  'good',
  'expired',
  'not_yet_valid',
  'other_name',
  'inner_wildcard',
  'self_signed',
  'missing_intermediate',
  'weak_key',
  'sha1',
  'expires_soon',
  'untrusted_root',
  'untrusted_root_unsent',
] as const;
export type CaseName = (typeof CASES)[number];

/** A flaw a leaf made for a given name can carry (`flawed`), each as in the case of that name. */
export type Flaw = 'expired' | 'expires_soon' | 'weak_key' | 'sha1' | 'untrusted_root_unsent';

export interface TestPki {
  dir: string;
  /** the root to trust (PEM) */
  ca: string;
  caFile: string;
  /** the root of the untrusted_root cases, never in the trust store (PEM) */
  untrustedRoot: string;
  cases: Record<CaseName, Served>;
  /** a leaf for the address 127.0.0.1 (IP SAN), asked by address */
  loopback: Served;
  /** a good leaf (under the intermediate) for each name asked with `names`, and a flawed one
   * for each name asked with `flawed` */
  leaves: Record<string, Served>;
  /** aia.test, whose leaf names OCSP and CA Issuers URLs on ca-example.test (AIA) */
  aia: Served;
  /** a leaf under 99 intermediates: 100 certificates sent (with `hostile`) */
  deepChain: Served;
  /** a leaf with a 1 MiB extension (with `hostile`) */
  hugeCertificate: Served;
  close(): void;
}

function openssl(dir: string, args: string[], input?: string): string {
  return execFileSync('openssl', args, {
    cwd: dir,
    input,
    stdio: ['pipe', 'pipe', 'pipe'],
  }).toString();
}

export function opensslVersion(): string {
  return execFileSync('openssl', ['version']).toString().trim();
}

export interface PkiOptions {
  hostile?: boolean;
  names?: readonly string[];
  flawed?: Readonly<Record<string, Flaw>>;
}

/**
 * `hostile: false` leaves out the 100-certificate chain and the 1 MiB certificate; `names`
 * adds a good leaf for each (an MX host, an MTA-STS policy host); `flawed` a leaf with that
 * flaw for each name.
 */
/**
 * Making certificates in `dir` with openssl: keys, self-signed roots, and certificates signed by
 * `openssl ca` (which, unlike `x509 -req` of OpenSSL 3.0, takes explicit dates), each written as
 * NAME.key and NAME.pem. The test PKI is made with it, and so are the generated chains of the
 * chain differential.
 */
export function certificateWorkbench(dir: string) {
  const file = (name: string) => join(dir, name);
  const read = (name: string) => readFileSync(file(name), 'utf8');
  writeFileSync(
    file('ca.cnf'),
    [
      '[ca]',
      'default_ca = test_ca',
      '[test_ca]',
      `database = ${file('index.txt')}`,
      `new_certs_dir = ${dir}`,
      `serial = ${file('serial')}`,
      'default_md = sha256',
      'policy = any',
      'copy_extensions = copy',
      'unique_subject = no',
      '[any]',
      'commonName = supplied',
      '[leaf]',
      'basicConstraints = critical,CA:FALSE',
      'keyUsage = critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage = serverAuth',
      '[client_leaf]',
      'basicConstraints = critical,CA:FALSE',
      'keyUsage = critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage = clientAuth',
      '[ca_ext]',
      'basicConstraints = critical,CA:TRUE',
      'keyUsage = critical,keyCertSign,cRLSign',
      'subjectKeyIdentifier = hash',
      'authorityKeyIdentifier = keyid',
      '',
    ].join('\n'),
  );
  writeFileSync(file('index.txt'), '');
  writeFileSync(file('serial'), '1000\n');

  const ecKey = (name: string) =>
    openssl(dir, [
      'genpkey',
      '-algorithm',
      'EC',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-out',
      `${name}.key`,
    ]);
  const selfSigned = (name: string, subject: string, extensions: string[], days: number) => {
    ecKey(name);
    const exts = extensions.flatMap((e) => ['-addext', e]);
    openssl(dir, [
      'req',
      '-x509',
      '-new',
      '-key',
      `${name}.key`,
      '-out',
      `${name}.pem`,
      '-days',
      String(days),
      '-subj',
      subject,
      ...exts,
    ]);
  };
  const root = (name: string, cn: string) =>
    selfSigned(
      name,
      `/O=HostLens Test/CN=${cn}`,
      ['basicConstraints=critical,CA:TRUE', 'keyUsage=critical,keyCertSign,cRLSign'],
      3650,
    );
  /** `openssl ca` signs with explicit dates, which `x509 -req` of OpenSSL 3.0 cannot. */
  const sign = (
    name: string,
    issuer: string,
    subject: string,
    opts: {
      san?: string;
      /** more extensions for the request, copied into the certificate */
      addext?: string[];
      ext?: 'leaf' | 'client_leaf' | 'ca_ext';
      start?: string;
      end?: string;
      md?: string;
      keyArgs?: string[];
      /** a key already made in the folder, used instead of a new one */
      keyFile?: string;
    },
  ) => {
    if (opts.keyFile) copyFileSync(file(opts.keyFile), file(`${name}.key`));
    else if (opts.keyArgs) openssl(dir, ['genpkey', ...opts.keyArgs, '-out', `${name}.key`]);
    else ecKey(name);
    openssl(dir, [
      'req',
      '-new',
      '-key',
      `${name}.key`,
      '-out',
      `${name}.csr`,
      '-subj',
      subject,
      ...(opts.san ? ['-addext', `subjectAltName=${opts.san}`] : []),
      ...(opts.addext ?? []).flatMap((e) => ['-addext', e]),
    ]);
    openssl(dir, [
      'ca',
      '-batch',
      '-config',
      'ca.cnf',
      '-notext',
      '-cert',
      `${issuer}.pem`,
      '-keyfile',
      `${issuer}.key`,
      '-in',
      `${name}.csr`,
      '-out',
      `${name}.pem`,
      '-extensions',
      opts.ext ?? 'leaf',
      '-md',
      opts.md ?? 'sha256',
      ...(opts.start ? ['-startdate', opts.start] : []),
      ...(opts.end ? ['-enddate', opts.end] : ['-days', '90']),
    ]);
  };
  const utc = (ms: number) => new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z';
  const day = 86_400_000;

  return { file, read, ecKey, selfSigned, root, sign, utc, day };
}

export function makeTestPki({ hostile = true, names = [], flawed = {} }: PkiOptions = {}): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'hostlens-pki-'));
  const { file, read, ecKey, selfSigned, root, sign, utc, day } = certificateWorkbench(dir);

  root('ca', 'HostLens Test Root');
  sign('inter', 'ca', '/O=HostLens Test/CN=HostLens Test Intermediate', {
    ext: 'ca_ext',
    end: utc(Date.now() + 3000 * day),
  });
  const leaf = (name: string, host: string, opts: Parameters<typeof sign>[3] = {}) =>
    sign(name, 'inter', `/CN=${host}`, { san: `DNS:${host}`, ...opts });
  leaf('good', 'good.test');
  leaf('expired', 'expired.test', { start: '20200101000000Z', end: '20200201000000Z' });
  leaf('notyet', 'notyet.test', {
    start: utc(Date.now() + 400 * day),
    end: utc(Date.now() + 800 * day),
  });
  leaf('other', 'other.test');
  // a star inside the leftmost label, which OpenSSL's name check refuses (valid_star in
  // crypto/x509/v3_utl.c: "No 'foo*bar' wildcards") and node's tls.checkServerIdentity took
  leaf('inner_star', 'w*w.inner.test');
  leaf('weak', 'weak.test', { keyArgs: ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024'] });
  leaf('sha1', 'sha1.test', { md: 'sha1' });
  leaf('soon', 'soon.test', { end: utc(Date.now() + 10 * day) });
  sign('loop', 'inter', '/CN=loopback', { san: 'IP:127.0.0.1' });
  selfSigned('self', '/CN=self.test', ['subjectAltName=DNS:self.test'], 90);
  root('other_root', 'Unknown Root');
  sign('stranger', 'other_root', '/CN=stranger.test', { san: 'DNS:stranger.test' });
  sign('other_inter', 'other_root', '/O=HostLens Test/CN=Unknown Intermediate', {
    ext: 'ca_ext',
    end: utc(Date.now() + 3000 * day),
  });
  sign('estranged', 'other_inter', '/CN=unsent-root.test', { san: 'DNS:unsent-root.test' });

  const withInter = (name: string, host: string): Served => ({
    chain: read(`${name}.pem`) + read('inter.pem'),
    key: read(`${name}.key`),
    host,
  });
  const cases: Record<CaseName, Served> = {
    good: withInter('good', 'good.test'),
    expired: withInter('expired', 'expired.test'),
    not_yet_valid: withInter('notyet', 'notyet.test'),
    // asked as good.test: the leaf names other.test
    other_name: withInter('other', 'good.test'),
    inner_wildcard: withInter('inner_star', 'wxw.inner.test'),
    self_signed: { chain: read('self.pem'), key: read('self.key'), host: 'self.test' },
    missing_intermediate: { chain: read('good.pem'), key: read('good.key'), host: 'good.test' },
    weak_key: withInter('weak', 'weak.test'),
    sha1: withInter('sha1', 'sha1.test'),
    expires_soon: withInter('soon', 'soon.test'),
    untrusted_root: {
      chain: read('stranger.pem') + read('other_root.pem'),
      key: read('stranger.key'),
      host: 'stranger.test',
    },
    // leaf and intermediate, the (unknown) root left out as TLS allows
    untrusted_root_unsent: {
      chain: read('estranged.pem') + read('other_inter.pem'),
      key: read('estranged.key'),
      host: 'unsent-root.test',
    },
  };

  const loopback = withInter('loop', '127.0.0.1');
  leaf('aia', 'aia.test', {
    addext: [
      'authorityInfoAccess=OCSP;URI:http://ocsp.ca-example.test/,caIssuers;URI:http://certs.ca-example.test/inter.der',
    ],
  });
  const aia = withInter('aia', 'aia.test');
  const flaws: Record<Flaw, Parameters<typeof sign>[3]> = {
    expired: { start: '20200101000000Z', end: '20200201000000Z' },
    expires_soon: { end: utc(Date.now() + 10 * day) },
    weak_key: { keyArgs: ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024'] },
    sha1: { md: 'sha1' },
    untrusted_root_unsent: {},
  };
  const leaves: Record<string, Served> = Object.fromEntries([
    ...names.map((name, i): [string, Served] => {
      leaf(`named${i}`, name);
      return [name, withInter(`named${i}`, name)];
    }),
    ...Object.entries(flawed).map(([name, flaw], i): [string, Served] => {
      const file = `flawed${i}`;
      if (flaw !== 'untrusted_root_unsent') {
        leaf(file, name, flaws[flaw]);
        return [name, withInter(file, name)];
      }
      sign(file, 'other_inter', `/CN=${name}`, { san: `DNS:${name}` });
      const served: Served = {
        chain: read(`${file}.pem`) + read('other_inter.pem'),
        key: read(`${file}.key`),
        host: name,
      };
      return [name, served];
    }),
  ]);
  const none: Served = { chain: '', key: '', host: '' };
  if (!hostile) {
    return {
      dir,
      ca: read('ca.pem'),
      caFile: file('ca.pem'),
      untrustedRoot: read('other_root.pem'),
      cases,
      loopback,
      leaves,
      aia,
      deepChain: none,
      hugeCertificate: none,
      close: () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  // 99 intermediates under the root, all on one key (a chain node links by name), then a leaf.
  let issuer = 'ca';
  const deep: string[] = [];
  ecKey('deep');
  for (let i = 1; i <= 99; i++) {
    const name = `deep${i}`;
    openssl(dir, [
      'req',
      '-new',
      '-key',
      'deep.key',
      '-out',
      `${name}.csr`,
      '-subj',
      `/CN=Deep ${i}`,
    ]);
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${issuer}.pem`,
      '-CAkey',
      issuer === 'ca' ? 'ca.key' : 'deep.key',
      '-out',
      `${name}.pem`,
      '-days',
      '30',
      '-set_serial',
      String(i + 5000),
      '-extfile',
      'ca.cnf',
      '-extensions',
      'ca_ext',
    ]);
    deep.unshift(read(`${name}.pem`));
    issuer = name;
  }
  openssl(dir, [
    'req',
    '-new',
    '-key',
    'deep.key',
    '-out',
    'deepleaf.csr',
    '-subj',
    '/CN=deep.test',
  ]);
  writeFileSync(file('deepleaf.ext'), 'subjectAltName=DNS:deep.test\n');
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'deepleaf.csr',
    '-CA',
    `${issuer}.pem`,
    '-CAkey',
    'deep.key',
    '-out',
    'deepleaf.pem',
    '-days',
    '30',
    '-set_serial',
    '9999',
    '-extfile',
    'deepleaf.ext',
  ]);
  const deepChain = {
    chain: read('deepleaf.pem') + deep.join(''),
    key: read('deep.key'),
    host: 'deep.test',
  };

  writeFileSync(
    file('huge.ext'),
    `subjectAltName=DNS:huge.test\n1.2.3.4=ASN1:UTF8String:${'a'.repeat(1 << 20)}\n`,
  );
  ecKey('huge');
  openssl(dir, ['req', '-new', '-key', 'huge.key', '-out', 'huge.csr', '-subj', '/CN=huge.test']);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'huge.csr',
    '-CA',
    'inter.pem',
    '-CAkey',
    'inter.key',
    '-out',
    'huge.pem',
    '-days',
    '30',
    '-set_serial',
    '7777',
    '-extfile',
    'huge.ext',
  ]);
  const hugeCertificate = {
    chain: read('huge.pem') + read('inter.pem'),
    key: read('huge.key'),
    host: 'huge.test',
  };

  return {
    dir,
    ca: read('ca.pem'),
    caFile: file('ca.pem'),
    untrustedRoot: read('other_root.pem'),
    cases,
    loopback,
    leaves,
    aia,
    deepChain,
    hugeCertificate,
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}
