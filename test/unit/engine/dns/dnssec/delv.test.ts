// The validator against BIND's delv on a private signed hierarchy served by Knot on loopback
// (test/support/dnssec-hierarchy.ts): same trust anchor, same server, same question, and the
// verdict must be the same. Spelled-out expectations per zone keep the comparison honest (two
// validators failing the same way would otherwise agree).
import assert from 'node:assert/strict';
import { queryWithDnssec } from '../../../../../src/engine/dns/dnssec/index';
import type { QueryResult } from '../../../../../src/contract/shapes';
import { main } from '../../../../../src/cli/main';
import { PIPE } from '../../../cli/run';
import { EmbeddedServices } from '../../../../../src/services/embedded';
import { startTestServer } from '../../../../support/serve';
import {
  CROSS_ZONE_ALIASES,
  startHierarchy,
  ZONES,
  type Hierarchy,
} from '../../../../support/dnssec-hierarchy';
import {
  askDelv,
  askHostLens,
  DELV_SUITE_TOOLS,
  pool,
  type Verdict,
} from '../../../../support/delv';
import { describeTool, needTools } from '../../../../support/reference-tools';

/** What each zone's answers must come out as (delv must agree). */
const EXPECTED: Record<string, Verdict> = {
  'tld.': 'secure',
  'ecdsa.tld.': 'secure',
  'sub.ecdsa.tld.': 'secure',
  'rsa.tld.': 'secure',
  'ed.tld.': 'secure',
  'p384.tld.': 'secure',
  'rsa512.tld.': 'secure',
  'ed448.tld.': 'secure',
  'sha1.tld.': 'secure',
  'expired.tld.': 'bogus',
  'mismatch.tld.': 'bogus',
  'tampered.tld.': 'secure',
  'unsigned.tld.': 'insecure',
  'opt.': 'secure',
  'insecure.opt.': 'insecure',
  'signed.opt.': 'secure',
};

/**
 * Questions whose verdict differs from their zone's: a wildcard answer in an NSEC3 opt-out
 * zone, whose "this name does not exist" proof is an opt-out span (an unsigned delegation may
 * hide there), so it is insecure (RFC 5155 section 6; delv agrees).
 */
const EXCEPTIONS: Record<string, Verdict> = {
  'x.wild.opt. TXT': 'insecure',
  // The A record changed after signing; the alias leads to it.
  'www.tampered.tld. A': 'bogus',
  'alias.tampered.tld. A': 'bogus',
  // Aliases across zones take the worst zone on the way.
  'tampered-out.ecdsa.tld. A': 'bogus',
  'unsigned-out.ecdsa.tld. A': 'insecure',
};

interface Question {
  name: string;
  type: string;
  /** what the answer is, for the test title */
  what: string;
  zone: string;
}

function questionsFor(zone: string): Question[] {
  const q = (name: string, type: string, what: string): Question => ({ name, type, what, zone });
  return [
    q(zone, 'SOA', 'apex'),
    q(zone, 'MX', 'apex MX'),
    q(`www.${zone}`, 'A', 'A record'),
    q(`www.${zone}`, 'TXT', 'no data'),
    q(`nope.${zone}`, 'A', 'nonexistent name'),
    q(`deeper.nope.${zone}`, 'AAAA', 'nonexistent name two labels down'),
    q(`alias.${zone}`, 'A', 'CNAME to an A record'),
    q(`x.wild.${zone}`, 'TXT', 'wildcard answer'),
    q(`x.wild.${zone}`, 'A', 'wildcard without the type'),
    q(`b.${zone}`, 'A', 'empty non-terminal'),
    q(`big.${zone}`, 'TXT', 'answer over TCP'),
  ];
}

const QUESTIONS: Question[] = [
  { name: 'nope.', type: 'A', what: 'nonexistent TLD', zone: '.' },
  { name: 'www.nope.', type: 'AAAA', what: 'below a nonexistent TLD', zone: '.' },
  ...ZONES.filter((z) => z.name !== '.').flatMap((z) => questionsFor(z.name)),
  ...CROSS_ZONE_ALIASES.map(([zone, alias, target]) => ({
    name: `${alias}.${zone}`,
    type: 'A',
    what: `CNAME to ${target}`,
    zone,
  })),
];

