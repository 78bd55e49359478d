// The mail look-ups' once-per-process work, for a long-lived server: V8 compiling the DKIM and
// SPF code on first call, OpenSSL's first RSA key parse (the key size of a DKIM record). Done
// before the server listens, against a loopback responder of our own (dns/warm.ts), so the
// first DKIM list or SPF tree a fresh instance is asked for costs what later ones do. The
// editor does not run it: it pays a little on its first mail look-up instead of at start.
import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { DomainKeysResult, SpfRoot } from '../../contract/shapes';
import { withWarmResponder, type WarmRecord } from '../dns/warm';
import { DEFAULT_DKIM_SELECTORS, domainKeys } from './dkim';
import { senderPolicyRanges } from './spf';

let warming: Promise<void> | undefined;

/** Runs once per process; never rejects (a failed warm-up only leaves the first call slower). */
export function warmUpMail(): Promise<void> {
  warming ??= runMailWarmUp().then(
    () => undefined,
    () => undefined,
  );
  return warming;
}

/** The warm-up itself; resolves with what it read back (tests check it got there). */
export async function runMailWarmUp(): Promise<{ keys: DomainKeysResult; spf: SpfRoot }> {
  // Made here, off the main thread: any RSA key serves, and none is shipped.
  const { publicKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 1024 });
  const key = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  const host = 'warm.invalid';
  const records: WarmRecord[] = [
    {
      name: `${DEFAULT_DKIM_SELECTORS[0].selector}._domainkey.${host}`,
      type: 'TXT',
      data: [`v=DKIM1; k=rsa; p=${key}`],
    },
    { name: host, type: 'TXT', data: ['v=spf1 a mx include:spf.warm.invalid -all'] },
    { name: `spf.${host}`, type: 'TXT', data: ['v=spf1 ip4:192.0.2.0/24 ip6:2001:db8::/32 -all'] },
    { name: host, type: 'A', data: '192.0.2.1' },
    { name: host, type: 'MX', data: { preference: 10, exchange: `mx.${host}` } },
    { name: `mx.${host}`, type: 'A', data: '192.0.2.2' },
  ];
  const dns = { timeoutMs: 1000, tries: 1 };
  return withWarmResponder(records, async (server) => ({
    keys: await domainKeys({ host, server }, dns),
    spf: await senderPolicyRanges({ host, server }, dns),
  }));
}
