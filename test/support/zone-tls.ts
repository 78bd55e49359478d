// The names of a zone whose certificates the zone check looks at (unit and VS Code tests): a
// good one, one that expires soon, an expired one, and one whose CAA records name another CA,
// each with its leaf from the test PKI, served by SNI from one listener, and the fixture
// nameserver's answers for them.
import type { FixtureRecord } from './dns-server';
import type { PkiOptions, TestPki } from './tls-pki';
import { serveTlsByName, type Listening } from './tls-server';

export const ZONE_TLS_NAMES = ['good', 'soon', 'old', 'strict'].map((n) => `${n}.zone.test`);

/** The leaves those names need (with makeTestPki). */
export const ZONE_TLS_PKI: PkiOptions = {
  hostile: false,
  names: ['good.zone.test', 'strict.zone.test'],
  flawed: { 'soon.zone.test': 'expires_soon', 'old.zone.test': 'expired' },
};

/** Each name's certificate, picked by SNI, on `host`:`port` (loopback, any port unless told). */
export function serveZoneTls(
  pki: TestPki,
  where: { host?: string; port?: number } = {},
): Promise<Listening> {
  return serveTlsByName(Object.fromEntries(ZONE_TLS_NAMES.map((n) => [n, pki.leaves[n]])), where);
}

/** The names at `address`; CAA (RFC 8659): the zone allows the test CA, strict another CA. */
export function zoneTlsRecords(address: string): FixtureRecord[] {
  return [
    ...ZONE_TLS_NAMES.map((name) => ({ name, type: 'A', data: address })),
    {
      name: 'zone.test',
      type: 'CAA',
      data: { flags: 0, tag: 'issue', value: 'hostlenstest.example' },
    },
    {
      name: 'strict.zone.test',
      type: 'CAA',
      data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' },
    },
  ];
}
