// GET /domain_keys (docs/contract.md): the DKIM key records (RFC 6376 section 3.6.1) at
// <selector>._domainkey.<host>, every selector asked at once. The resolver follows CNAMEs
// (Microsoft 365 and most senders delegate their keys that way); `domain` stays the asked name.
import { createPublicKey } from 'node:crypto';
import { LookupError, throwIfAborted } from '../../contract/errors';
import { fqdn, normalizeHost } from '../names';
import { printable } from '../../contract/errors';
import type { DkimEntry, DomainKeysResult } from '../../contract/shapes';
import type { DomainKeysParams } from '../../contract/services';
import { ask, failureText, fanOutSignal, resolveLookup, type MailDnsOptions } from '../dns/lookup';

/**
 * Selectors asked when the caller names none: each is one a mail provider documents or is
 * widely seen publishing. Providers that generate per-customer selectors (Amazon SES Easy
 * DKIM, Postmark's dated selectors) only have their fixed-name variants here.
 */
export const DEFAULT_DKIM_SELECTORS: ReadonlyArray<{ selector: string; provider: string }> = [
  { selector: 'google', provider: 'Google Workspace' },
  { selector: 'selector1', provider: 'Microsoft 365' },
  { selector: 'selector2', provider: 'Microsoft 365' },
  { selector: 'k1', provider: 'Mailchimp' },
  { selector: 'k2', provider: 'Mailchimp' },
  { selector: 'k3', provider: 'Mailchimp' },
  { selector: 'mandrill', provider: 'Mandrill (Mailchimp Transactional)' },
  { selector: 's1', provider: 'SendGrid' },
  { selector: 's2', provider: 'SendGrid' },
  { selector: 'smtpapi', provider: 'SendGrid (legacy)' },
  { selector: 'fm1', provider: 'Fastmail' },
  { selector: 'fm2', provider: 'Fastmail' },
  { selector: 'fm3', provider: 'Fastmail' },
  { selector: 'protonmail', provider: 'Proton Mail' },
  { selector: 'protonmail2', provider: 'Proton Mail' },
  { selector: 'protonmail3', provider: 'Proton Mail' },
  { selector: 'zoho', provider: 'Zoho Mail' },
  { selector: 'zmail', provider: 'Zoho Mail' },
  { selector: 'amazonses', provider: 'Amazon SES (fixed-name setups)' },
  { selector: 'pm', provider: 'Postmark' },
  { selector: 'hs1', provider: 'HubSpot' },
  { selector: 'hs2', provider: 'HubSpot' },
  { selector: 'zendesk1', provider: 'Zendesk' },
  { selector: 'zendesk2', provider: 'Zendesk' },
  { selector: 'mailjet', provider: 'Mailjet' },
  { selector: 'krs', provider: 'Mailgun' },
  { selector: 'cm', provider: 'Campaign Monitor' },
  { selector: 'ctct1', provider: 'Constant Contact' },
  { selector: 'ctct2', provider: 'Constant Contact' },
  { selector: 'sig1', provider: 'iCloud Mail custom domains' },
  { selector: 'intercom', provider: 'Intercom' },
  { selector: 'resend', provider: 'Resend' },
  { selector: 'everlytickey1', provider: 'Everlytic' },
  { selector: 'everlytickey2', provider: 'Everlytic' },
  { selector: 'default', provider: 'cPanel, many self-hosted servers' },
  { selector: 'dkim', provider: 'generic, many self-hosted servers' },
  { selector: 'mail', provider: 'generic, Yandex, Brevo' },
  { selector: 'smtp', provider: 'generic, Mailgun' },
];

const SELECTOR = /^[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?$/i;

export async function domainKeys(
  params: DomainKeysParams,
  options: MailDnsOptions & { signal?: AbortSignal } = {},
): Promise<DomainKeysResult> {
  const host = normalizeHost(params.host);
  const given = (params.selectors ?? []).map((s) => String(s).trim()).filter((s) => s !== '');
  for (const s of given) {
    if (!SELECTOR.test(s) || s.length > 63) {
      throw new LookupError('invalid_argument', `"${printable(s)}" is not a DKIM selector`);
    }
  }
  // The user's selectors replace the default list; duplicates are asked once.
  const selectors = [
    ...new Set(
      given.length > 0
        ? given.map((s) => s.toLowerCase())
        : DEFAULT_DKIM_SELECTORS.map((d) => d.selector),
    ),
  ];
  const lookup = resolveLookup(params.server, options);
  const signal = fanOutSignal(options.signal);
  const answers = await Promise.all(
    selectors.map((s) => ask(lookup, `${s}._domainkey.${host}`, 'TXT', signal)),
  );
  throwIfAborted(options.signal);
  const failures = answers.filter((a) => a.kind === 'error');
  if (failures.length === answers.length) {
    const timeout = failures.every((a) => a.code === 'upstream_timeout');
    throw new LookupError(
      timeout ? 'upstream_timeout' : 'upstream_error',
      `No DKIM selector of ${selectors.length} could be asked: ${failureText(failures[0])}`,
    );
  }
  const entries: DkimEntry[] = [];
  answers.forEach((answer, i) => {
    if (answer.kind !== 'records') return;
    const selector = selectors[i];
    for (const record of answer.records) {
      const entry = parseDkimRecord(record.value ?? '', selector, `${selector}._domainkey.${host}`);
      if (entry) entries.push(entry);
    }
  });
  return { domain_keys: entries };
}

/** The tag=value pairs of a DKIM tag-list (RFC 6376 section 3.2); later duplicates ignored. */
export function parseTagList(text: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of text.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    if (name !== '' && !tags.has(name)) tags.set(name, part.slice(eq + 1).trim());
  }
  return tags;
}

/**
 * A DKIM key record as a contract entry, or undefined when the text is not one: it must carry
 * p= and, when v= is given, v=DKIM1 as its first tag. An absent v= reads as "DKIM1", the only
 * version RFC 6376 defines, so every entry has the same shape.
 */
export function parseDkimRecord(
  text: string,
  selector: string,
  name: string,
): DkimEntry | undefined {
  const tags = parseTagList(text);
  if (!tags.has('p')) return undefined;
  if (tags.has('v') && (tags.get('v') !== 'DKIM1' || !/^\s*v\s*=/i.test(text))) return undefined;
  const keyType = (tags.get('k') || 'rsa').toLowerCase();
  const publicKey = (tags.get('p') ?? '').replace(/\s+/g, '');
  const services = (tags.get('s') ?? '*')
    .split(':')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const entry: DkimEntry = {
    selector,
    domain: fqdn(name),
    version: tags.get('v') ?? 'DKIM1',
    key_type: keyType,
    public_key: publicKey,
    service_type: services.length === 0 || services.includes('*') ? ['all'] : services,
  };
  if (keyType === 'rsa' && publicKey !== '') {
    const bits = rsaKeyBits(publicKey);
    if (bits !== undefined) entry.key_bits = bits;
  }
  return entry;
}

/** The modulus length of a base64 RSA key: SubjectPublicKeyInfo, or a bare RSAPublicKey. */
export function rsaKeyBits(base64: string): number | undefined {
  const der = Buffer.from(base64, 'base64');
  for (const type of ['spki', 'pkcs1'] as const) {
    try {
      const key = createPublicKey({ key: der, format: 'der', type });
      if (key.asymmetricKeyType !== 'rsa') return undefined;
      return key.asymmetricKeyDetails?.modulusLength;
    } catch {
      // not this encoding; try the next
    }
  }
  return undefined;
}
