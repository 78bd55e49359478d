// The checks a server makes when it loads a zone (BIND's dns_master_load and zone integrity
// checks; Knot's semantic checks), kept up to date from record deltas: each owner's problems
// are cached and only owners an edit can affect are looked at again.
import { dsDigest, isSupportedDigest, keyTag, type DnskeyData } from '../dns/keys';
import { isAtOrBelow, parentKey } from '../dns/names';
import { TYPES } from '../dns/rdata/types';
import { findTarget, type ZoneIndex } from './find';
import { checkApexCds, checkOwnerRules, MAX_RRSET_OCTETS } from './owner-rules';
import { problem } from './problem';
import { sameData, type RecordRows } from './rows';
import type { SourceRange, ZoneFix, ZoneProblem, ZoneRecord } from './types';

/** Types that may sit beside a CNAME (RFC 2181 section 10.1, RFC 4035 section 2.5). */
const BESIDE_CNAME = new Set(['RRSIG', 'NSEC', 'KEY']);
/** Types whose records may legitimately differ in TTL within one owner and type. */
const OWN_TTL = new Set(['RRSIG']);
const OWN_TTL_CODES = new Set([TYPES.RRSIG.code]);

/** Owners with at most this many records have their RRsets compared pairwise. */
const SMALL_OWNER = 16;

const TARGET_CNAME: Record<string, { code: string; severity: 'error' | 'warning' }> = {
  NS: { code: 'ns-target-cname', severity: 'error' },
  MX: { code: 'mx-target-cname', severity: 'warning' },
  SRV: { code: 'srv-target-cname', severity: 'warning' },
};

// Type codes the indexes look at without making record objects, read once from the type table
// into module constants (the loops over every row compare them).
const A = TYPES.A.code;
const NS = TYPES.NS.code;
const CNAME = TYPES.CNAME.code;
const SOA = TYPES.SOA.code;
const MX = TYPES.MX.code;
const AAAA = TYPES.AAAA.code;
const SRV = TYPES.SRV.code;
const DNAME = TYPES.DNAME.code;
const DNSKEY = TYPES.DNSKEY.code;

/** What is wrong with where a record's target leads (lookUpTarget); none is undefined. */
type TargetTrouble =
  { kind: 'below-dname'; dname: string } | { kind: 'cname'; row: number } | { kind: 'no-address' };

/** Rows that went and came, and how far the lines after an edit moved. */
export interface RowDelta {
  removed: readonly number[];
  added: readonly number[];
  /** lines from `shiftFrom` on (numbered as before the edit) moved by `shift` */
  shiftFrom?: number;
  shift?: number;
}

/**
 * The zone's indexes over the rows (rows.ts), kept as chains of row ids in typed arrays: each
 * owner's rows, and the rows that point at each name. Records become objects only while the
 * checks of an owner look at them.
 */
export class ZoneChecks {
  /**
   * Whether checkOwner first asks plainlyClean (the usual case); the tests turn it off to hold
   * the records' checks to the same answers.
   */
  plainPath = true;

  /** per owner key (a name id): its first and last row, -1 when it has none */
  private head: Int32Array = new Int32Array(0);
  private tail: Int32Array = new Int32Array(0);
  /** per row: the next row of its owner, -1 after the last */
  private next: Int32Array = new Int32Array(0);
  /** per name id: the first NS, MX or SRV row pointing at it; per row: the next such row */
  private refHead: Int32Array = new Int32Array(0);
  private refNext: Int32Array = new Int32Array(0);
  private liveRows = 0;
  /** live rows whose owner is a wildcard (`*.x`) */
  private wildcardRows = 0;
  /** owners below the apex holding NS records: delegations */
  private readonly cuts = new Set<string>();
  /** owners holding DNAME records, and how many each (find.ts) */
  private readonly dnames = new Map<string, number>();
  private readonly soas = new Set<number>();
  private readonly ownerProblems = new Map<number, ZoneProblem[]>();
  private readonly scratch: ZoneProblem[] = [];

  constructor(
    readonly rows: RecordRows,
    readonly apex: string | undefined,
  ) {}

