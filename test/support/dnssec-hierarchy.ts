// A private signed DNS hierarchy on loopback: a root, two TLDs and zones under them, keys made
// and zones signed with BIND's dnssec-keygen / dnssec-signzone at the start of a run, served by
// one knotd. Used by the DNSSEC tests (against delv) and the DNSSEC bench.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answersSoa, findTool, knotConfig, launchKnotd, type KnotdProcess } from './knot';

export { findTool };

export type Algorithm =
  | 'ECDSAP256SHA256'
  | 'ECDSAP384SHA384'
  | 'RSASHA256'
  | 'RSASHA512'
  | 'RSASHA1'
  | 'ED25519'
  | 'ED448';

export interface ZoneSpec {
  name: string;
  /** absent: an unsigned zone */
  algorithm?: Algorithm;
  nsec3?: { salt: string; iterations: number; optOut?: boolean };
  /** the signatures' window ended long ago */
  expired?: boolean;
  /** the parent publishes the DS of a key this zone never uses */
  dsMismatch?: boolean;
  /** www's A record is changed after signing, so its RRSIG no longer verifies */
  tampered?: boolean;
  /** more records, zone-file lines relative to the zone */
  extra?: string[];
}

/** The hierarchy of the tests: every case of issue 14 in one tree. */
export const ZONES: ZoneSpec[] = [
  { name: '.', algorithm: 'ECDSAP256SHA256' },
  { name: 'tld.', algorithm: 'RSASHA256', nsec3: { salt: 'c0ffee', iterations: 0 } },
  { name: 'ecdsa.tld.', algorithm: 'ECDSAP256SHA256' },
  { name: 'sub.ecdsa.tld.', algorithm: 'ECDSAP256SHA256', nsec3: { salt: '-', iterations: 0 } },
  { name: 'rsa.tld.', algorithm: 'RSASHA256', nsec3: { salt: 'ab12', iterations: 2 } },
  { name: 'ed.tld.', algorithm: 'ED25519' },
  { name: 'p384.tld.', algorithm: 'ECDSAP384SHA384', nsec3: { salt: '-', iterations: 0 } },
  { name: 'rsa512.tld.', algorithm: 'RSASHA512' },
  { name: 'ed448.tld.', algorithm: 'ED448' },
  { name: 'sha1.tld.', algorithm: 'RSASHA1' },
  { name: 'expired.tld.', algorithm: 'ECDSAP256SHA256', expired: true },
  { name: 'mismatch.tld.', algorithm: 'ECDSAP256SHA256', dsMismatch: true },
  { name: 'tampered.tld.', algorithm: 'ED25519', tampered: true },
  { name: 'unsigned.tld.' },
  { name: 'opt.', algorithm: 'ED25519', nsec3: { salt: '-', iterations: 0, optOut: true } },
  { name: 'insecure.opt.' },
  { name: 'signed.opt.', algorithm: 'ECDSAP256SHA256', nsec3: { salt: '-', iterations: 0 } },
];

/** [zone, label, target]: CNAMEs that leave their zone. */
export const CROSS_ZONE_ALIASES: Array<[string, string, string]> = [
  ['ecdsa.tld.', 'out', 'www.rsa.tld.'],
  ['ecdsa.tld.', 'tampered-out', 'www.tampered.tld.'],
  ['ecdsa.tld.', 'unsigned-out', 'www.unsigned.tld.'],
  ['unsigned.tld.', 'out', 'www.ecdsa.tld.'],
];

export interface Hierarchy {
  /** "127.0.0.1:port" */
  server: string;
  host: string;
  port: number;
  /** a HOSTLENS_TRUST_ANCHORS file: the root's DS */
  anchorsFile: string;
  /** the same anchor for delv -a */
  delvAnchorsFile: string;
  zones: ZoneSpec[];
  close(): Promise<void>;
}

/** The tools the hierarchy needs, or the first one missing. */
export function missingTool(): string | undefined {
  return ['knotd', 'dnssec-keygen', 'dnssec-signzone', 'dnssec-dsfromkey'].find(
    (t) => findTool(t) === undefined,
  );
}

const rel = (name: string, zone: string) =>
  name === zone ? '@' : zone === '.' ? name : name.slice(0, -(zone.length + 1));

function children(zone: string, zones: ZoneSpec[]): ZoneSpec[] {
  return zones.filter((z) => {
    if (z.name === zone || z.name === '.') return false;
    const parent = z.name.slice(z.name.indexOf('.') + 1) || '.';
    return parent === zone;
  });
}

function zoneText(spec: ZoneSpec, zones: ZoneSpec[], dsOf: Map<string, string>): string {
  const z = spec.name;
  const ns = z === '.' ? 'ns.root-servers.invalid.' : `ns.${z}`;
  const lines = [
    '$TTL 300',
    `@ IN SOA ${ns} hostmaster.${z === '.' ? 'root-servers.invalid.' : z} 1 3600 600 86400 300`,
    `@ IN NS ${ns}`,
  ];
  if (z !== '.') {
    lines.push(
      'ns IN A 127.0.0.1',
      'www IN A 192.0.2.1',
      'www IN AAAA 2001:db8::1',
      '@ IN MX 10 mail',
      'mail IN A 192.0.2.2',
      '@ IN TXT "v=spf1 -all"',
      'alias IN CNAME www',
      '*.wild IN TXT "from a wildcard"',
      'a.b IN A 192.0.2.3',
      // More than a 1232-octet UDP answer holds: the validator must go on over TCP.
      ...Array.from({ length: 8 }, (_, i) => `big IN TXT "${String(i).repeat(200)}"`),
    );
  }
  lines.push(...(spec.extra ?? []));
  // Aliases into other zones: the validator follows them and checks each zone on the way.
  for (const [from, alias, target] of CROSS_ZONE_ALIASES) {
    if (from === z) lines.push(`${alias} IN CNAME ${target}`);
  }
  for (const child of children(z, zones)) {
    const label = rel(child.name, z);
    lines.push(`${label} IN NS ns.${child.name}`, `ns.${label} IN A 127.0.0.1`);
    const ds = dsOf.get(child.name);
    if (ds !== undefined) lines.push(ds);
  }
  return `${lines.join('\n')}\n`;
}

