// A cookie jar that lives for one redirect chain only: enough of RFC 6265 for sites that set a
// cookie on one hop and expect it on the next (consent and session redirects). Nothing is
// persisted and nothing crosses from one chain to another.

interface StoredCookie {
  name: string;
  value: string;
  domain: string;
  hostOnly: boolean;
  path: string;
  secure: boolean;
}

const MAX_COOKIES = 50;

export class ChainCookieJar {
  private readonly cookies: StoredCookie[] = [];

  /** Records the Set-Cookie headers of a response to `url`. */
  store(url: URL, setCookie: string | string[] | undefined): void {
    if (setCookie === undefined) return;
    for (const line of Array.isArray(setCookie) ? setCookie : [setCookie]) this.storeOne(url, line);
  }

  /** The Cookie header to send to `url`, or undefined when no cookie applies. */
  header(url: URL): string | undefined {
    if (this.cookies.length === 0) return undefined; // most chains: no cookie was ever set
    const host = url.hostname.toLowerCase();
    const pairs = this.cookies
      .filter((c) => (c.hostOnly ? host === c.domain : domainMatch(host, c.domain)))
      .filter((c) => pathMatch(url.pathname, c.path))
      .filter((c) => !c.secure || url.protocol === 'https:')
      .map((c) => `${c.name}=${c.value}`);
    return pairs.length > 0 ? pairs.join('; ') : undefined;
  }

  private storeOne(url: URL, line: string): void {
    const [pair = '', ...attributes] = line.split(';');
    const eq = pair.indexOf('=');
    if (eq <= 0) return;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const host = url.hostname.toLowerCase();
    let domain = host;
    let hostOnly = true;
    let path = defaultPath(url.pathname);
    let secure = false;
    let expired = false;
    for (const attribute of attributes) {
      const [rawKey = '', ...rest] = attribute.split('=');
      const key = rawKey.trim().toLowerCase();
      const val = rest.join('=').trim();
      if (key === 'domain' && val !== '') {
        const wanted = val.replace(/^\./, '').toLowerCase();
        // A site may only set cookies for itself or a parent domain.
        if (!domainMatch(host, wanted)) return;
        domain = wanted;
        hostOnly = false;
      } else if (key === 'path' && val.startsWith('/')) {
        path = val;
      } else if (key === 'secure') {
        secure = true;
      } else if (key === 'max-age') {
        expired = Number(val) <= 0;
      } else if (key === 'expires') {
        const when = Date.parse(val);
        expired = !Number.isNaN(when) && when <= Date.now();
      }
    }
    const existing = this.cookies.findIndex(
      (c) => c.name === name && c.domain === domain && c.path === path,
    );
    if (existing >= 0) this.cookies.splice(existing, 1);
    if (expired || this.cookies.length >= MAX_COOKIES) return;
    this.cookies.push({ name, value, domain, hostOnly, path, secure });
  }
}

function domainMatch(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

function pathMatch(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

function defaultPath(pathname: string): string {
  const slash = pathname.lastIndexOf('/');
  return slash <= 0 ? '/' : pathname.slice(0, slash);
}