  /** Indexes and checks rows [from, to) of a zone loaded at once. */
  load(from: number, to: number): void {
    if (this.liveRows > 0) {
      const added: number[] = [];
      for (let row = from; row < to; row++) added.push(row);
      this.update({ removed: [], added });
      return;
    }
    // Into empty indexes: every owner is new, so each is checked once, and no set of a million
    // dirty owners is made.
    const none = new Set<number>();
    const cutsChanged = new Set<string>();
    this.grow();
    for (let row = from; row < to; row++) this.add(row, none, cutsChanged, false);
    this.checkEveryOwner();
  }

  /**
   * Checks every owner. A loop of its own: in load, V8 optimized the whole function while its
   * first loop ran, before this one had run, and threw that code away when it came here.
   */
  private checkEveryOwner(): void {
    for (let key = 0; key < this.head.length; key++)
      if (this.head[key] !== -1) this.checkOwner(key);
  }

  update(delta: RowDelta): void {
    if (delta.shift !== undefined && delta.shift !== 0) {
      this.shiftProblems(delta.shiftFrom ?? 0, delta.shift);
    }
    const dirty = new Set<number>();
    const cutsChanged = new Set<string>();
    // Loading into empty indexes makes every owner dirty as its records come: the owners that
    // point at a dirty name or sit below a new cut are all among them already.
    const firstLoad = this.liveRows === 0 && delta.removed.length === 0;
    this.grow();
    // the owners the delta touches, and whether each held records before it
    const heldBefore = new Map<number, boolean>();
    if (!firstLoad) {
      for (const rows of [delta.removed, delta.added]) {
        for (const row of rows) {
          const key = this.rows.key(row);
          if (!heldBefore.has(key)) heldBefore.set(key, this.head[key] !== -1);
        }
      }
    }
    for (const r of delta.removed) this.remove(r, dirty, cutsChanged);
    for (const r of delta.added) this.add(r, dirty, cutsChanged);
    if (!firstLoad) {
      // a wildcard or a DNAME that came or went changes what the names below it find (find.ts)
      for (const rows of [delta.removed, delta.added]) {
        for (const row of rows) {
          const name = this.rows.names.text[this.rows.key(row)];
          if (this.rows.typeCode(row) === DNAME) cutsChanged.add(name);
          else if (name.startsWith('*.')) cutsChanged.add(parentKey(name) ?? '.');
        }
      }
      // An owner that came or went makes its empty ancestors exist or not (empty non-terminals,
      // RFC 4592 section 2.2.2), and a wildcard answers only for names that do not: what the
      // names at and below them find moves (find.ts). Only a zone with wildcards can tell.
      if (this.wildcardRows > 0) {
        for (const [key, held] of heldBefore) {
          if (held === (this.head[key] !== -1)) continue;
          const top = this.topEmptyAncestor(this.rows.names.text[key]);
          if (top !== undefined) cutsChanged.add(top);
        }
      }
      this.spreadDirt(dirty, cutsChanged);
    }
    for (const key of dirty) this.checkOwner(key);
  }

  /**
   * The highest of the ancestors of `name` below the apex that hold no records, up to the first
   * that holds some: the empty non-terminals a name that comes or goes can make or unmake (some
   * may stay so through other names below them; their owners are looked at again all the same).
   */
  private topEmptyAncestor(name: string): string | undefined {
    if (this.apex === undefined) return undefined;
    let top: string | undefined;
    for (let up = parentKey(name); up !== undefined && up !== this.apex; up = parentKey(up)) {
      if (!isAtOrBelow(up, this.apex)) return undefined;
      const id = this.rows.names.find(up);
      if (id !== -1 && id < this.head.length && this.head[id] !== -1) break;
      top = up;
    }
    return top;
  }

  /** Room in the per-name and per-row arrays for every name and row the rows hold. */
  private grow(): void {
    const names = this.rows.names.size;
    if (this.head.length < names) {
      const size = Math.max(names, 1024, this.head.length * 2);
      this.head = grown(this.head, size);
      this.tail = grown(this.tail, size);
      this.refHead = grown(this.refHead, size);
    }
    const rows = this.rows.count;
    if (this.next.length < rows) {
      const size = Math.max(rows, 1024, this.next.length * 2);
      this.next = grown(this.next, size);
      this.refNext = grown(this.refNext, size);
    }
  }