function keygen(dir: string, spec: ZoneSpec): string {
  const args = ['-q', '-K', dir, '-a', spec.algorithm!, '-f', 'KSK', '-n', 'ZONE'];
  if (spec.algorithm?.startsWith('RSA') === true) args.push('-b', '2048');
  // Keys of a zone signed in the past must have been active then.
  if (spec.expired === true) args.push('-P', '20190101000000', '-A', '20190101000000');
  return execFileSync(findTool('dnssec-keygen')!, [...args, spec.name], {
    encoding: 'utf8',
    // its deprecation warning for RSASHA1 is expected
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

function dsLine(dir: string, keyBase: string): string {
  return execFileSync(findTool('dnssec-dsfromkey')!, ['-2', join(dir, `${keyBase}.key`)], {
    encoding: 'utf8',
  }).trim();
}

function sign(dir: string, spec: ZoneSpec, file: string, keyBase: string): string {
  const out = `${file}.signed`;
  const args = ['-q', '-K', dir, '-d', dir, '-o', spec.name, '-f', out, '-z', '-x'];
  // -P: signzone's own check would refuse the expired signatures we want.
  if (spec.expired === true) args.push('-P', '-s', '20200101000000', '-e', '20200201000000');
  else args.push('-s', 'now-3600', '-e', 'now+2592000');
  if (spec.nsec3 !== undefined) {
    args.push('-3', spec.nsec3.salt, '-H', String(spec.nsec3.iterations));
    if (spec.nsec3.optOut === true) args.push('-A');
  }
  execFileSync(findTool('dnssec-signzone')!, [...args, file, join(dir, keyBase)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return out;
}

/** Keys, DS records and signed zone files, deepest zones first (a parent needs its children's DS). */
export function buildZones(
  dir: string,
  zones: ZoneSpec[] = ZONES,
): { files: Map<string, string>; rootDs: string } {
  const depth = (n: string) => (n === '.' ? 0 : n.split('.').length - 1);
  const order = [...zones].sort((a, b) => depth(b.name) - depth(a.name));
  const dsOf = new Map<string, string>();
  const files = new Map<string, string>();
  let rootDs = '';
  for (const spec of order) {
    const file = join(dir, `${spec.name === '.' ? 'root' : spec.name.slice(0, -1)}.zone`);
    let text = zoneText(spec, zones, dsOf);
    if (spec.algorithm === undefined) {
      writeFileSync(file, text);
      files.set(spec.name, file);
      continue;
    }
    const key = keygen(dir, spec);
    text += readFileSync(join(dir, `${key}.key`), 'utf8');
    writeFileSync(file, text);
    const signed = sign(dir, spec, file, key);
    if (spec.tampered === true) tamper(signed, spec.name);
    files.set(spec.name, signed);
    const published = spec.dsMismatch === true ? keygen(dir, spec) : key;
    dsOf.set(spec.name, dsLine(dir, published));
    if (spec.name === '.') rootDs = dsLine(dir, key);
  }
  return { files, rootDs };
}

/** Changes www's address in a signed zone file, leaving its RRSIG as it was. */
function tamper(file: string, zone: string): void {
  const owner = `www.${zone}`.replace(/\./g, '\\.');
  const pattern = new RegExp(`^(${owner}\\s+\\d+\\s+IN\\s+A\\s+)192\\.0\\.2\\.1$`, 'm');
  const text = readFileSync(file, 'utf8');
  if (!pattern.test(text)) throw new Error(`no A record of www.${zone} to tamper with`);
  writeFileSync(
    file,
    text.replace(pattern, (_all, head: string) => `${head}192.0.2.66`),
  );
}

/** Builds the hierarchy in a temporary folder and serves it with knotd on a loopback port. */
export async function startHierarchy(zones: ZoneSpec[] = ZONES): Promise<Hierarchy> {
  const dir = mkdtempSync(join(tmpdir(), 'hostlens-dnssec-'));
  const { files, rootDs } = buildZones(dir, zones);
  const anchorsFile = join(dir, 'anchors.txt');
  writeFileSync(anchorsFile, `; the private root of the DNSSEC tests\n${rootDs}\n`);
  const delvAnchorsFile = join(dir, 'delv-anchors.conf');
  const [, , , tag, alg, dtype, digest] = rootDs.split(/\s+/);
  writeFileSync(
    delvAnchorsFile,
    `trust-anchors {\n  . static-ds ${tag} ${alg} ${dtype} "${digest}";\n};\n`,
  );
  let knot: KnotdProcess;
  try {
    // Knot loads zones in the background: it serves once every zone answers its SOA
    knot = await launchKnotd(findTool('knotd')!, {
      dir,
      config: (port) =>
        knotConfig(
          dir,
          port,
          [...files].map(([domain, file]) => ({ domain, file })),
        ),
      serving: async (port) => {
        const answers = await Promise.all(zones.map((z) => answersSoa(port, z.name)));
        return answers.every(Boolean);
      },
      timeoutMs: 15000,
    });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    server: `127.0.0.1:${knot.port}`,
    host: '127.0.0.1',
    port: knot.port,
    anchorsFile,
    delvAnchorsFile,
    zones,
    close: async () => {
      await knot.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
