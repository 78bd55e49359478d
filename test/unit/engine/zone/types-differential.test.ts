// Every record type the engine knows, written valid and broken from a fixed seed, in one zone
// file checked by HostLens and by BIND 9.18:
// - the verdict on every case (a zone of its own): `zone-check` refuses it exactly when
//   named-checkzone does, and both name the record's line;
// - the records of the lines BIND accepts: `zone-check --print` writes the lines
//   `named-compilezone -s full` writes, byte for byte but for the width of the blanks between
//   the first five columns (BIND pads them into columns), in the same order; and each BIND line,
//   read back, is the record HostLens holds in wire form.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { toBase32Hex } from '../../../../src/engine/dns/rdata/base32hex';
import { parseRdata } from '../../../../src/engine/dns/rdata/text';
import { TYPES } from '../../../../src/engine/dns/rdata/types';
import { tokenizeLine } from '../../../../src/engine/zone/lexer';
import { checkZoneFile } from '../../../../src/services/zone';
import { seeded } from '../../../support/prng';
import {
  badField,
  constrained,
  field,
  int,
  label,
  NOT_IN_BIND_918,
  pick,
  type Random,
} from '../../../support/rdata-gen';
import { BIND_WARNINGS } from '../../../support/bind-messages';
import { describeTool, needTools } from '../../../support/reference-tools';

// CI runs this seed; SEED=N runs another (the suite is a generator: more seeds, more findings)
const SEED = Number(process.env.SEED ?? 20261127);
const VALID_PER_TYPE = Number(process.env.VALID_PER_TYPE ?? 6);
const BROKEN_PER_TYPE = Number(process.env.BROKEN_PER_TYPE ?? 6);
const ORIGIN = 'example.';
const HEAD = [
  `$ORIGIN ${ORIGIN}`,
  '$TTL 3600',
  '@ SOA ns.example. hostmaster.example. 1 7200 900 1209600 300',
  '@ NS ns.example.',
  'ns A 192.0.2.53',
];

interface Case {
  type: string;
  /** how it was made: valid, or the way it was broken */
  how: string;
  text: string;
}

function run(tool: string, args: string[]): Promise<{ code: number; out: string; stdout: string }> {
  return new Promise((resolve) =>
    execFile(tool, args, { maxBuffer: 1 << 26, timeout: 60000 }, (err, stdout, stderr) =>
      resolve({ code: err === null ? 0 : 1, out: `${stdout}${stderr}`, stdout }),
    ),
  );
}

/** Valid record data of `type`: its fields from their kinds, kept to the cross-field rules. */
function validFields(r: Random, type: string): string[] {
  return constrained(
    r,
    type,
    TYPES[type].fields.map((f) => field(r, f.kind)),
  );
}

/** Record data of `type` broken in one way, or written in the RFC 3597 form (valid or not). */
function brokenData(r: Random, type: string): { how: string; text: string } {
  const fields = validFields(r, type);
  const join = (parts: string[]) => parts.filter((f) => f !== '').join(' ');
  const roll = r();
  if (roll < 0.5) {
    const at = int(r, 0, fields.length - 1);
    fields[at] = badField(r, TYPES[type].fields[at].kind);
    return { how: `bad ${TYPES[type].fields[at].kind}`, text: join(fields) };
  }
  const text = join(fields);
  const tokens = tokenizeLine(text).tokens;
  if (roll < 0.65)
    return { how: 'last token dropped', text: tokens.slice(0, -1).map(raw).join(' ') };
  if (roll < 0.8)
    return { how: 'token added', text: `${text} ${pick(r, ['x', '1', 'AAAA', '.'])}` };
  const parsed = parseRdata(type, tokens, ORIGIN);
  assert.ok(!('code' in parsed), `${type} ${text}`);
  const wire = parsed.wire;
  if (roll < 0.9) return { how: 'RFC 3597 form', text: `\\# ${wire.length / 2} ${wire}` };
  const cut = wire.slice(0, -2);
  return { how: 'RFC 3597 form, one octet short', text: `\\# ${cut.length / 2} ${cut}` };
}

/** A token as written: quoted strings back in their quotes. */
function raw(t: { kind: string; text: string }): string {
  return t.kind === 'quoted' ? `"${t.text}"` : t.text;
}