  /** Moves the cached problems on lines from `from` on by `delta` (dirty owners' are redone). */
  private shiftProblems(from: number, delta: number): void {
    const moved = new Set<SourceRange>();
    const move = (r: SourceRange) => {
      if (r.line < from || moved.has(r)) return;
      moved.add(r);
      r.line += delta;
      if (r.endLine !== undefined) r.endLine += delta;
    };
    for (const list of this.ownerProblems.values()) {
      for (const p of list) {
        if (p.file !== undefined) continue;
        move(p.range);
        if (p.fix !== undefined) move(p.fix.range);
      }
    }
  }

  /**
   * Owners a change of others can affect: those pointing at a dirty name, and those below or
   * pointing below a cut, DNAME or wildcard that came or went.
   */
  private spreadDirt(dirty: Set<number>, cutsChanged: Set<string>): void {
    for (const key of [...dirty]) {
      for (let ref = this.refHead[key]; ref !== -1; ref = this.refNext[ref]) {
        dirty.add(this.rows.key(ref));
      }
    }
    if (cutsChanged.size > 0) {
      const names = this.rows.names.text;
      for (let key = 0; key < this.head.length; key++) {
        if (this.head[key] === -1) continue;
        for (const cut of cutsChanged) {
          if (names[key] !== cut && isAtOrBelow(names[key], cut)) dirty.add(key);
        }
      }
      // and the owners whose NS, MX or SRV records point below it, the apex's among them
      for (let target = 0; target < this.refHead.length; target++) {
        if (this.refHead[target] === -1) continue;
        for (const cut of cutsChanged) {
          if (!isAtOrBelow(names[target], cut)) continue;
          for (let ref = this.refHead[target]; ref !== -1; ref = this.refNext[ref]) {
            dirty.add(this.rows.key(ref));
          }
        }
      }
    }
  }

  /** Every problem, in line order. */
  problems(): ZoneProblem[] {
    const out = this.globalProblems();
    for (const list of this.ownerProblems.values()) for (const p of list) out.push(p);
    return out;
  }

  /** The records of an owner (a key, lower case), made for the caller. */
  recordsAt(key: string): ZoneRecord[] {
    const id = this.rows.names.find(key);
    return id === -1 || id >= this.head.length ? [] : this.recordsOf(id);
  }

  private recordsOf(key: number): ZoneRecord[] {
    const out: ZoneRecord[] = [];
    for (let row = this.head[key]; row !== -1; row = this.next[row]) {
      out.push(this.rows.record(row));
    }
    return out;
  }

  /** Whether an owner's rows are in file order (read from the rows: no record's range is made). */
  private inPositionOrder(key: number): boolean {
    let before = this.head[key];
    for (let row = this.next[before]; row !== -1; before = row, row = this.next[row]) {
      if (this.rows.startsAfter(before, row)) return false;
    }
    return true;
  }

  /** The first row of an owner (a name id, or -1) with a type for which `want` holds, or -1. */
  private findAt(key: number, want: (typeCode: number) => boolean): number {
    if (key === -1 || key >= this.head.length) return -1;
    for (let row = this.head[key]; row !== -1; row = this.next[row]) {
      if (want(this.rows.typeCode(row))) return row;
    }
    return -1;
  }

  private add(row: number, dirty: Set<number>, cutsChanged: Set<string>, mark = true): void {
    const { rows } = this;
    const key = rows.key(row);
    this.next[row] = -1;
    if (this.head[key] === -1) this.head[key] = row;
    else this.next[this.tail[key]] = row;
    this.tail[key] = row;
    this.liveRows++;
    if (isWildcard(rows.names.text[key])) this.wildcardRows++;
    if (mark) dirty.add(key);
    const code = rows.typeCode(row);
    if (code === SOA) this.soas.add(row);
    const target = rows.target(row);
    if (target !== -1 && (code === NS || code === MX || code === SRV)) {
      this.refNext[row] = this.refHead[target];
      this.refHead[target] = row;
      if (mark) dirty.add(target);
    }
    if (code === DNAME) {
      const name = rows.names.text[key];
      this.dnames.set(name, (this.dnames.get(name) ?? 0) + 1);
    }
    if (code === NS) {
      const name = rows.names.text[key];
      if (name !== this.apex && !this.cuts.has(name)) {
        this.cuts.add(name);
        cutsChanged.add(name);
      }
    }
  }

