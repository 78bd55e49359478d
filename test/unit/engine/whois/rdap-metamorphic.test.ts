// Metamorphic checks of the RDAP mapper: every domain object of the RDAP corpus, rewritten in
// ways that change nothing RFC 9083 (and RFC 7095's jCard) lets a server mean, must map as the
// object itself does. Servers differ from the corpus in just these ways: members in another
// order, members of extensions the client does not know (RFC 9083 section 2.1: ignored),
// entities and events listed in another order, names in another case or with the root's dot,
// dates with "+00:00" for "Z", and registered words (roles, event actions, jCard property names,
// the IANA Registrar ID type) in another case. Before these checks the last four hid the
// registrar, its id and the dates.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { rdapToWhois } from '../../../../src/engine/whois/rdap';
import { CORPUS_ROOT } from '../../../support/whois-corpus';

const RDAP = join(CORPUS_ROOT, 'rdap');

type Json = unknown;
type JsonObject = Record<string, Json>;

function isObject(v: Json): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every object in `v`, nested ones included, collected before any is changed. */
function objectsIn(v: Json, out: JsonObject[] = []): JsonObject[] {
  if (Array.isArray(v)) for (const x of v) objectsIn(x, out);
  else if (isObject(v)) {
    out.push(v);
    for (const x of Object.values(v)) objectsIn(x, out);
  }
  return out;
}

function reversedKeys(v: Json): Json {
  if (Array.isArray(v)) return v.map(reversedKeys);
  if (!isObject(v)) return v;
  return Object.fromEntries(
    Object.entries(v)
      .reverse()
      .map(([k, x]) => [k, reversedKeys(x)]),
  );
}

/** Changes each object of `o` that has `key` as a string (or a list of strings). */
function eachString(o: Json, key: string, change: (s: string) => string): Json {
  for (const obj of objectsIn(o)) {
    const v = obj[key];
    if (typeof v === 'string') obj[key] = change(v);
    else if (Array.isArray(v))
      obj[key] = (v as Json[]).map((x) => (typeof x === 'string' ? change(x) : x));
  }
  return o;
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const REWRITES: Record<string, (o: Json) => Json> = {
  'members in reverse order': reversedKeys,
  'unknown members in every object': (o) => {
    for (const obj of objectsIn(o)) obj.example_extension = { note: ['ignored', 1] };
    return o;
  },
  'entities in reverse order': (o) => {
    for (const obj of objectsIn(o)) if (Array.isArray(obj.entities)) obj.entities.reverse();
    return o;
  },
  'events in reverse order': (o) => {
    if (isObject(o) && Array.isArray(o.events)) o.events.reverse();
    return o;
  },
  'the domain name in capitals with the root dot': (o) => {
    if (isObject(o) && typeof o.ldhName === 'string') o.ldhName = `${o.ldhName.toUpperCase()}.`;
    return o;
  },
  'name server names in capitals with the root dot': (o) => {
    if (isObject(o) && Array.isArray(o.nameservers)) {
      for (const ns of o.nameservers) {
        if (isObject(ns) && typeof ns.ldhName === 'string') {
          ns.ldhName = `${ns.ldhName.toUpperCase()}.`;
        }
      }
    }
    return o;
  },
  'statuses in capitals': (o) =>
    isObject(o) ? eachString(o, 'status', (s) => s.toUpperCase()) : o,
  'dates with +00:00': (o) => eachString(o, 'eventDate', (s) => s.replace(/Z$/, '+00:00')),
  'roles in capitals': (o) => eachString(o, 'roles', (s) => s.toUpperCase()),
  'event actions capitalised': (o) => eachString(o, 'eventAction', capitalised),
  'jCard property names in capitals': (o) => {
    for (const obj of objectsIn(o)) {
      const card = obj.vcardArray;
      if (!Array.isArray(card) || !Array.isArray(card[1])) continue;
      for (const p of card[1] as Json[]) {
        if (Array.isArray(p) && typeof p[0] === 'string') p[0] = p[0].toUpperCase();
      }
    }
    return o;
  },
  'the public id type in lower case': (o) => {
    for (const obj of objectsIn(o)) {
      if (!Array.isArray(obj.publicIds)) continue;
      for (const id of obj.publicIds) {
        if (isObject(id) && typeof id.type === 'string') id.type = id.type.toLowerCase();
      }
    }
    return o;
  },
};

function domainObjects(dir: string, out: Array<{ file: string; json: JsonObject }> = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) domainObjects(p, out);
    else if (name.endsWith('.json')) {
      try {
        const json: Json = JSON.parse(readFileSync(p, 'utf8'));
        if (isObject(json) && json.objectClassName === 'domain') out.push({ file: p, json });
      } catch {
        // the corpus's malformed fixtures are no domain objects
      }
    }
  }
  return out;
}

