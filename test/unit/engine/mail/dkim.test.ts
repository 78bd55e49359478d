import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import {
  DEFAULT_DKIM_SELECTORS,
  domainKeys,
  parseDkimRecord,
  rsaKeyBits,
} from '../../../../src/engine/mail/dkim';
import { LookupError } from '../../../../src/contract/errors';
import { startDnsServer, type DnsFixture, type FixtureRecord } from '../../../support/dns-server';

function rsaKey(bits: number, type: 'spki' | 'pkcs1'): string {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return publicKey.export({ format: 'der', type }).toString('base64');
}

/** A TXT record's data as a DNS server carries it: character-strings of at most 255 octets. */
function chunks(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += 255) out.push(text.slice(i, i + 255));
  return out;
}

const RSA2048 = rsaKey(2048, 'spki');
const RSA1024 = rsaKey(1024, 'spki');
const PKCS1 = rsaKey(1024, 'pkcs1');
const ED25519 = generateKeyPairSync('ed25519')
  .publicKey.export({ format: 'der', type: 'spki' })
  .subarray(-32)
  .toString('base64');

const txt = (name: string, text: string): FixtureRecord => ({
  name,
  type: 'TXT',
  data: chunks(text),
});

const RECORDS: FixtureRecord[] = [
  txt('google._domainkey.mail.test', `v=DKIM1; k=rsa; p=${RSA2048}`),
  {
    name: 'selector1._domainkey.mail.test',
    type: 'CNAME',
    data: 'selector1-mail-test._domainkey.provider.test',
  },
  txt('selector1-mail-test._domainkey.provider.test', `v=DKIM1; p=${RSA1024}; s=email`),
  txt('revoked._domainkey.mail.test', 'v=DKIM1; k=rsa; p='),
  txt('ed._domainkey.mail.test', `v=DKIM1; k=ed25519; p=${ED25519}`),
  txt('raw._domainkey.mail.test', `k=rsa; s=email:*; p=${PKCS1}`),
  txt('v2._domainkey.mail.test', `v=DKIM2; p=${RSA1024}`),
  txt('late._domainkey.mail.test', `k=rsa; v=DKIM1; p=${RSA1024}`),
  txt('*._domainkey.wild.test', 'v=spf1 -all'),
];

describe('engine/dns/dkim domainKeys', () => {
  let dns: DnsFixture;
  const opts = { timeoutMs: 300, tries: 1 };

  before(async () => {
    dns = await startDnsServer({
      records: RECORDS,
      behaviour: (q) =>
        q.name.endsWith('servfail.test')
          ? 'servfail'
          : q.name.endsWith('silent.test')
            ? 'timeout'
            : undefined,
    });
  });
  after(() => dns.close());
  beforeEach(() => {
    dns.queries.length = 0;
  });

  it('has a documented default list of at least 30 distinct selectors', () => {
    assert.ok(DEFAULT_DKIM_SELECTORS.length >= 30);
    const names = DEFAULT_DKIM_SELECTORS.map((d) => d.selector);
    assert.equal(new Set(names).size, names.length);
    for (const s of ['google', 'selector1', 'selector2', 'k1', 's1', 'fm1', 'protonmail']) {
      assert.ok(names.includes(s), s);
    }
    assert.ok(DEFAULT_DKIM_SELECTORS.every((d) => d.provider !== ''));
  });

  it('asks the whole default list at once and reports the keys found', async () => {
    const result = await domainKeys({ host: 'mail.test', server: dns.address }, opts);
    assert.equal(dns.queries.length, DEFAULT_DKIM_SELECTORS.length);
    assert.deepEqual(
      result.domain_keys.map((k) => k.selector),
      ['google', 'selector1'],
    );
    assert.deepEqual(result.domain_keys[0], {
      selector: 'google',
      domain: 'google._domainkey.mail.test.',
      version: 'DKIM1',
      key_type: 'rsa',
      public_key: RSA2048,
      service_type: ['all'],
      key_bits: 2048,
    });
  });

  it('follows a CNAME and keeps the asked name as domain', async () => {
    const result = await domainKeys(
      { host: 'mail.test', selectors: ['selector1'], server: dns.address },
      opts,
    );
    const key = result.domain_keys[0];
    assert.equal(key.domain, 'selector1._domainkey.mail.test.');
    assert.equal(key.key_bits, 1024);
    assert.deepEqual(key.service_type, ['email']);
  });

  it('asks only the selectors given, revoked, ed25519 and bare RSA keys included', async () => {
    const result = await domainKeys(
      { host: 'mail.test', selectors: ['revoked', 'ed', 'raw', 'nothing'], server: dns.address },
      opts,
    );
    assert.equal(dns.queries.length, 4);
    const [revoked, ed, raw] = result.domain_keys;
    assert.equal(result.domain_keys.length, 3);
    assert.equal(revoked.public_key, '');
    assert.equal(revoked.key_bits, undefined);
    assert.equal(ed.key_type, 'ed25519');
    assert.equal(ed.public_key, ED25519);
    assert.equal(ed.key_bits, undefined);
    assert.equal(raw.version, 'DKIM1');
    assert.equal(raw.key_bits, 1024);
    assert.deepEqual(raw.service_type, ['all']);
  });

  it('does not report a wildcard TXT or another version as a key', async () => {
    const wild = await domainKeys({ host: 'wild.test', server: dns.address }, opts);
    assert.deepEqual(wild.domain_keys, []);
    const other = await domainKeys(
      { host: 'mail.test', selectors: ['v2', 'late'], server: dns.address },
      opts,
    );
    assert.deepEqual(other.domain_keys, []);
  });

  it('fails as a whole only when every selector failed', async () => {
    await assert.rejects(
      domainKeys({ host: 'servfail.test', selectors: ['a', 'b'], server: dns.address }, opts),
      (e: LookupError) => e.code === 'upstream_error',
    );
    await assert.rejects(
      domainKeys({ host: 'silent.test', selectors: ['a'], server: dns.address }, opts),
      (e: LookupError) => e.code === 'upstream_timeout',
    );
  });

  it('rejects bad hosts and selectors, and honours cancellation', async () => {
    await assert.rejects(
      domainKeys({ host: 'bad..test', server: dns.address }, opts),
      (e: LookupError) => e.code === 'invalid_host',
    );
    await assert.rejects(
      domainKeys({ host: 'mail.test', selectors: ['a b'], server: dns.address }, opts),
      (e: LookupError) => e.code === 'invalid_argument',
    );
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      domainKeys({ host: 'mail.test', server: dns.address }, { ...opts, signal: ac.signal }),
      (e: LookupError) => e.code === 'cancelled',
    );
  });

  it('parses tags with folding white space and reads raw RSA keys', () => {
    const entry = parseDkimRecord(
      ` v = DKIM1 ;\tk=RSA; p=${RSA1024.slice(0, 40)} ${RSA1024.slice(40)} ; s=*`,
      'x',
      'x._domainkey.a.test',
    )!;
    assert.equal(entry.public_key, RSA1024);
    assert.equal(entry.key_type, 'rsa');
    assert.equal(entry.key_bits, 1024);
    assert.equal(rsaKeyBits('bm90IGEga2V5'), undefined);
    assert.equal(parseDkimRecord('v=DKIM1; k=rsa', 'x', 'x.a.test'), undefined);
  });
});