  private remove(row: number, dirty: Set<number>, cutsChanged: Set<string>): void {
    const { rows } = this;
    const key = rows.key(row);
    unlink(this.head, this.next, key, row, this.tail);
    this.liveRows--;
    if (isWildcard(rows.names.text[key])) this.wildcardRows--;
    dirty.add(key);
    this.soas.delete(row);
    const target = rows.target(row);
    if (target !== -1) {
      unlink(this.refHead, this.refNext, target, row);
      dirty.add(target);
    }
    const name = rows.names.text[key];
    if (rows.typeCode(row) === DNAME) {
      const left = (this.dnames.get(name) ?? 1) - 1;
      if (left === 0) this.dnames.delete(name);
      else this.dnames.set(name, left);
    }
    if (rows.typeCode(row) === NS && this.cuts.has(name) && this.findAt(key, isNs) === -1) {
      this.cuts.delete(name);
      cutsChanged.add(name);
    }
  }

  private globalProblems(): ZoneProblem[] {
    const out: ZoneProblem[] = [];
    const soas = [...this.soas].map((row) => this.rows.record(row));
    const apexSoas = soas.filter((r) => r.key === this.apex).sort(byPosition);
    for (const r of soas) {
      if (this.apex !== undefined && r.key !== this.apex) {
        out.push(
          problem('soa-not-at-apex', 'error', `SOA record not at the zone apex ${this.apex}`, r),
        );
      }
    }
    if (this.apex !== undefined && apexSoas.length === 0) {
      out.push({
        code: 'no-soa',
        severity: 'error',
        message: `the zone ${this.apex} has no SOA record at its apex`,
        range: { line: 0, start: 0, end: 0 },
      });
    }
    for (const r of apexSoas.slice(1)) {
      if (!sameData(r, apexSoas[0])) {
        out.push(problem('multiple-soa', 'error', 'more than one SOA record at the apex', r));
      }
    }
    if (
      this.apex !== undefined &&
      apexSoas.length > 0 &&
      this.findAt(this.rows.names.find(this.apex), isNs) === -1
    ) {
      out.push(problem('no-ns', 'error', `the zone ${this.apex} has no NS records`, apexSoas[0]));
    }
    return out;
  }

  private checkOwner(id: number): void {
    if (this.head[id] === -1) {
      this.ownerProblems.delete(id);
      return;
    }
    if (this.plainPath && this.plainlyClean(id)) {
      if (this.ownerProblems.size > 0) this.ownerProblems.delete(id);
      return;
    }
    const key = this.rows.names.text[id];
    const records = this.recordsOf(id);
    // Most owners have no problem: they are gathered in one reused list, copied only when some.
    const out = this.scratch;
    // setting the length is a call into the runtime: only when the last owner left some
    if (out.length > 0) out.length = 0;
    // Records arrive in file order, so an owner's are mostly in position order already (and
    // most owners hold one): sorted only when they are not, the sort being stable.
    const sorted = this.inPositionOrder(id) ? records : [...records].sort(byPosition);
    this.checkCname(key, sorted, out);
    this.checkRrsets(sorted, out);
    this.checkOccluded(key, sorted, out);
    checkOwnerRules(key, this.apex, sorted, out);
    checkKeyReferences(sorted, out, key === this.apex ? checkApexCds(sorted, out) : undefined);
    for (const r of sorted) this.checkTarget(r, out);
    // (a load into empty indexes finds most owners clean and none listed: no look-up for those)
    if (out.length === 0) {
      if (this.ownerProblems.size > 0) this.ownerProblems.delete(id);
    } else this.ownerProblems.set(id, out.slice());
  }