/**
 * A case's owner: the type and the case's tag, now and then with a generated label in front
 * (escapes, `@`, `$`, UTF-8: how owners are printed); but for NSEC3, whose owner's first label
 * is a hash in base32hex (RFC 5155 section 3): BIND's default check-names refuses another (this
 * suite runs it with -k ignore; HostLens holds every zone to it, as bind-rules.test.ts shows).
 */
function ownerOf(r: Random, type: string, tag: string): string {
  if (type === 'NSEC3') return toBase32Hex(createHash('sha1').update(tag).digest());
  const plain = `${type.toLowerCase()}-${tag}`;
  return r() < 0.4 ? `${label(r)}.${plain}` : plain;
}

function cases(): Case[] {
  const r = seeded(SEED);
  const out: Case[] = [];
  for (const type of Object.keys(TYPES)) {
    if (type === 'SOA') continue; // the apex's, one per zone
    if (NOT_IN_BIND_918.has(type)) continue; // registered after 9.18: see the last test
    for (let i = 0; i < VALID_PER_TYPE; i++) {
      const text = validFields(r, type)
        .filter((f) => f !== '')
        .join(' ');
      out.push({
        type,
        how: 'valid',
        text: `${ownerOf(r, type, `v${i}`)} ${type} ${text}`,
      });
    }
    for (let i = 0; i < BROKEN_PER_TYPE; i++) {
      const { how, text } = brokenData(r, type);
      out.push({ type, how, text: `${ownerOf(r, type, `b${i}`)} ${type} ${text}` });
    }
  }
  return out;
}

/** BIND's lines with the blanks between owner, TTL, class, type and data made one space. */
function bindLines(output: string): string[] {
  return output
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith(';'))
    .map((l) => {
      const m = /^(\S+)\s+(\d+)\s+(\S+)\s+(\S+)(?:\s(.*))?$/.exec(l);
      assert.ok(m, l);
      return `${m[1]} ${m[2]} ${m[3]} ${m[4]} ${(m[5] ?? '').replace(/^\s+/, '')}`;
    });
}

async function pool<T>(items: T[], width: number, work: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i], i);
      }
    }),
  );
}