/** What a mapping says, without the raw reply (which a rewrite changes by design). */
function meaning(json: Json): unknown {
  try {
    const r = rdapToWhois(json, '', 'asked.example');
    return { domain: r.domain, registrar: r.registrar };
  } catch (err) {
    return String(err);
  }
}

describe('rdap: rewrites that change nothing a server means', function () {
  it('maps every corpus domain object rewritten as it maps the object', function () {
    if (!existsSync(RDAP)) {
      console.log('      skipped: ../shared/corpus/rdap absent');
      this.skip();
    }
    const objects = domainObjects(RDAP);
    const broken: string[] = [];
    for (const { file, json } of objects) {
      const base = meaning(json);
      for (const [name, rewrite] of Object.entries(REWRITES)) {
        const copy: Json = JSON.parse(JSON.stringify(json));
        if (!isDeepStrictEqual(meaning(rewrite(copy)), base)) {
          broken.push(`${name}: ${file.slice(RDAP.length + 1)}`);
        }
      }
    }
    console.log(
      `      ${objects.length} domain objects x ${Object.keys(REWRITES).length} rewrites, ${broken.length} map differently`,
    );
    assert.ok(objects.length >= 15);
    assert.deepEqual(broken, []);
  });
});

describe('rdap: what a server may leave out', function () {
  const base = {
    objectClassName: 'domain',
    ldhName: 'example.test',
    entities: [
      {
        objectClassName: 'entity',
        roles: ['registrar'],
        vcardArray: [
          'vcard',
          [
            ['version', {}, 'text', '4.0'],
            ['fn', {}, 'text', ''],
            ['org', {}, 'text', 'Example Registrar Ltd'],
          ],
        ],
      },
    ],
  };

  it('names the registrar by its org when the card leaves fn empty', function () {
    assert.equal(rdapToWhois(base, '').registrar.name, 'Example Registrar Ltd');
  });

  it('reads DS records listed without delegationSigned as a signed delegation', function () {
    const ds = { keyTag: 12345, algorithm: 13, digestType: 2, digest: 'AB'.repeat(32) };
    assert.equal(rdapToWhois({ ...base, secureDNS: { dsData: [ds] } }, '').domain.dnssec, true);
    // the flag, when given, is the server's word
    const unsigned = { ...base, secureDNS: { delegationSigned: false, dsData: [ds] } };
    assert.equal(rdapToWhois(unsigned, '').domain.dnssec, undefined);
    assert.equal(rdapToWhois({ ...base, secureDNS: {} }, '').domain.dnssec, undefined);
  });

  it('writes a name server named only by its unicodeName in A-labels', function () {
    const got = rdapToWhois(
      {
        ...base,
        nameservers: [
          { objectClassName: 'nameserver', unicodeName: 'ns1.bücher.test' },
          { objectClassName: 'nameserver', ldhName: 'ns2.example.test' },
          { objectClassName: 'nameserver' },
        ],
      },
      '',
    );
    assert.deepEqual(got.domain.name_servers, ['ns1.xn--bcher-kva.test', 'ns2.example.test']);
  });
});