  /**
   * Whether an owner's rows show from their cells alone that none of the checks below can find
   * anything: then checkOwner makes no record object, list or sort for it. Most owners of a zone
   * are such (an address or a text or two, a delegation with its glue, a signed name), and a
   * record object per row was most of the checks' time and garbage. Each condition stands for
   * the check named beside it, and leans to caution: anything out of the way (the apex, a CNAME,
   * DNAME or DNSKEY, a crowded owner, any two records of a type that a check compares) answers
   * false and the records are looked at. The tests hold both ways to the same problems on
   * generated zones with every kind of problem (plain-path.test.ts).
   */
  private plainlyClean(id: number): boolean {
    const { rows, apex } = this;
    const key = rows.names.text[id];
    // the apex holds the SOA, NS and CDS rules (checkOwnerRules, checkApexCds)
    if (key === apex) return false;
    let count = 0;
    let octets = 0;
    let addressesOnly = true;
    for (let row = this.head[id]; row !== -1; row = this.next[row]) {
      const code = rows.typeCode(row);
      // checkCname, checkOwnerRules' DNAME rule, checkKeyReferences
      if (code === CNAME || code === DNAME || code === DNSKEY) return false;
      // checkRrsets compares a crowded owner with maps: left to it
      if (++count > SMALL_OWNER) return false;
      octets += rows.wireLength(row) + 2;
      if (code !== A && code !== AAAA) addressesOnly = false;
      // checkRrsets: any two records of a type that are equal, or differ in TTL where it counts
      for (let before = this.head[id]; before !== row; before = this.next[before]) {
        if (rows.typeCode(before) !== code) continue;
        if (rows.wireEquals(before, row)) return false;
        if (!OWN_TTL_CODES.has(code) && rows.ttl(before) !== rows.ttl(row)) return false;
      }
      // checkTarget
      const target = rows.target(row);
      if (target !== -1 && apex !== undefined) {
        const name = rows.names.text[target];
        if (repeatedOrigin(name, apex) !== undefined) return false;
        if (this.lookUpTarget(code, name, key) !== undefined) return false;
      }
    }
    // checkOwnerRules: an RRset too large for BIND
    if (octets > MAX_RRSET_OCTETS) return false;
    // checkOccluded: below a delegation only its glue is clean
    return (addressesOnly && this.isGlueName(id)) || this.cutAbove(key) === undefined;
  }

  private checkCname(key: string, records: ZoneRecord[], out: ZoneProblem[]): void {
    if (!hasType(records, 'CNAME')) return;
    const cnames = records.filter((r) => r.type === 'CNAME');
    const atApex = key === this.apex;
    // Every CNAME at the apex is wrong (SOA and NS live there); elsewhere the CNAMEs and every
    // record of other data that comes after one (BIND names the later lines too).
    let seenCname = false;
    for (const r of records) {
      if (r.type === 'CNAME') {
        if (atApex) {
          out.push(
            problem('cname-at-apex', 'error', 'CNAME at the zone apex (beside SOA and NS)', r),
          );
        } else if (records.some((x) => x.type !== 'CNAME' && !BESIDE_CNAME.has(x.type))) {
          out.push(
            problem('cname-and-other-data', 'error', `${r.owner} has a CNAME and other data`, r),
          );
        }
        seenCname = true;
      } else if (seenCname && !BESIDE_CNAME.has(r.type)) {
        out.push(
          problem('cname-and-other-data', 'error', `${r.owner} has a CNAME and other data`, r),
        );
      }
    }
    const first = cnames[0];
    for (const r of cnames.slice(1)) {
      if (!sameData(r, first)) {
        out.push(problem('multiple-cname', 'error', `${r.owner} has more than one CNAME`, r));
      }
    }
  }

