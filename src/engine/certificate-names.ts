// Whether a certificate is for a host, as OpenSSL decides it: the one name check of the engine,
// made by the TLS look-up (tls/verify.ts) and on every HTTPS connection (agent.ts).
import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import type { PeerCertificate } from 'node:tls';

/**
 * Whether the certificate is for `host`, decided by OpenSSL's X509_check_host (X509_check_ip for
 * an address) with the default flags that `openssl s_client -verify_hostname` uses: the
 * subject's CN counts only when no DNS name is listed; a wildcard is the leftmost label's first
 * or last character (or all of it), never in an IDNA label, and stands for part of one label;
 * an address matches only the IP names. node's tls.checkServerIdentity also takes a star inside
 * a label ("w*w.example.com") and names that end in a dot, so it calls trusted what OpenSSL
 * refuses (test/unit/engine/tls/names-differential.test.ts).
 */
export function certificateNames(cert: X509Certificate, host: string): boolean {
  return isIP(host) === 0 ? cert.checkHost(host) !== undefined : cert.checkIP(host) !== undefined;
}

/**
 * The `checkServerIdentity` of a TLS connection that uses certificateNames: undefined when the
 * certificate is for the host, else an error with node's code for it
 * (ERR_TLS_CERT_ALTNAME_INVALID), so callers that read node's errors read this one alike.
 */
export function checkServerName(host: string, peer: PeerCertificate): Error | undefined {
  const bare = host.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (certificateNames(new X509Certificate(peer.raw), bare)) return undefined;
  const names =
    peer.subjectaltname ?? `no alternative names, subject CN ${String(peer.subject?.CN)}`;
  return Object.assign(new Error(`the certificate is not for ${bare} (it names ${names})`), {
    code: 'ERR_TLS_CERT_ALTNAME_INVALID',
    host: bare,
  });
}