describe('engine/dns/dnssec against delv on a signed hierarchy served by Knot', function () {
  this.timeout(120000);
  let h: Hierarchy;
  const delvSays = new Map<string, { verdict: Verdict; output: string }>();
  const weSay = new Map<string, QueryResult>();
  const key = (q: Question) => `${q.name} ${q.type}`;

  before(async function () {
    const tools = needTools(this, ...DELV_SUITE_TOOLS);
    console.log(
      `    ${describeTool(tools.delv, '-a <private root anchor> +root, against knotd over loopback')}; ` +
        `zones signed by dnssec-signzone ${tools['dnssec-signzone'].version}`,
    );
    h = await startHierarchy();
    const delv = tools.delv.path;
    const [fromDelv, fromUs] = await Promise.all([
      pool(QUESTIONS, 3, (q) => askDelv(delv, h, q)),
      pool(QUESTIONS, 3, (q) => askHostLens(h, q)),
    ]);
    QUESTIONS.forEach((q, i) => {
      delvSays.set(key(q), fromDelv[i]);
      weSay.set(key(q), fromUs[i]);
    });
  });

  after(async () => {
    await h?.close();
  });

  for (const q of QUESTIONS) {
    it(`${q.name} ${q.type} (${q.what} in ${q.zone}): the verdict equals delv's`, () => {
      const ours = weSay.get(key(q))!.dnssec!;
      const theirs = delvSays.get(key(q))!;
      assert.equal(ours.status, theirs.verdict, `ours: ${ours.reason}\ndelv:\n${theirs.output}`);
      const expected = EXCEPTIONS[key(q)] ?? EXPECTED[q.zone] ?? 'secure';
      assert.equal(ours.status, expected, ours.reason);
    });
  }

  it('names the failure: an expired signature and a DS without its key', () => {
    const expired = weSay.get('www.expired.tld. A')!.dnssec!;
    assert.match(expired.reason, /expired at 2020-02-01T00:00:00Z/);
    const mismatch = weSay.get('www.mismatch.tld. A')!.dnssec!;
    assert.match(mismatch.reason, /no DNSKEY of mismatch\.tld\. matches/);
    const tampered = weSay.get('www.tampered.tld. A')!.dnssec!;
    assert.match(tampered.reason, /RRSIG over www\.tampered\.tld\. A .* does not verify/);
    const unsigned = weSay.get('www.unsigned.tld. A')!.dnssec!;
    assert.match(unsigned.reason, /unsigned\.tld\. is delegated from tld\. without a DS record/);
  });

  it('validates RSA/SHA-1 as delv does, and says the algorithm is deprecated', () => {
    const sha1 = weSay.get('www.sha1.tld. A')!.dnssec!;
    assert.equal(sha1.status, 'secure');
    assert.match(sha1.reason, /deprecated RSASHA1/);
    assert.doesNotMatch(weSay.get('www.ecdsa.tld. A')!.dnssec!.reason, /deprecated/);
  });

  it('still shows a bogus answer, clearly marked', () => {
    const r = weSay.get('www.expired.tld. A')!;
    assert.equal(r.dnssec!.status, 'bogus');
    assert.deepEqual(
      r.records.map((x) => x.value),
      ['192.0.2.1'],
    );
  });

  it('reports the chain from the root down, keys and signature windows included', () => {
    const r = weSay.get('www.sub.ecdsa.tld. A')!.dnssec!;
    assert.deepEqual(
      r.chain.map((l) => l.zone),
      ['.', 'tld.', 'ecdsa.tld.', 'sub.ecdsa.tld.'],
    );
    const tld = r.chain[1];
    assert.equal(tld.dnskey[0].algorithm, 8);
    assert.equal(tld.dnskey[0].bits, 2048);
    assert.equal(tld.dnskey[0].flags, 257);
    assert.equal(tld.ds[0].key_tag, tld.dnskey[0].key_tag);
    assert.equal(tld.rrsig?.key_tag, tld.dnskey[0].key_tag);
    assert.ok(Date.parse(tld.rrsig.inception) < Date.now());
    assert.ok(Date.parse(tld.rrsig.expiration) > Date.now());
    assert.deepEqual(
      r.signatures?.map((s) => [s.name, s.type, s.signer]),
      [['www.sub.ecdsa.tld.', 'A', 'sub.ecdsa.tld.']],
    );
  });

  it('answers several types with one verdict, the worst of them', async () => {
    const env = { HOSTLENS_TRUST_ANCHORS: h.anchorsFile };
    const r = await queryWithDnssec(
      { host: 'www.ecdsa.tld', types: ['A', 'AAAA', 'TXT'], server: h.server },
      { env },
    );
    assert.equal(r.dnssec!.status, 'secure');
    assert.deepEqual(
      r.records.map((x) => x.type),
      ['A', 'AAAA'],
    );
  });

  it('names the owner of records reached through a CNAME and lists the chain, as a plain look-up does', async () => {
    const env = { HOSTLENS_TRUST_ANCHORS: h.anchorsFile };
    const r = await queryWithDnssec(
      { host: 'alias.ecdsa.tld', types: ['A'], server: h.server },
      { env },
    );
    assert.deepEqual(
      r.chain?.map((c) => [c.name, c.type, c.value]),
      [['alias.ecdsa.tld.', 'CNAME', 'www.ecdsa.tld.']],
    );
    assert.ok(r.records.length > 0);
    assert.ok(r.records.every((x) => x.type === 'A' && x.name === 'www.ecdsa.tld.'));
  });

  describe('through every front end (anchors from the environment)', () => {
    let saved: string | undefined;
    beforeEach(() => {
      saved = process.env.HOSTLENS_TRUST_ANCHORS;
      process.env.HOSTLENS_TRUST_ANCHORS = h.anchorsFile;
    });
    afterEach(() => {
      if (saved === undefined) delete process.env.HOSTLENS_TRUST_ANCHORS;
      else process.env.HOSTLENS_TRUST_ANCHORS = saved;
    });

    it('GET /query?dnssec=true over HTTP gives the same JSON as the embedded service', async () => {
      const embedded = new EmbeddedServices();
      const server = await startTestServer(embedded);
      try {
        const params = { host: 'www.mismatch.tld', types: ['A', 'MX'], server: h.server };
        const direct = await embedded.domain.query({ ...params, dnssec: true });
        const remote = await server.client.domain.query({ ...params, dnssec: true });
        assert.equal(direct.dnssec?.status, 'bogus');
        assert.deepEqual(withoutTtl(remote), withoutTtl(direct));
        const plain = await server.client.domain.query(params);
        assert.equal(plain.dnssec, undefined);
      } finally {
        await server.close();
      }
    });

    it('hostlens query --dnssec prints the verdict beside the records', async () => {
      const out: string[] = [];
      // eslint-disable-next-line @typescript-eslint/unbound-method
      const write = process.stdout.write;
      process.stdout.write = (chunk: string) => (out.push(String(chunk)), true);
      let code: number;
      try {
        code = await main(
          ['query', '--host', 'www.ed.tld', '--types', 'A', '--server', h.server, '--dnssec'],
          PIPE,
        );
      } finally {
        process.stdout.write = write;
      }
      assert.equal(code, 0);
      const r = JSON.parse(out.join('')) as QueryResult;
      assert.equal(r.dnssec?.status, 'secure');
      assert.equal(r.dnssec?.chain.at(-1)?.dnskey[0].algorithm, 15);
    });
  });
});

/** TTLs count down between two asks of a cache; everything else must match. */
function withoutTtl(r: QueryResult): QueryResult {
  return { ...r, records: r.records.map(({ ttl: _ttl, ...rest }) => rest) };
}