  private checkRrsets(records: ZoneRecord[], out: ZoneProblem[]): void {
    if (records.length < 2) return;
    // An owner holds a handful of records: comparing each with those before it beats a map and
    // a set of "type wire" strings; a crowded owner (an apex with many TXT) gets the maps.
    const small = records.length <= SMALL_OWNER;
    const firstOfType = small ? undefined : new Map<string, ZoneRecord>();
    const seen = small ? undefined : new Set<string>();
    for (let i = 0; i < records.length; i++) {
      const r = records[i];
      let first: ZoneRecord | undefined;
      let duplicate = false;
      if (firstOfType === undefined || seen === undefined) {
        for (let j = 0; j < i; j++) {
          const before = records[j];
          if (before.type !== r.type) continue;
          first ??= before;
          if (sameData(before, r)) {
            duplicate = true;
            break;
          }
        }
      } else {
        first = firstOfType.get(r.type);
        if (first === undefined) firstOfType.set(r.type, r);
        const id = `${r.type} ${r.wire}`;
        duplicate = seen.has(id);
        seen.add(id);
      }
      if (first !== undefined && first.ttl !== r.ttl && !OWN_TTL.has(r.type)) {
        const p = problem(
          'ttl-mismatch',
          'warning',
          `TTL ${r.ttl} differs from ${first.ttl} of the other ${r.type} records of ${r.owner}: servers use ${first.ttl}`,
          r,
          r.ttlRange ?? r.typeRange,
        );
        if (r.file === undefined) p.fix = ttlFix(r, first.ttl);
        out.push(p);
      }
      if (duplicate) {
        const p = problem('duplicate-record', 'warning', `duplicate ${r.type} record`, r);
        if (r.file === undefined && r.ownerRange !== undefined) {
          p.fix = {
            title: 'Remove the duplicate record',
            range: {
              line: r.range.line,
              start: 0,
              endLine: (r.range.endLine ?? r.range.line) + 1,
              end: 0,
            },
            replacement: '',
          };
        }
        out.push(p);
      }
    }
  }

  /** Data below a delegation is not the zone's, except the glue its nameservers need. */
  private checkOccluded(key: string, records: ZoneRecord[], out: ZoneProblem[]): void {
    const cut = this.cutAbove(key);
    if (cut === undefined) return;
    const isGlueName = this.isGlueName(this.rows.names.find(key));
    for (const r of records) {
      if (isGlueName && (r.type === 'A' || r.type === 'AAAA')) continue;
      out.push(
        problem(
          'below-delegation',
          'warning',
          `${r.owner} is below the delegation ${cut}: servers do not serve it`,
          r,
        ),
      );
    }
  }

  /** The highest delegation above `key` (below the apex), or undefined. */
  private cutAbove(key: string): string | undefined {
    if (this.cuts.size === 0 || this.apex === undefined) return undefined;
    let cut: string | undefined;
    for (let up = parentKey(key); up !== undefined && up !== this.apex; up = parentKey(up)) {
      if (this.cuts.has(up)) cut = up;
      if (!isAtOrBelow(up, this.apex)) break;
    }
    return cut;
  }

  /** Whether an NS record points at the name (a name id): its addresses are glue. */
  private isGlueName(id: number): boolean {
    for (let ref = this.refHead[id]; ref !== -1; ref = this.refNext[ref]) {
      if (this.rows.typeCode(ref) === NS) return true;
    }
    return false;
  }

  private zoneIndex: ZoneIndex | undefined;

  /** The indexes as findTarget looks names up in them (made once: targets are many). */
  private index(apex: string): ZoneIndex {
    if (this.zoneIndex !== undefined) return this.zoneIndex;
    const names = this.rows.names;
    const exists = (id: number) => id !== -1 && id < this.head.length && this.head[id] !== -1;
    return (this.zoneIndex = {
      apex,
      cuts: this.cuts,
      dnames: this.dnames,
      exists: (key) => exists(names.find(key)),
      hasNamesBelow: (key) => {
        for (let id = 0; id < this.head.length; id++) {
          if (this.head[id] === -1) continue;
          const name = names.text[id];
          if (name !== key && isAtOrBelow(name, key)) return true;
        }
        return false;
      },
    });
  }