describe('engine/zone every record type, valid and broken, against BIND 9.18', function () {
  this.timeout(120000);

  it('refuses exactly the lines named-checkzone refuses, and prints what named-compilezone prints', async function () {
    const tools = needTools(this, 'named-checkzone', 'named-compilezone');
    const all = cases();
    const dir = mkdtempSync(join(tmpdir(), 'hostlens-types-diff-'));
    try {
      // 1. The verdict on every case: the valid ones in one zone, each broken one in a zone of
      // its own (BIND's error recovery can swallow the lines after a broken one: a string over
      // 255 octets, a record with no data at all)
      const groups = [
        all.filter((c) => c.how === 'valid'),
        ...all.filter((c) => c.how !== 'valid').map((c) => [c]),
      ];
      const verdicts = new Map<Case, { bind: string[]; ours: string[] }>();
      const stray: string[] = [];
      await pool(groups, 2, async (group, i) => {
        const file = join(dir, `group-${i}.zone`);
        // each case after a blank line, so that no case is read as part of the one before
        writeFileSync(file, `${[...HEAD, ...group.map((c) => `\n${c.text}`)].join('\n')}\n`);
        const lineOf = (n: number) => group[(n - HEAD.length) / 2 - 1];
        const checked = await bindCheck(tools['named-checkzone'].path, file);
        for (const c of group) verdicts.set(c, { bind: [], ours: [] });
        const lastLine = HEAD.length + 2 * group.length;
        const place = (n: number, side: 'bind' | 'ours', message: string) => {
          // After an error BIND's lexer reads on from the middle of the line, and a quote or a
          // parenthesis it meets there may run to the end of the file: a broken case's group
          // holds only that case, so BIND's errors past its line are still its.
          const c = side === 'bind' && group.length === 1 && n > lastLine ? group[0] : lineOf(n);
          if (c === undefined) stray.push(`${side} ${n}: ${message} (${file})`);
          else verdicts.get(c)![side].push(message);
        };
        for (const l of checked.out.split('\n')) {
          const m = /\.zone:(\d+): (.*)$/.exec(l);
          if (m && !BIND_WARNINGS.some((w) => w.test(l))) place(Number(m[1]), 'bind', m[2]);
        }
        const ours = checkZoneFile(file, ORIGIN, false).problems;
        for (const p of ours)
          if (p.severity === 'error') place(p.line, 'ours', `${p.code}: ${p.message}`);
        if (checked.code !== 0 && group.every((c) => verdicts.get(c)!.bind.length === 0)) {
          stray.push(`bind: ${checked.out}`);
        }
      });
      assert.deepEqual(stray, [], 'errors on no case line');
      const disagreements = all.filter((c) => {
        const v = verdicts.get(c)!;
        return (v.bind.length === 0) !== (v.ours.length === 0);
      });
      const refused = all.filter((c) => verdicts.get(c)!.bind.length > 0).length;
      assert.deepEqual(
        disagreements
          .slice(0, 10)
          .map(
            (c) =>
              `[${c.how}] ${c.text}\n  BIND: ${verdicts.get(c)!.bind.join(' | ') || 'loads it'}\n  HostLens: ${verdicts.get(c)!.ours.join(' | ') || 'loads it'}`,
          ),
        [],
      );
      console.log(
        `    zone-check's verdict is BIND's on ${all.length - disagreements.length} of ${all.length} record lines ` +
          `(${Object.keys(TYPES).length - 1 - NOT_IN_BIND_918.size} types, ${VALID_PER_TYPE} valid and ${BROKEN_PER_TYPE} broken each; ` +
          `BIND refuses ${refused}, loads ${all.length - refused}; seed ${SEED})`,
      );

      // 2. The records of the lines BIND loads, printed
      const loaded = all.filter((c) => verdicts.get(c)!.bind.length === 0);
      const good = join(dir, 'loaded.zone');
      writeFileSync(good, `${[...HEAD, ...loaded.map((c) => c.text)].join('\n')}\n`);
      const compiled = await bindCompile(tools['named-compilezone'].path, good);
      assert.equal(compiled.code, 0, compiled.out);
      const zoneText = zoneOnly(compiled.stdout);
      const theirs = bindLines(zoneText);
      const printed = checkZoneFile(good, ORIGIN, true);
      assert.deepEqual(
        printed.problems.filter((p) => p.severity === 'error'),
        [],
      );
      const mine = printed.records!;
      const differ = theirs
        .map((line, i) => ({ line, mine: mine[i] }))
        .filter((d) => d.line !== d.mine);
      assert.deepEqual(differ.slice(0, 5), []);
      assert.equal(mine.length, theirs.length);
      // in wire form: each BIND line read back is the record HostLens holds
      const wires = new Set(mine.map((l) => wireKey(l)));
      const unmatched = theirs.filter((l) => !wires.has(wireKey(l)));
      assert.deepEqual(unmatched.slice(0, 5), []);
      console.log(
        `    zone-check --print writes named-compilezone's ${theirs.length} lines byte for byte and in order; ` +
          `${theirs.length - unmatched.length} of ${theirs.length} the same records in wire form`,
      );
      console.log(`    ${describeTool(tools['named-checkzone'], '-i none -k ignore ORIGIN FILE')}`);
      console.log(
        `    ${describeTool(tools['named-compilezone'], '-i none -k ignore -s full -o - ORIGIN FILE')}`,
      );
    } finally {
      if (process.env.KEEP) console.log(dir);
      else rmSync(dir, { recursive: true, force: true });
    }
  });

  // Lines other seeds and sizes of the suite above found BIND and HostLens reading apart (each
  // fixed since): kept here, as the seed in CI does not write them.
  it('agrees with BIND on the lines larger runs of the suite found', async function () {
    const tools = needTools(this, 'named-checkzone', 'named-compilezone');
    const lines = [
      // an NSEC whose type bit map lists nothing (RFC 4035 section 2.3), in both forms
      'nsec-a NSEC next.example.',
      'nsec-b TYPE47 \\# 14 046e657874076578616d706c6500',
      // KEYDATA (BIND's private type) in the RFC 3597 form shorter than its fields: as it is
      'keydata-a KEYDATA \\# 15 77af014179ba82c9749fd370eb722f',
      'keydata-b KEYDATA \\# 0',
      // UTF-8 in names: its octets, printed \\DDD; "É" is no capital of "é" (RFC 4343)
      '4é A 192.0.2.7',
      'mb-a MB 4é.example.',
      'mb-b MB 4\\195\\169.example.',
      'cname-a CNAME É',
    ];
    const dir = mkdtempSync(join(tmpdir(), 'hostlens-types-found-'));
    try {
      const loaded: string[] = [];
      for (const [i, line] of lines.entries()) {
        const file = join(dir, `line-${i}.zone`);
        writeFileSync(file, `${[...HEAD, line].join('\n')}\n`);
        const bind = await bindCheck(tools['named-checkzone'].path, file);
        const ours = checkZoneFile(file, ORIGIN, false).problems.filter(
          (p) => p.severity === 'error',
        );
        assert.equal(
          ours.length > 0,
          bind.code !== 0,
          `${line}\n  BIND: ${bind.out}\n  ours: ${JSON.stringify(ours)}`,
        );
        if (bind.code === 0) loaded.push(line);
      }
      assert.deepEqual(
        lines.filter((l) => !loaded.includes(l)),
        lines.slice(0, 2),
      );
      const good = join(dir, 'loaded.zone');
      writeFileSync(good, `${[...HEAD, ...loaded].join('\n')}\n`);
      const compiled = await bindCompile(tools['named-compilezone'].path, good);
      assert.equal(compiled.code, 0, compiled.out);
      const theirs = bindLines(zoneOnly(compiled.stdout));
      assert.deepEqual(checkZoneFile(good, ORIGIN, true).records, theirs);
      // one name in either spelling: the A record is the MB targets' address, found as such
      const spelled = join(dir, 'spelled.zone');
      writeFileSync(spelled, `${[...HEAD, '4\\195\\169 A 192.0.2.7', 'd NS 4é'].join('\n')}\n`);
      assert.deepEqual(checkZoneFile(spelled, ORIGIN, false).problems, []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves out only the types BIND 9.18 calls unknown', async function () {
    const tools = needTools(this, 'named-checkzone');
    const r = seeded(SEED);
    const dir = mkdtempSync(join(tmpdir(), 'hostlens-types-unknown-'));
    try {
      for (const type of NOT_IN_BIND_918) {
        const file = join(dir, `${type}.zone`);
        const data = validFields(r, type)
          .filter((f) => f !== '')
          .join(' ');
        writeFileSync(file, `${[...HEAD, `x ${type} ${data}`].join('\n')}\n`);
        const { out } = await run(tools['named-checkzone'].path, [ORIGIN, file]);
        assert.match(out, new RegExp(`unknown RR type '${type}'`), out);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// -i none: no integrity checks (targets without addresses); -k ignore: no host-name rules
function bindCheck(tool: string, file: string): ReturnType<typeof run> {
  return run(tool, ['-i', 'none', '-k', 'ignore', ORIGIN, file]);
}

/** The zone as named-compilezone writes it once loaded, every record in full. */
function bindCompile(tool: string, file: string): ReturnType<typeof run> {
  return run(tool, ['-i', 'none', '-k', 'ignore', '-s', 'full', '-o', '-', ORIGIN, file]);
}

/**
 * named-compilezone's output without its status lines ("zone example/IN: loaded serial 1",
 * "OK"), matched whole: a record's owner may start with "OK" or "zone" too.
 */
function zoneOnly(stdout: string): string {
  return stdout
    .split('\n')
    .filter((line) => line !== 'OK' && !/^zone \S+\/IN: /.test(line))
    .join('\n');
}

/** A printed line as owner, type and canonical wire form of its data. */
function wireKey(line: string): string {
  const tokens = tokenizeLine(line).tokens;
  const [owner, , , type] = tokens.map((t) => t.text);
  const parsed = parseRdata(type, tokens.slice(4), ORIGIN);
  assert.ok(!('code' in parsed), `${line}: ${'message' in parsed ? parsed.message : ''}`);
  return `${owner.toLowerCase()} ${type} ${parsed.wire}`;
}
