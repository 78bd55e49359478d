// The trust store of an inspection: Node's bundled roots, the platform's bundle (Node 20 has no
// --use-system-ca, so the file OpenSSL itself reads on this system), NODE_EXTRA_CA_CERTS and the
// caller's extra CAs (a setting). One secure context per distinct store, kept for the process:
// building one from ~150 PEM roots costs more than a loopback handshake.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';

// Where Debian/Ubuntu, Fedora/RHEL, Alpine/Arch and macOS (Homebrew OpenSSL) keep the bundle;
// SSL_CERT_FILE first, as OpenSSL honours it.
const PLATFORM_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/cert.pem',
  '/usr/local/etc/openssl/cert.pem',
];

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export interface TrustStore {
  context: SecureContext;
  /** SHA-256 (hex) of every anchor's DER, to tell a certificate the store supplied */
  anchors: Set<string>;
}

const stores = new Map<string, TrustStore>();
const fetchContexts = new Map<string, SecureContext>();

/** The store for these extra CAs (PEM text); built once per distinct set. */
export function trustStore(extraCa: readonly string[] = [], env = process.env): TrustStore {
  const { key, pems: readAnchors } = anchorsFor(extraCa, env);
  let store = stores.get(key);
  if (store === undefined) {
    const pems = readAnchors();
    store = {
      context: createSecureContext({
        ca: pems,
        // Every certificate a server offers is accepted at the handshake, so a weak one can
        // be described; verify.ts holds the chain to OpenSSL's default level 2 itself.
        ciphers: 'DEFAULT:@SECLEVEL=0',
      }),
      anchors: new Set(pems.map(fingerprint).filter((f): f is string => f !== undefined)),
    };
    stores.set(key, store);
  }
  return store;
}

/**
 * The web fetcher's context for these extra CAs: the inspection's anchors, so a page under a
 * user's private CA loads where its certificate shows trusted, at Node's default security
 * level (a fetch only verifies; it does not accept a weak chain in order to describe it).
 * `securityLevel` raises it: 2 is OpenSSL's default and what the inspection calls trusted.
 */
export function fetchTrust(
  extraCa: readonly string[] = [],
  { env = process.env, securityLevel }: { env?: NodeJS.ProcessEnv; securityLevel?: 2 } = {},
): SecureContext {
  const { key, pems } = anchorsFor(extraCa, env);
  const cacheKey = `${key}/${securityLevel ?? 'node'}`;
  let context = fetchContexts.get(cacheKey);
  if (context === undefined) {
    context = createSecureContext({
      ca: pems(),
      ...(securityLevel !== undefined ? { ciphers: `DEFAULT:@SECLEVEL=${securityLevel}` } : {}),
    });
    fetchContexts.set(cacheKey, context);
  }
  return context;
}

/**
 * A key naming the set of anchors for these extra CAs, and the anchors (PEM) themselves, read
 * only when a cache misses: the platform bundle is a file of a few hundred roots.
 */
function anchorsFor(
  extraCa: readonly string[],
  env: NodeJS.ProcessEnv,
): { key: string; pems: () => string[] } {
  const extras = [...readPems(env.NODE_EXTRA_CA_CERTS), ...extraCa.flatMap(pemBlocks)];
  const key = createHash('sha256').update(extras.join('\n')).digest('hex');
  return {
    key,
    pems: () => [...new Set([...rootCertificates, ...platformBundle(env), ...extras])],
  };
}

function platformBundle(env: NodeJS.ProcessEnv): string[] {
  for (const file of [env.SSL_CERT_FILE, ...PLATFORM_BUNDLES]) {
    const pems = readPems(file);
    if (pems.length > 0) return pems;
  }
  return [];
}

function readPems(file: string | undefined): string[] {
  if (file === undefined || file === '') return [];
  try {
    return pemBlocks(readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
}

function pemBlocks(text: string): string[] {
  return text.match(PEM_BLOCK) ?? [];
}

/** SHA-256 of the DER a PEM block carries, without parsing the certificate. */
function fingerprint(pem: string): string | undefined {
  const body = pem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
  const der = Buffer.from(body, 'base64');
  return der.length > 0 ? createHash('sha256').update(der).digest('hex') : undefined;
}