  private checkTarget(r: ZoneRecord, out: ZoneProblem[]): void {
    if (r.target !== undefined && this.apex !== undefined) {
      const repeated = originRepeated(r, this.apex);
      if (repeated !== undefined) out.push(repeated);
    }
    const kind = TARGET_CNAME[r.type];
    if (kind === undefined || r.target === undefined || this.apex === undefined) return;
    const found = this.lookUpTarget(r.typeCode, r.target, r.key);
    if (found === undefined) return;
    if (found.kind === 'below-dname') {
      // BIND refuses a zone whose own nameservers a DNAME rewrites away; others it reports
      out.push(
        problem(
          'target-below-dname',
          r.type === 'NS' && r.key === this.apex ? 'error' : 'warning',
          `${r.type} target ${r.target} is below the DNAME at ${found.dname}, which rewrites every name under it (RFC 6672 section 2.3)`,
          r,
          r.targetRange,
        ),
      );
      return;
    }
    if (found.kind === 'cname') {
      const cname = this.rows.record(found.row);
      const p = problem(
        kind.code,
        kind.severity,
        `${r.type} target ${r.target} is a CNAME`,
        r,
        r.targetRange,
      );
      if (r.targetRange !== undefined && r.file === undefined) {
        p.fix = { title: `Point at ${cname.data}`, range: r.targetRange, replacement: cname.data };
      }
      out.push(p);
      return;
    }
    // no address for an NS target: BIND refuses a zone whose own nameservers cannot be
    // reached; for a delegation it only warns, since the child may still answer (Knot refuses
    // both).
    const severity = r.key === this.apex ? 'error' : 'warning';
    out.push(
      problem(
        'missing-glue',
        severity,
        `NS target ${r.target} is in the zone but has no A or AAAA record`,
        r,
        r.targetRange,
      ),
    );
  }

  /**
   * What is wrong where the target of a record of type `code` at `from` leads, for the NS, MX
   * and SRV records (TARGET_CNAME) whose target is in the zone; undefined when nothing is (or
   * the record is of another type, or the apex is unknown).
   */
  private lookUpTarget(code: number, target: string, from: string): TargetTrouble | undefined {
    if ((code !== NS && code !== MX && code !== SRV) || this.apex === undefined) return undefined;
    if (!isAtOrBelow(target, this.apex)) return undefined;
    const found = findTarget(this.index(this.apex), target, from);
    if (found.kind === 'delegated') return undefined;
    if (found.kind === 'below-dname') return found;
    const at = this.rows.names.find(found.name);
    const cnameRow = this.findAt(at, isCname);
    if (cnameRow !== -1) return { kind: 'cname', row: cnameRow };
    if (code === NS && this.findAt(at, isAddress) === -1) return { kind: 'no-address' };
    return undefined;
  }
}

/** DS, CDS (RFC 7344) and CDNSKEY records that name a key the owner's DNSKEY set lacks. */
function checkKeyReferences(
  records: ZoneRecord[],
  out: ZoneProblem[],
  /** records a rule refused already (owner-rules.ts), not reported again */
  refused: Set<ZoneRecord> | undefined,
): void {
  // Without the DNSKEY set in the file (a DS at a delegation, the usual case) there is nothing
  // to compare with; asked first, as every owner comes here.
  if (!hasType(records, 'DNSKEY')) return;
  const keys = records.filter((r) => r.type === 'DNSKEY').map((r) => r.wire.toLowerCase());
  const parsed = keys.map(dnskeyFromWire).filter((k): k is DnskeyData => k !== undefined);
  for (const r of records) {
    if (refused?.has(r) === true) continue;
    if (r.type === 'CDNSKEY') {
      const wire = r.wire.toLowerCase();
      // RFC 8078 section 4: "0 3 0 AA==" asks the parent to delete the DS set.
      if (wire === '0000030000' || keys.includes(wire)) continue;
      out.push(
        problem(
          'cdnskey-without-dnskey',
          'warning',
          `CDNSKEY of ${r.owner} equals none of its DNSKEY records (RFC 7344 section 4.1)`,
          r,
        ),
      );
    } else if (r.type === 'DS' || r.type === 'CDS') {
      const message = dsMismatch(r, parsed);
      if (message !== undefined) {
        out.push(problem(`${r.type.toLowerCase()}-without-dnskey`, 'warning', message, r));
      }
    }
  }
}

