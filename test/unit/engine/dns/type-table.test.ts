// The type table walked type by type: generated records of every type, from their field kinds,
// go text -> wire -> text -> JSON through the codecs, and the printed form (`zone-check
// --print`) agrees with BIND's named-compilezone on the same file. A type added to the table
// is in this test without a line written for it (its field kinds have generators here).
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../../src/cli/main';
import { PIPE } from '../../cli/run';
import { keyWire, textToLabels } from '../../../../src/engine/dns/names';
import { isUtf8, unescapeOctets } from '../../../../src/engine/dns/presentation';
import { toBase32Hex } from '../../../../src/engine/dns/rdata/base32hex';
import { CODECS } from '../../../../src/engine/dns/rdata/codecs';
import { recordJson } from '../../../../src/engine/dns/rdata/json';
import { WireReader } from '../../../../src/engine/dns/rdata/reader';
import { parseRdata, printRdata, type Token } from '../../../../src/engine/dns/rdata/text';
import { TYPES, type TypeSpec } from '../../../../src/engine/dns/rdata/types';
import { constrained, field, NOT_IN_BIND_918, type Random } from '../../../support/rdata-gen';
import { WireWriter } from '../../../../src/engine/dns/rdata/writer';
import { tokenizeLine } from '../../../../src/engine/zone/lexer';
import { seeded } from '../../../support/prng';
import { describeTool, needTools } from '../../../support/reference-tools';

const SEED = 20261126;
const PER_TYPE = Number(process.env.PER_TYPE ?? 12);
const ORIGIN = 'example.';

interface Generated {
  type: string;
  owner: string;
  text: string;
  wire: string;
  printed: string;
}

function generate(r: Random, type: string, spec: TypeSpec, index: number): Generated {
  const fields = constrained(
    r,
    type,
    spec.fields.map((f) => field(r, f.kind)),
  );
  const text = fields.filter((f) => f !== '').join(' ');
  const parsed = parseRdata(type, tokens(text), ORIGIN);
  if ('code' in parsed) assert.fail(`${type} ${text}: ${parsed.message}`);
  return {
    type,
    // an NSEC3 owner's first label is a hash in base32hex (RFC 5155 section 3; BIND checks it)
    owner: `${type === 'NSEC3' ? toBase32Hex(Buffer.alloc(20, index)) : `${type.toLowerCase()}-${index}`}.${ORIGIN}`,
    text,
    wire: parsed.wire,
    printed: parsed.data,
  };
}

function tokens(text: string): Token[] {
  const line = tokenizeLine(text);
  assert.equal(line.error, undefined, text);
  return line.tokens;
}

/** The octets a JSON text stands for: UTF-8 when the field was valid UTF-8, escapes read otherwise. */
function jsonOctets(text: string, original: Uint8Array): Buffer {
  return isUtf8(original) ? Buffer.from(text, 'utf8') : Buffer.from(unescapeOctets(text) ?? []);
}

/** Checks one record's JSON against its wire form, field by field. */
function checkJson(type: string, spec: TypeSpec, wire: Buffer): void {
  const json = recordJson(wire, 0, wire.length, type);
  const reader = new WireReader(wire, 0, wire.length, false);
  for (const f of spec.fields) {
    const from = reader.at;
    const printed = CODECS[f.kind].print(reader, new WireWriter());
    const octets = wire.subarray(from, reader.at);
    const value = json[f.name];
    const what = `${type} ${f.name} (${f.kind})`;
    switch (f.kind) {
      case 'name':
        assert.deepEqual(
          Buffer.concat(textToLabels(String(value)).flatMap((l) => [Buffer.from([l.length]), l]))
            .toString('hex')
            .toLowerCase(),
          keyWire(printed).subarray(0, -1).toString('hex'),
          what,
        );
        break;
      case 'strings': {
        const parts = json.parts as string[];
        let at = 0;
        parts.forEach((part) => {
          const length = octets[at];
          const raw = octets.subarray(at + 1, at + 1 + length);
          const joined = Buffer.concat(
            (() => {
              const all: Uint8Array[] = [];
              for (let i = 0; i < octets.length; i += 1 + octets[i]) {
                all.push(octets.subarray(i + 1, i + 1 + octets[i]));
              }
              return all;
            })(),
          );
          assert.deepEqual(jsonOctets(part, joined), Buffer.from(raw), what);
          at += 1 + length;
        });
        break;
      }
      case 'caa-tag':
        assert.equal(value, printed, what);
        break;
      case 'caa-value':
      case 'uri-target':
        assert.deepEqual(jsonOctets(String(value), octets), Buffer.from(octets), what);
        break;
      case 'u8':
      case 'u16':
      case 'u32':
      case 'port':
      case 'ttl':
      case 'alg':
      case 'caa-flags':
      case 'proto':
        assert.equal(value, Number(printed), what);
        break;
      case 'time':
      case 'date':
      case 'alg-name':
      case 'cert-type':
      case 'dsync-scheme':
        // numbers in JSON, printed as dates or mnemonics
        assert.equal(typeof value, 'number', what);
        break;
      default:
        assert.equal(value, printed, what);
    }
  }
}

