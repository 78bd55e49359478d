// DANE against OpenSSL's own (openssl s_client -dane_tlsa_domain -dane_tlsa_rrdata) on generated
// TLSA sets: every usage (PKIX-TA, PKIX-EE, DANE-TA, DANE-EE), selector and matching type, data
// of the leaf, of an intermediate or root sent or not, of another PKI, or of nothing; against
// servers sending the usual chain, the leaf alone, the chain with its root, an expired leaf, and
// a chain under a root the store does not trust; asked by names the leaf has and has not. Each
// set is published in a signed zone served by Knot, so HostLens reads it as a user's look-up
// would (DNSSEC included), and openssl gets the same records on its command line. SEED=N runs
// another set.
//
// s_client runs with -dane_ee_no_namechecks: RFC 7671 section 5.1 has a DANE-EE(3) match ignore
// the certificate's names (OpenSSL checks them unless told, a guard against unknown key share
// in browsers), and HostLens follows the RFC.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import { inspectTls } from '../../../../src/engine/tls/index';
import { missingTool, startHierarchy, type Hierarchy } from '../../../support/dnssec-hierarchy';
import { seeded } from '../../../support/prng';
import { describeTool, needTools } from '../../../support/reference-tools';
import { makeTestPki, type Served, type TestPki } from '../../../support/tls-pki';
import { serveTls, type Listening } from '../../../support/tls-server';

const SEED = Number(process.env.SEED ?? 1);
const CASES = 60;
const ZONE = 'gen.tld';

/** Names the leaves are for: each server's leaf is for one of them, hosts are asked under each. */
const OK = `*.ok.${ZONE}`;
const OLD = `*.old.${ZONE}`;
const FAR = `*.far.${ZONE}`;
const SUFFIXES = ['ok', 'old', 'far', 'none'] as const;

interface Variant {
  name: string;
  /** the label under ZONE of the names its leaf is for */
  suffix: (typeof SUFFIXES)[number];
  served: Served;
  listening?: Listening;
}

interface Case {
  host: string;
  variant: Variant;
  records: string[];
  /** what each record's data is of, for the report */
  targets: string[];
}

const pemsOf = (text: string): X509Certificate[] =>
  (text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/g) ?? []).map(
    (pem) => new X509Certificate(pem),
  );

/** The TLSA data of a certificate for a selector and matching type. */
function associationData(cert: X509Certificate | undefined, selector: number, matching: number) {
  const selected =
    cert === undefined
      ? randomBytes(91)
      : selector === 0
        ? cert.raw
        : cert.publicKey.export({ type: 'spki', format: 'der' });
  const digest =
    matching === 0
      ? selected
      : matching === 1
        ? createHash('sha256').update(selected).digest()
        : createHash('sha512').update(selected).digest();
  return digest.toString('hex');
}

/**
 * Cases spelled out, each a disagreement the generated sets found: the variant (by index), the
 * records as [usage, selector, matching type, target], and the verdict both must give.
 */
const SPELLED: Array<{
  what: string;
  variant: number;
  records: Array<[number, number, number, string]>;
  match: boolean;
  /** what the mismatch's message must say */
  says?: RegExp;
}> = [
  {
    what: 'DANE-TA validates the path from its anchor: an expired leaf does not match',
    variant: 3,
    records: [[2, 1, 1, 'intermediate']],
    match: false,
  },
  {
    what: 'DANE-EE ignores the dates (RFC 7671 section 5.1): the expired leaf matches',
    variant: 3,
    records: [[3, 1, 1, 'leaf']],
    match: true,
  },
  {
    what: 'a DANE-TA record carrying the whole root is the anchor, though the server does not send it',
    variant: 0,
    records: [[2, 0, 0, 'root']],
    match: true,
  },
  {
    what: "a DANE-TA record carrying the intermediate's key anchors a leaf sent alone",
    variant: 1,
    records: [[2, 1, 0, 'intermediate']],
    match: true,
  },
  {
    what: 'a DANE-TA digest of the root the store holds and the server does not send',
    variant: 0,
    records: [[2, 1, 1, 'root']],
    match: false,
    says: /names the root .*cannot tell whether it does since the trust store holds it too/,
  },
  {
    what: 'a DANE-TA digest of a certificate not sent anchors nothing',
    variant: 1,
    records: [[2, 1, 1, 'intermediate']],
    match: false,
  },
  {
    what: 'digest agility (RFC 7671 section 9): a SHA2-256 record beside a SHA2-512 one is not used',
    variant: 0,
    records: [
      [3, 1, 1, 'leaf'],
      [3, 1, 2, 'nothing'],
    ],
    match: false,
  },
  {
    what: 'digest agility: a Full record is used beside any digest',
    variant: 0,
    records: [
      [3, 1, 0, 'leaf'],
      [3, 1, 2, 'nothing'],
    ],
    match: true,
  },
];

