// RDAP: the corpus responses map to the seed's shape, malformed bootstraps fall back to the
// snapshot, nothing in the corpus crashes the mapper, and the HTTP error paths give their codes.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LookupError } from '../../../../src/contract/errors';
import {
  findRdapBase,
  loadBootstrap,
  lookupRdap,
  parseBootstrap,
  rdapToWhois,
  snapshotBootstrap,
} from '../../../../src/engine/whois/rdap';
import { startRdapServer, type RdapFixture } from '../../../support/rdap-server';
import { CORPUS_ROOT } from '../../../support/whois-corpus';
import { code } from '../../../support/settled';

const RDAP = join(CORPUS_ROOT, 'rdap');

function allJson(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...allJson(p));
    else if (name.endsWith('.json')) out.push(p);
  }
  return out;
}

describe('rdap: corpus', function () {
  before(function () {
    if (!existsSync(RDAP)) {
      console.log('    (skipped: ../shared/corpus/rdap is not present)');
      this.skip();
    }
  });

  it('maps whoisit domain responses as its tests expect', function () {
    const expected = JSON.parse(
      readFileSync(join(RDAP, 'whoisit/EXPECTED-domain.json'), 'utf8'),
    ) as Record<
      string,
      {
        name: string;
        handle: string;
        registration_date?: string | null;
        expiration_date?: string | null;
        last_changed_date?: string | null;
        nameservers: string[];
        status: string[];
        dnssec?: boolean;
        registrar: Array<{ handle: string; name: string }>;
      }
    >;
    let checked = 0;
    for (const [file, want] of Object.entries(expected)) {
      if (file.startsWith('_')) continue;
      const raw = readFileSync(join(RDAP, 'whoisit', file), 'utf8');
      const got = rdapToWhois(JSON.parse(raw), raw);
      const d = got.domain;
      assert.equal(d.punycode, want.name.toLowerCase(), file);
      assert.equal(d.id, want.handle, file);
      assert.deepEqual(
        d.name_servers,
        want.nameservers.map((n) => n.toLowerCase()),
        file,
      );
      assert.deepEqual(
        d.status ?? [],
        want.status.map((s) => s.replace(/\s+/g, '')),
        file,
      );
      // The transcription leaves out what whoisit's tests do not assert.
      if (want.registration_date !== undefined) {
        assert.equal(d.created_date ?? null, want.registration_date, file);
      }
      if (want.expiration_date !== undefined) {
        assert.equal(d.expiration_date ?? null, want.expiration_date, file);
      }
      if (want.last_changed_date !== undefined) {
        assert.equal(d.updated_date ?? null, want.last_changed_date, file);
      }
      assert.equal(d.dnssec === true, want.dnssec === true, file);
      assert.equal(got.registrar.name, want.registrar[0].name, file);
      if (got.registrar.id !== undefined) assert.equal(got.registrar.id, want.registrar[0].handle);
      assert.equal(got.source, 'rdap');
      assert.equal(got.raw, raw);
      checked += 1;
    }
    assert.equal(checked, 3);
  });

  it('maps the openrdap example.cz response', function () {
    const raw = readFileSync(
      join(RDAP, 'openrdap/test/testdata/rdap/rdap.nic.cz/domain-example.cz.json'),
      'utf8',
    );
    const got = rdapToWhois(JSON.parse(raw), raw);
    assert.equal(got.domain.domain, 'example.cz');
    assert.equal(got.domain.name, 'example');
    assert.equal(got.domain.extension, 'cz');
    assert.equal(got.domain.whois_server, 'whois.nic.cz');
    assert.ok((got.domain.name_servers ?? []).includes('ns.pipni.cz'));
    assert.match(got.domain.created_date ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('reads a domain object without its ldhName as the asked name (RFC 9083 section 5.3)', function () {
    // One of the ICANN profile's test replies: a domain object with a handle and entities only.
    const raw = readFileSync(
      join(
        RDAP,
        'icann-rct/validator/src/test/resources/validators/profile/response_validations/general/valid_cc.json',
      ),
      'utf8',
    );
    const got = rdapToWhois(JSON.parse(raw), raw, 'example.test');
    assert.equal(got.domain.domain, 'example.test');
    assert.equal(got.domain.extension, 'test');
    // not asked for a name, the object names none: an upstream_error that says so
    assert.throws(
      () => rdapToWhois(JSON.parse(raw), raw),
      (err) =>
        err instanceof LookupError &&
        err.code === 'upstream_error' &&
        /names no domain/.test(err.message),
    );
  });

  it('never crashes on any corpus JSON (valid or invalid fixtures)', function () {
    let domains = 0;
    let refused = 0;
    for (const file of allJson(RDAP)) {
      const raw = readFileSync(file, 'utf8');
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        json = raw;
      }
      try {
        const got = rdapToWhois(json, raw);
        for (const key of ['created_date', 'updated_date', 'expiration_date'] as const) {
          const v = got.domain[key];
          if (v !== undefined) assert.match(v, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, file);
        }
        for (const s of got.domain.status ?? []) assert.doesNotMatch(s, /[A-Z\s]/, file);
        domains += 1;
      } catch (err) {
        assert.ok(
          err instanceof LookupError && err.code === 'upstream_error',
          `${file}: ${String(err)}`,
        );
        refused += 1;
      }
    }
    console.log(`      ${domains} domain objects mapped, ${refused} other objects refused cleanly`);
    assert.ok(domains >= 15);
  });

  it('falls back to the snapshot for every malformed bootstrap file', async function () {
    const dir = join(RDAP, 'openrdap/test/testdata/bootstrap_malformed');
    const files = readdirSync(dir);
    assert.equal(files.length, 4);
    for (const f of files) {
      const b = await loadBootstrap(join(dir, f), false);
      assert.equal(b.source, 'snapshot', f);
    }
    const good = join(RDAP, 'openrdap/test/testdata/bootstrap/dns.json');
    const b = await loadBootstrap(good, false);
    assert.equal(b.source, good);
    assert.equal(findRdapBase(b, 'www.example.cz'), 'https://rdap.nic.cz');
    assert.equal(b.publication, '2017-03-15T21:26:24Z');
  });
});

describe('rdap: bootstrap', function () {
  it('matches the longest label', function () {
    const b = parseBootstrap(
      {
        services: [
          [['uk'], ['https://uk.example/']],
          [['co.uk'], ['http://co-uk.example/', 'https://co-uk.example/']],
        ],
      },
      'test',
    );
    assert.equal(findRdapBase(b, 'example.co.uk'), 'https://co-uk.example/');
    assert.equal(findRdapBase(b, 'example.uk'), 'https://uk.example/');
    assert.equal(findRdapBase(b, 'example.com'), undefined);
  });

  it('rejects malformed registries', function () {
    for (const bad of [
      null,
      {},
      { services: [] },
      { services: [[['x']]] },
      { services: [[['x'], ['ftp://x/']]] },
    ]) {
      assert.throws(
        () => parseBootstrap(bad, 't'),
        (e: unknown) => e instanceof LookupError && e.code === 'upstream_error',
      );
    }
  });

  it('ships a valid snapshot that says where it came from', function () {
    const b = snapshotBootstrap();
    assert.equal(b.source, 'snapshot');
    assert.ok(b.publication);
    assert.equal(findRdapBase(b, 'example.com'), 'https://rdap.verisign.com/com/v1/');
    assert.equal(findRdapBase(b, 'example.de'), undefined);
  });

  it('falls back to the snapshot when the bootstrap URL is unreachable or not JSON', async function () {
    const server = await startRdapServer({ '/dns.json': { body: 'not json at all' } });
    try {
      assert.equal((await loadBootstrap(`${server.base}dns.json`, false)).source, 'snapshot');
      assert.equal((await loadBootstrap(`${server.base}missing.json`, false)).source, 'snapshot');
      assert.equal((await loadBootstrap('/nonexistent/dns.json', false)).source, 'snapshot');
    } finally {
      await server.close();
    }
  });
});

describe('rdap: HTTP', function () {
  let server: RdapFixture;
  const domainObject = {
    objectClassName: 'domain',
    handle: 'D1-TEST',
    ldhName: 'EXAMPLE.CZ',
    status: ['client transfer prohibited', 'active'],
    nameservers: [{ objectClassName: 'nameserver', ldhName: 'NS1.EXAMPLE.NET.' }],
    secureDNS: { delegationSigned: true },
    port43: 'whois.nic.cz',
    events: [
      { eventAction: 'registration', eventDate: '2001-02-03T04:05:06.789+01:00' },
      { eventAction: 'last changed', eventDate: '2020-01-01T00:00:00Z' },
      { eventAction: 'expiration', eventDate: '2030-01-01T00:00:00Z' },
    ],
    entities: [
      {
        objectClassName: 'entity',
        roles: ['registrar'],
        publicIds: [{ type: 'IANA Registrar ID', identifier: '9999' }],
        vcardArray: [
          'vcard',
          [
            ['version', {}, 'text', '4.0'],
            ['fn', {}, 'text', 'Example Registrar'],
            ['url', {}, 'uri', 'https://registrar.example/'],
          ],
        ],
      },
      {
        objectClassName: 'entity',
        roles: ['registrant'],
        vcardArray: ['vcard', [['fn', {}, 'text', 'REDACTED FOR PRIVACY']]],
      },
    ],
  };

  before(async function () {
    server = await startRdapServer({
      '/domain/example.cz': { body: domainObject },
      '/domain/limited.cz': { status: 429, headers: { 'retry-after': '30' }, body: {} },
      '/domain/broken.cz': { status: 500, body: {} },
      '/domain/notjson.cz': { body: '<html>' },
      '/domain/slow.cz': { hang: true },
      '/domain/huge.cz': { hugeBytes: 2 * 1024 * 1024 },
      '/domain/moved.cz': { status: 302, headers: { location: '/domain/example.cz' }, body: {} },
    });
  });
  after(async () => server.close());

  it('maps a domain object', async function () {
    const got = await lookupRdap('example.cz', server.base);
    assert.deepEqual(got.domain, {
      id: 'D1-TEST',
      domain: 'example.cz',
      punycode: 'example.cz',
      name: 'example',
      extension: 'cz',
      whois_server: 'whois.nic.cz',
      status: ['clienttransferprohibited', 'active'],
      name_servers: ['ns1.example.net'],
      dnssec: true,
      created_date: '2001-02-03T03:05:06Z',
      created_date_in_time: '2001-02-03T03:05:06Z',
      updated_date: '2020-01-01T00:00:00Z',
      updated_date_in_time: '2020-01-01T00:00:00Z',
      expiration_date: '2030-01-01T00:00:00Z',
      expiration_date_in_time: '2030-01-01T00:00:00Z',
    });
    assert.deepEqual(got.registrar, {
      id: '9999',
      name: 'Example Registrar',
      referral_url: 'https://registrar.example/',
    });
  });

  it('follows a redirect', async function () {
    assert.equal((await lookupRdap('moved.cz', server.base)).domain.id, 'D1-TEST');
  });

  it('gives the contract codes for every failure', async function () {
    assert.equal(await code(lookupRdap('unknown.cz', server.base)), 'not_found');
    assert.equal(await code(lookupRdap('broken.cz', server.base)), 'upstream_error');
    assert.equal(await code(lookupRdap('notjson.cz', server.base)), 'upstream_error');
    assert.equal(
      await code(lookupRdap('slow.cz', server.base, { timeoutMs: 300 })),
      'upstream_timeout',
    );
    assert.equal(await code(lookupRdap('huge.cz', server.base)), 'response_too_large');
    assert.equal(await code(lookupRdap('example.cz', 'http://127.0.0.1:1/')), 'upstream_error');
    const ac = new AbortController();
    ac.abort();
    assert.equal(
      await code(lookupRdap('example.cz', server.base, { signal: ac.signal })),
      'cancelled',
    );
  });

  it('reports Retry-After on 429', async function () {
    try {
      await lookupRdap('limited.cz', server.base);
      assert.fail('resolved');
    } catch (err) {
      assert.ok(err instanceof LookupError);
      assert.equal(err.code, 'rate_limited');
      assert.equal(err.retryAfter, 30);
    }
  });
});