describe('engine/dns type table: every type text -> wire -> text -> JSON', () => {
  const random = seeded(SEED);
  const generated: Generated[] = [];
  for (const [type, spec] of Object.entries(TYPES)) {
    if (type === 'SOA') continue; // one per zone: the apex's, below
    for (let i = 0; i < PER_TYPE; i++) generated.push(generate(random, type, spec, i));
  }

  it('has a generator for every field kind of the table, and every type is generated', () => {
    const kinds = new Set(Object.values(TYPES).flatMap((s) => s.fields.map((f) => f.kind)));
    for (const kind of kinds) assert.ok(CODECS[kind], kind);
    const types = new Set(generated.map((g) => g.type));
    for (const type of Object.keys(TYPES)) if (type !== 'SOA') assert.ok(types.has(type), type);
  });

  it('wire -> text gives the text the parser gave (names lower case), and each reads back to the same wire', () => {
    for (const g of [...generated, soa()]) {
      const wire = Buffer.from(g.wire, 'hex');
      const printed = printRdata(wire, 0, wire.length, TYPES[g.type], true);
      assert.equal(printed.wire.toString('hex'), g.wire, `${g.type} ${g.text}`);
      // the parser's text keeps the names' case; the canonical text is it in lower-case names
      for (const text of [printed.text, g.printed]) {
        const again = parseRdata(g.type, tokens(text), ORIGIN);
        assert.ok(!('code' in again), `${g.type} ${text}`);
        assert.equal(again.wire, g.wire, `${g.type} ${text}`);
        if (text === printed.text) assert.equal(again.data, printed.text, `${g.type} ${text}`);
      }
      // the RFC 3597 form of the same data is the same record (RFC 3597 section 5)
      const generic = parseRdata(g.type, tokens(`\\# ${wire.length} ${g.wire}`), ORIGIN);
      assert.ok(!('code' in generic), `${g.type} generic`);
      assert.deepEqual([generic.wire, generic.data], [g.wire, printed.text]);
    }
  });

  it('wire -> JSON: every field of the table, standing for the same octets', () => {
    for (const g of [...generated, soa()]) {
      checkJson(g.type, TYPES[g.type], Buffer.from(g.wire, 'hex'));
    }
  });

  /** The apex SOA, its fields generated like any other type's. */
  function soa(): Generated {
    return { ...generate(seeded(SEED + 1), 'SOA', TYPES.SOA, 0), owner: ORIGIN };
  }

  it('prints what BIND named-compilezone prints for the same zone (zone-check --print)', async function () {
    const compiler = needTools(this, 'named-compilezone')['named-compilezone'];
    const tool = compiler.path;
    const apex = soa();
    const known = generated.filter((g) => !NOT_IN_BIND_918.has(g.type));
    const lines = [
      `$ORIGIN ${ORIGIN}`,
      '$TTL 3600',
      `@ SOA ${apex.text}`,
      '@ NS ns.example.',
      'ns A 192.0.2.53',
      ...known.map((g) => `${g.owner} ${g.type} ${g.text}`),
    ];
    const dir = mkdtempSync(join(tmpdir(), 'hostlens-types-'));
    if (process.env.KEEP) console.log(dir);
    try {
      const file = join(dir, 'example.zone');
      writeFileSync(file, `${lines.join('\n')}\n`);
      // -i none: no integrity checks (targets without addresses); -k ignore: no host-name rules
      const bind = await new Promise<string>((resolve, reject) =>
        execFile(
          tool,
          ['-i', 'none', '-k', 'ignore', '-o', '-', ORIGIN, file],
          { maxBuffer: 1 << 26 },
          (err, stdout, stderr) =>
            err ? reject(new Error(`${stderr}${stdout}`)) : resolve(stdout),
        ),
      );
      const ours = await printed(file);
      const key = (owner: string, type: string, data: string) =>
        `${owner.toLowerCase()} ${type} ${data.replace(/\s+/g, '').toLowerCase()}`;
      const bindRecords = new Set<string>();
      for (const line of bind.split('\n')) {
        // the zone, between BIND's "loaded serial" and "OK" lines, and its ";" comments
        if (line === '' || line.startsWith(';') || /^(zone |OK$)/.test(line)) continue;
        const m = /^(\S+)\s+(\d+)\s+IN\s+(\S+)\s+(.*)$/.exec(line);
        assert.ok(m, line);
        bindRecords.add(key(m[1], m[3], m[4]));
      }
      const ourRecords = new Set(
        ours.map((line) => {
          const [owner, , , type, ...data] = line.split(' ');
          return key(owner, type, data.join(' '));
        }),
      );
      const onlyBind = [...bindRecords].filter((r) => !ourRecords.has(r));
      const onlyOurs = [...ourRecords].filter((r) => !bindRecords.has(r));
      assert.deepEqual(
        { onlyBind: onlyBind.slice(0, 5), onlyOurs: onlyOurs.slice(0, 5) },
        { onlyBind: [], onlyOurs: [] },
      );
      assert.equal(ourRecords.size, known.length + 3);
      console.log(
        `    named-compilezone prints the same ${ourRecords.size} records (${Object.keys(TYPES).length - NOT_IN_BIND_918.size} types, seed ${SEED}; ${[...NOT_IN_BIND_918].join(', ')} unknown to BIND 9.18)`,
      );
      console.log(`    ${describeTool(compiler, '-i none -k ignore -o - ORIGIN FILE')}`);
    } finally {
      if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The records of `hostlens zone-check --print FILE`, as the command line prints them. */
async function printed(file: string): Promise<string[]> {
  const out: string[] = [];
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const write = process.stdout.write;
  process.stdout.write = (chunk: string) => (out.push(String(chunk)), true);
  try {
    await main(['zone-check', file, '--origin', ORIGIN, '--print'], PIPE);
  } finally {
    process.stdout.write = write;
  }
  const { records } = JSON.parse(out.join('')) as { records: string[] };
  return records;
}
