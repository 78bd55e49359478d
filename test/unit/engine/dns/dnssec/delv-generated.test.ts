// The validator against BIND's delv on a generated hierarchy: under a signed root and TLD, zones
// with an algorithm, NSEC or NSEC3 (salt, iterations, opt-out), a signature window long past, a
// DS of a key the zone does not use, a record changed after signing, or no signatures at all,
// some with a child zone of their own, all drawn from a seed; CNAMEs between them, to names that
// exist and to names that do not. Every zone is asked the same questions (the apex, an address,
// no data, a name that does not exist, a CNAME, a wildcard, an empty non-terminal, an answer over
// TCP, a CNAME leaving the zone) and the verdict must be delv's. SEED=N draws another hierarchy.
import assert from 'node:assert/strict';
import {
  askDelv,
  askHostLens,
  DELV_SUITE_TOOLS,
  pool,
  type Verdict,
} from '../../../../support/delv';
import {
  startHierarchy,
  type Algorithm,
  type Hierarchy,
  type ZoneSpec,
} from '../../../../support/dnssec-hierarchy';
import { seeded } from '../../../../support/prng';
import { describeTool, needTools } from '../../../../support/reference-tools';

const SEED = Number(process.env.SEED ?? 1);
const TLD = 'gen.';
const ZONE_COUNT = 6;

const ALGORITHMS: Algorithm[] = [
  'ECDSAP256SHA256',
  'ECDSAP384SHA384',
  'RSASHA256',
  'RSASHA512',
  'RSASHA1',
  'ED25519',
  'ED448',
];

/** The zones of one seed, parents before children, and the CNAMEs between them. */
function drawHierarchy(seed: number): ZoneSpec[] {
  const random = seeded(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const chance = (p: number) => random() < p;
  const zone = (name: string, signed: boolean, flaws = true): ZoneSpec => {
    if (!signed) return { name };
    const spec: ZoneSpec = { name, algorithm: pick(ALGORITHMS) };
    // RSASHA1 (5) predates NSEC3: its zones deny with NSEC (RFC 5155 section 2).
    if (chance(0.5) && spec.algorithm !== 'RSASHA1') {
      spec.nsec3 = {
        salt: pick(['-', 'ab', 'c0ffee', '00112233']),
        iterations: pick([0, 0, 1, 5]),
        optOut: chance(0.25),
      };
    }
    const flaw = flaws ? random() : 1;
    if (flaw < 0.1) spec.expired = true;
    else if (flaw < 0.2) spec.dsMismatch = true;
    else if (flaw < 0.3) spec.tampered = true;
    return spec;
  };
  // a flawed TLD would make every answer bogus
  const zones: ZoneSpec[] = [{ name: '.', algorithm: 'ECDSAP256SHA256' }, zone(TLD, true, false)];
  for (let i = 0; i < ZONE_COUNT; i++) {
    const name = `z${i}.${TLD}`;
    zones.push(zone(name, chance(0.85)));
    if (chance(0.3)) zones.push(zone(`sub.${name}`, chance(0.8)));
  }
  // CNAMEs out of each zone: to another zone's address, to a name that does not exist there,
  // and to a wildcard's name.
  const names = zones.filter((z) => z.name !== '.' && z.name !== TLD).map((z) => z.name);
  for (const z of zones.slice(2)) {
    z.extra = [
      `out IN CNAME www.${pick(names)}`,
      `gone IN CNAME nope.${pick(names)}`,
      `wildout IN CNAME x.wild.${pick(names)}`,
    ];
  }
  return zones;
}

interface Question {
  name: string;
  type: string;
  what: string;
}

function questionsFor(zones: ZoneSpec[]): Question[] {
  const questions: Question[] = [
    { name: `zz.${TLD}`, type: 'A', what: 'a name the TLD does not have' },
    { name: `www.${TLD}`, type: 'A', what: 'an address in the TLD' },
  ];
  for (const { name } of zones.slice(2)) {
    questions.push(
      { name, type: 'SOA', what: 'the apex' },
      { name: `www.${name}`, type: 'A', what: 'an address' },
      { name: `www.${name}`, type: 'TXT', what: 'no data' },
      { name: `nope.${name}`, type: 'A', what: 'a name that does not exist' },
      { name: `deeper.nope.${name}`, type: 'AAAA', what: 'two labels below one that does not' },
      { name: `alias.${name}`, type: 'A', what: 'a CNAME to an address' },
      { name: `x.wild.${name}`, type: 'TXT', what: 'a wildcard answer' },
      { name: `x.wild.${name}`, type: 'A', what: 'a wildcard without the type' },
      { name: `b.${name}`, type: 'A', what: 'an empty non-terminal' },
      { name: `big.${name}`, type: 'TXT', what: 'an answer over TCP' },
      { name: `out.${name}`, type: 'A', what: 'a CNAME into another zone' },
      { name: `gone.${name}`, type: 'A', what: 'a CNAME to a name that does not exist' },
      { name: `wildout.${name}`, type: 'TXT', what: "a CNAME to another zone's wildcard" },
    );
  }
  return questions;
}

/** A zone's flags, for the report. */
function describeZone(z: ZoneSpec): string {
  if (z.algorithm === undefined) return `${z.name} unsigned`;
  const denial = z.nsec3
    ? `NSEC3 ${z.nsec3.salt}/${z.nsec3.iterations}${z.nsec3.optOut ? ' opt-out' : ''}`
    : 'NSEC';
  const flaws = (['expired', 'dsMismatch', 'tampered'] as const).filter((f) => z[f] === true);
  return `${z.name} ${z.algorithm} ${denial}${flaws.length ? ` ${flaws.join(' ')}` : ''}`;
}

describe('engine/dns/dnssec against delv on a generated hierarchy', function () {
  this.timeout(300_000);
  let h: Hierarchy;
  let zones: ZoneSpec[];
  let questions: Question[];
  let delv: string;

  before(async function () {
    const tools = needTools(this, ...DELV_SUITE_TOOLS);
    delv = tools.delv.path;
    console.log(
      `      ${describeTool(tools.delv, `-a <private root anchor> +root, seed ${SEED}`)}`,
    );
    zones = drawHierarchy(SEED);
    questions = questionsFor(zones);
    h = await startHierarchy(zones);
  });
  after(async () => {
    await h?.close();
  });

  it('gives delv’s verdict on every question of every zone', async () => {
    const [theirs, ours] = await Promise.all([
      pool(questions, 3, (q) => askDelv(delv, h, q)),
      pool(questions, 3, (q) => askHostLens(h, q)),
    ]);
    const tally = new Map<Verdict, number>();
    const differences: string[] = [];
    questions.forEach((q, i) => {
      const status = ours[i].dnssec!.status;
      tally.set(theirs[i].verdict, (tally.get(theirs[i].verdict) ?? 0) + 1);
      if (status !== theirs[i].verdict) {
        differences.push(
          `${q.name} ${q.type} (${q.what}): ours ${status} (${ours[i].dnssec!.reason}), delv ${theirs[i].verdict}`,
        );
      }
    });
    console.log(`      ${zones.map(describeZone).join('; ')}`);
    console.log(
      `      ${questions.length} questions, delv: ${JSON.stringify(Object.fromEntries(tally))}`,
    );
    assert.deepEqual(differences, []);
  });
});