/** Why a DS or CDS matches no DNSKEY (RFC 4034 section 5.1.4); undefined when one matches. */
function dsMismatch(r: ZoneRecord, keys: DnskeyData[]): string | undefined {
  const wire = Buffer.from(r.wire, 'hex');
  if (wire.length < 4) return undefined;
  const tag = wire.readUInt16BE(0);
  const algorithm = wire[2];
  const digestType = wire[3];
  const digest = wire.subarray(4);
  // RFC 8078 section 4: "CDS 0 0 0 00" asks the parent to delete the DS set; a digest type
  // this code cannot compute is left alone, as validators ignore it (RFC 4035 section 5.2).
  if (algorithm === 0 || !isSupportedDigest(digestType)) return undefined;
  const candidates = keys.filter((k) => k.algorithm === algorithm && keyTag(k) === tag);
  if (candidates.some((k) => dsDigest(r.key, k, digestType)?.equals(digest) === true)) {
    return undefined;
  }
  if (candidates.length === 0) {
    return `${r.type} of ${r.owner} names key tag ${tag} algorithm ${algorithm}, which no DNSKEY of ${r.owner} has`;
  }
  return `${r.type} of ${r.owner}: the digest does not match DNSKEY ${tag} (algorithm ${algorithm})`;
}

function dnskeyFromWire(hex: string): DnskeyData | undefined {
  const wire = Buffer.from(hex, 'hex');
  if (wire.length < 4) return undefined;
  return { flags: wire.readUInt16BE(0), algorithm: wire[3], key: wire.subarray(4) };
}

/**
 * A target that ends in the origin twice (`files.example.test.example.test.`) was written
 * without its final dot: a relative name is completed with the origin (RFC 1035 section
 * 5.1). The fix writes the name as meant, absolute.
 */
function originRepeated(r: ZoneRecord, apex: string): ZoneProblem | undefined {
  const target = r.target!;
  const meant = repeatedOrigin(target, apex);
  if (meant === undefined) return undefined;
  const p = problem(
    'origin-repeated',
    'warning',
    `${r.type} target ${target} repeats the origin ${apex}: a name without a final dot is relative; did you mean ${meant}?`,
    r,
    r.targetRange,
  );
  if (r.targetRange !== undefined && r.file === undefined) {
    p.fix = {
      title: `Write ${meant} (with the final dot)`,
      range: r.targetRange,
      replacement: meant,
    };
  }
  return p;
}

/** The name meant when `target` ends in the origin twice (originRepeated), else undefined. */
function repeatedOrigin(target: string, apex: string): string | undefined {
  if (apex === '.' || !target.endsWith(`.${apex}`)) return undefined;
  const meant = target.slice(0, -apex.length);
  return meant === apex || meant.endsWith(`.${apex}`) ? meant : undefined;
}

function ttlFix(r: ZoneRecord, ttl: number): ZoneFix {
  if (r.ttlRange !== undefined) {
    return { title: `Use TTL ${ttl}`, range: r.ttlRange, replacement: String(ttl) };
  }
  const at = r.typeRange;
  return {
    title: `Use TTL ${ttl}`,
    range: { line: at.line, start: at.start, end: at.start },
    replacement: `${ttl} `,
  };
}

function hasType(records: readonly ZoneRecord[], type: string): boolean {
  for (const r of records) if (r.type === type) return true;
  return false;
}

function byPosition(a: ZoneRecord, b: ZoneRecord): number {
  return a.range.line - b.range.line || a.range.start - b.range.start;
}

/** Whether a key is a wildcard owner (`*.x`, or `*.` at the root). */
function isWildcard(key: string): boolean {
  return key.charCodeAt(0) === 0x2a && key.charCodeAt(1) === 0x2e;
}

function isNs(code: number): boolean {
  return code === NS;
}

function isCname(code: number): boolean {
  return code === CNAME;
}

function isAddress(code: number): boolean {
  return code === A || code === AAAA;
}

/** A copy of `array` of `size` cells, the new ones -1. */
function grown(array: Int32Array, size: number): Int32Array {
  const out = new Int32Array(size).fill(-1);
  out.set(array);
  return out;
}

/** Takes `row` out of the chain that starts at head[at] (and ends at tail[at], when kept). */
function unlink(
  head: Int32Array,
  next: Int32Array,
  at: number,
  row: number,
  tail?: Int32Array,
): void {
  let before = -1;
  for (let r = head[at]; r !== -1; r = next[r]) {
    if (r === row) {
      if (before === -1) head[at] = next[r];
      else next[before] = next[r];
      if (tail !== undefined && tail[at] === row) tail[at] = before;
      return;
    }
    before = r;
  }
}