describe('engine/tls DANE against openssl s_client -dane_tlsa_rrdata', function () {
  this.timeout(300_000);
  let pki: TestPki;
  let dns: Hierarchy;
  let variants: Variant[];
  let sendsRoot: Variant;
  let cases: Case[];
  let spelled: Case[];
  let openssl: ReturnType<typeof needTools>['openssl'];

  before(async function () {
    const missing = missingTool();
    if (missing !== undefined) {
      console.log(`      skipped: ${missing} is not installed`);
      this.skip();
    }
    openssl = needTools(this, 'openssl').openssl;
    pki = makeTestPki({
      hostile: false,
      names: [OK],
      flawed: { [OLD]: 'expired', [FAR]: 'untrusted_root_unsent' },
    });
    const ok = pki.leaves[OK];
    const [okLeaf] = ok.chain.match(
      /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n/g,
    )!;
    variants = [
      { name: 'leaf and intermediate', suffix: 'ok', served: ok },
      { name: 'leaf alone', suffix: 'ok', served: { ...ok, chain: okLeaf } },
      {
        name: 'leaf, intermediate and root',
        suffix: 'ok',
        served: { ...ok, chain: ok.chain + pki.ca },
      },
      { name: 'expired leaf', suffix: 'old', served: pki.leaves[OLD] },
      { name: 'under an untrusted root, root unsent', suffix: 'far', served: pki.leaves[FAR] },
    ];
    for (const v of variants) v.listening = await serveTls(v.served);
    sendsRoot = variants[2];

    const [, intermediate] = pemsOf(ok.chain);
    const [, otherIntermediate] = pemsOf(pki.leaves[FAR].chain);
    const targets = (v: Variant): Array<[string, X509Certificate | undefined]> => [
      ['leaf', pemsOf(v.served.chain)[0]],
      ['intermediate', intermediate],
      ['root', new X509Certificate(pki.ca)],
      ['other intermediate', otherIntermediate],
      ['other root', new X509Certificate(pki.untrustedRoot)],
      ['nothing', undefined],
    ];
    const random = seeded(SEED);
    const below = (n: number) => Math.floor(random() * n);
    // Most records name a certificate of the server's chain and most hosts are names its leaf
    // is for, so that both verdicts come often.
    const TARGET_WEIGHTS = [0.35, 0.6, 0.75, 0.85, 0.9];
    const target = (v: Variant) => {
      const r = random();
      const k = TARGET_WEIGHTS.findIndex((w) => r < w);
      return targets(v)[k < 0 ? TARGET_WEIGHTS.length : k];
    };
    // Left out, as HostLens cannot decide them as openssl does (the issue's note says why):
    // - a DANE-TA record of the root when the server sends the root the store holds: node links
    //   the store's copy in the same place, so HostLens cannot tell it was sent;
    // - a PKIX-TA record carrying whole a certificate the server did not send: openssl adds it
    //   to the chain it validates; HostLens takes the handshake's PKIX verdict as it is;
    // - a DANE-TA record carrying whole an anchor the server did not send, beside a PKIX record
    //   (usage 0 or 1): openssl then builds the chain to its trust store and does not take the
    //   record's anchor, though alone it does; each record is an alternative (RFC 6698 section
    //   2.1.1, RFC 7671 section 5.2), and HostLens takes the anchor either way.
    const sentBy = (v: Variant, cert: X509Certificate | undefined) =>
      cert !== undefined && pemsOf(v.served.chain).some((c) => c.raw.equals(cert.raw));
    const record = (v: Variant) => {
      for (;;) {
        const usage = below(4);
        const selector = below(2);
        const matching = below(3);
        const [what, cert] = target(v);
        const storeRoot = usage === 2 && what === 'root' && v === sendsRoot;
        const unsentWhole = usage === 0 && selector === 0 && matching === 0 && !sentBy(v, cert);
        if (!storeRoot && !unsentWhole) return { usage, selector, matching, what, cert };
      }
    };
    cases = Array.from({ length: CASES }, (_, i) => {
      const variant = variants[below(variants.length)];
      let made;
      do {
        made = Array.from({ length: 1 + below(2) }, () => {
          const { usage, selector, matching, what, cert } = record(variant);
          const data = associationData(cert, selector, matching);
          const unsentAnchor = usage === 2 && matching === 0 && !sentBy(variant, cert);
          return { rdata: `${usage} ${selector} ${matching} ${data}`, what, usage, unsentAnchor };
        });
      } while (made.some((m) => m.unsentAnchor) && made.some((m) => m.usage < 2));
      const suffix = random() < 0.7 ? variant.suffix : SUFFIXES[below(SUFFIXES.length)];
      return {
        host: `c${i}.${suffix}.${ZONE}`,
        variant,
        records: made.map((m) => m.rdata),
        targets: made.map((m) => m.what),
      };
    });
    const find = (v: Variant, what: string) => targets(v).find(([name]) => name === what)![1];
    spelled = SPELLED.map((c, i) => {
      const variant = variants[c.variant];
      return {
        host: `k${i}.${variant.suffix}.${ZONE}`,
        variant,
        records: c.records.map(
          ([u, sel, m, what]) => `${u} ${sel} ${m} ${associationData(find(variant, what), sel, m)}`,
        ),
        targets: c.records.map((r) => r[3]),
      };
    });
    dns = await startHierarchy([
      { name: '.', algorithm: 'ECDSAP256SHA256' },
      { name: 'tld.', algorithm: 'ECDSAP256SHA256' },
      {
        name: `${ZONE}.`,
        algorithm: 'ECDSAP256SHA256',
        extra: [...cases, ...spelled].flatMap((c) => [
          `${c.host}. IN A 127.0.0.1`,
          ...c.records.map((r) => `_${c.variant.listening!.port}._tcp.${c.host}. IN TLSA ${r}`),
        ]),
      },
    ]);
  });
  after(async () => {
    for (const v of variants ?? []) await v.listening?.close();
    await dns?.close();
    pki?.close();
  });

  /** openssl's verdict: the handshake verified with these TLSA records for this name. */
  function opensslVerifies(c: Case): Promise<{ verified: boolean; said: string }> {
    return new Promise((resolve) => {
      const args = [
        's_client',
        '-connect',
        `127.0.0.1:${c.variant.listening!.port}`,
        '-servername',
        c.host,
        '-CAfile',
        pki.caFile,
        '-verify_return_error',
        '-dane_tlsa_domain',
        c.host,
        '-dane_ee_no_namechecks',
        ...c.records.flatMap((r) => ['-dane_tlsa_rrdata', r]),
      ];
      const child = execFile(openssl.path, args, { timeout: 10_000 }, (err, stdout, stderr) => {
        const said = `${stdout}${stderr}`;
        resolve({ verified: err === null && /Verification: OK/.test(said), said });
      });
      child.stdin?.end();
    });
  }

  /** Our DANE status for a case, looked up as a user's look-up would be, and its problems. */
  async function ours(c: Case): Promise<{ status?: string; problems: string }> {
    const result = await inspectTls(
      { host: c.host, port: String(c.variant.listening!.port), server: dns.server },
      { extraCa: [pki.ca], dns: { env: { HOSTLENS_TRUST_ANCHORS: dns.anchorsFile } } },
    );
    assert.equal(result.dane?.dnssec, 'secure', `${c.host}: ${JSON.stringify(result.dane)}`);
    return { status: result.dane?.status, problems: JSON.stringify(result.problems) };
  }

  SPELLED.forEach((spec, i) => {
    it(`${spec.what}: ${spec.match ? 'match' : 'no match'}, as openssl says`, async () => {
      const c = spelled[i];
      assert.equal((await opensslVerifies(c)).verified, spec.match, 'openssl');
      const { status, problems } = await ours(c);
      assert.equal(status === 'match', spec.match, 'ours');
      if (spec.says) assert.match(problems, spec.says);
    });
  });

  it(`gives openssl's verdict on ${CASES} generated TLSA sets`, async () => {
    console.log(`      ${describeTool(openssl, `s_client -dane_ee_no_namechecks, seed ${SEED}`)}`);
    const differences: string[] = [];
    let matched = 0;
    for (const c of cases) {
      const { status } = await ours(c);
      const theirs = await opensslVerifies(c);
      if (theirs.verified) matched++;
      if ((status === 'match') !== theirs.verified) {
        const why = theirs.said.match(/^(?:Verify return code|verify error):.*$/m)?.[0] ?? '';
        differences.push(
          `${c.host} (${c.variant.name}) ${c.records.map((r, k) => `${r.slice(0, 6)} of ${c.targets[k]}`).join(', ')}: ` +
            `ours ${status}, openssl ${theirs.verified ? 'verified' : why}`,
        );
      }
    }
    console.log(`      openssl verified ${matched} of ${CASES} sets`);
    assert.deepEqual(differences, []);
    assert.ok(matched >= CASES / 10 && matched <= (CASES * 5) / 6, `${matched} verified`);
  });
});
