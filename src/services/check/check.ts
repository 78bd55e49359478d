// The workspace check over any services: read the files, gather what they point at, check each
// distinct URL once and each distinct host once (through the services, so a remote backend
// makes every request itself), and turn the verdicts into findings at every place written. A
// look-up that fails is said (lookup_failed, once for each thing asked), never taken as an answer.
import { readFile, stat } from 'node:fs/promises';
import { extname, relative, sep } from 'node:path';
import { parse as parseHost } from 'tldts';
import { LookupError } from '../../contract/errors';
import type { CallOptions, LinkParams, Services } from '../../contract/services';
import type { LinkResult, QueryResult } from '../../contract/shapes';
import { anchorsOf } from './anchors';
import { ResultCache, DEFAULT_CACHE_TTL_MS } from './cache';
import { targetsByLine, type Occurrence } from './extract';
import { listFiles, readText } from './files';
import { HostLimiter } from './limiter';
import { networkTurn, ReadSlices } from './slices';
import {
  DEFAULT_SEVERITY,
  type CheckProgress,
  type CheckReport,
  type Finding,
  type FindingKind,
} from './types';

export interface CheckOptions {
  /** files and directories, relative to cwd; the whole of cwd when empty */
  paths?: readonly string[];
  cwd: string;
  /** .gitignore-style patterns, relative to cwd */
  exclude?: readonly string[];
  /** a nameserver every look-up goes through, the hosts of fetched URLs included */
  server?: string;
  /** open requests per host (default 4) and in all (default 512) */
  maxPerHost?: number;
  maxOpen?: number;
  /** a registered domain expiring within this many days is a warning (default 30) */
  expiryDays?: number;
  /** the cache file; none when absent */
  cacheFile?: string;
  cacheTtlMs?: number;
  /** one link's check, redirects included (default 30 s) */
  linkTimeoutMs?: number;
  /** the longest Retry-After honoured (default 60 s); a longer one is a rate_limited finding */
  maxRetryAfterMs?: number;
  /** further tries after a network error (default 2), each after a jittered back-off */
  retries?: number;
  signal?: AbortSignal;
  onProgress?: (progress: CheckProgress) => void;
  now?: () => number;
}

export interface CheckInput {
  /** absolute path */
  file: string;
  text: string;
}

/**
 * Names kept for documentation and tests (RFC 2606, RFC 6761) and Tor's names (RFC 7686, not
 * in the DNS at all): never looked up.
 */
const RESERVED_TLDS = new Set(['example', 'invalid', 'localhost', 'onion']);
const RESERVED_DOMAINS = new Set(['example.com', 'example.net', 'example.org']);

const DAY_MS = 86_400_000;
/** A link that asks for no fragment (most of them): one empty list for all. */
const NO_FRAGMENTS: readonly string[] = Object.freeze([]);
const RETRY_BASE_MS = 250;
/** How often a host's Retry-After is honoured for one link before it is a finding. */
const MAX_RATE_LIMIT_WAITS = 3;

/** Checks the files under `options.paths`. */
export async function checkWorkspace(
  services: Services,
  options: CheckOptions,
): Promise<CheckReport> {
  const files = await listFiles(options.paths ?? [], {
    cwd: options.cwd,
    ...(options.exclude ? { exclude: options.exclude } : {}),
  });
  // Each file is checked as it is read: the first links are under way while the rest is read.
  return runCheck(services, options, async (run) => {
    for (const file of files) {
      const text = await readText(file);
      if (text !== undefined) await run.read(file, text);
    }
  });
}

/** Checks texts already at hand (the editor's open document, the files a walk read). */
export async function checkTexts(
  services: Services,
  inputs: readonly CheckInput[],
  options: CheckOptions,
): Promise<CheckReport> {
  return runCheck(services, options, async (run) => {
    for (const input of inputs) await run.read(input.file, input.text);
  });
}

async function runCheck(
  services: Services,
  options: CheckOptions,
  feed: (run: CheckRun) => Promise<void>,
): Promise<CheckReport> {
  const run = new CheckRun(services, options);
  try {
    await run.cache.load();
    await feed(run);
    await run.finish();
    await run.cache.save();
    return run.report();
  } finally {
    run.close();
  }
}

type HostVerdict =
  | { kind: 'resolves' }
  | { kind: 'nxdomain' }
  /** the look-up failed: the name may or may not exist */
  | { kind: 'unknown'; why: string };

type DomainVerdict =
  | { kind: 'unregistered' }
  | { kind: 'registered'; expires?: string }
  | { kind: 'unknown'; why: string };

type MailVerdict =
  { accepts: true } | { accepts: false; why: string } | { accepts: 'unknown'; why: string };

interface UrlCheck {
  url: string;
  host: string;
  /** the fragments its places ask about; none for most links */
  fragments?: Set<string>;
  occurrences: Occurrence[];
}

/** A host's URLs waiting for one of its lanes, in the order written, and its lanes under way. */
interface HostLanes {
  waiting: UrlCheck[];
  next: number;
  lanes: number;
  /** the host is an IP address (no name to resolve, no domain to ask about) */
  address: boolean;
}

class CheckRun {
  readonly cache: ResultCache;
  private readonly limiter: HostLimiter;
  private readonly findings: Finding[] = [];
  private readonly urls = new Map<string, UrlCheck>();
  private readonly mail = new Map<string, Occurrence[]>();
  private readonly records = new Map<string, Occurrence[]>();
  /** host names written on their own */
  private readonly hosts = new Map<string, Occurrence[]>();
  private readonly local: Occurrence[] = [];
  /** failed look-ups by what was asked: the first message and every place that needed it */
  private readonly failures = new Map<string, { message: string; occurrences: Occurrence[] }>();
  private readonly hostVerdicts = new Map<string, Promise<HostVerdict>>();
  private readonly domainVerdicts = new Map<string, Promise<DomainVerdict>>();
  private readonly progress: CheckProgress = { total: 0, done: 0 };
  private readonly lanes = new Map<string, HostLanes>();
  private lanesRunning = 0;
  /** URLs found and waiting for a lane of their host */
  private queued = 0;
  private lanesIdle: (() => void) | undefined;
  /** what a lane threw (a refused token): the run's end, said once every lane stopped */
  private laneError: Error | undefined;
  /** every file is read: a target's places are all known */
  private allRead = false;
  /** findings to make once every file is read */
  private readonly afterReading: Array<() => Promise<void> | void> = [];
  private readonly now: () => number;
  private readonly keyPrefix: string;
  /** every link call's options: the same for the whole run */
  private readonly linkCall: CallOptions;

  constructor(
    private readonly services: Services,
    private readonly options: CheckOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.cache = new ResultCache(
      options.cacheFile,
      options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS,
      this.now,
    );
    this.limiter = new HostLimiter(options.maxPerHost ?? 4, options.maxOpen ?? 512);
    // Answers through a staging nameserver are not answers through the public DNS.
    this.keyPrefix = options.server ? `@${options.server} ` : '';
    this.linkCall = { timeoutMs: options.linkTimeoutMs ?? 30_000 };
    if (options.signal) this.linkCall.signal = options.signal;
  }

  close(): void {
    this.limiter.close();
  }

  /**
   * Reads one file's targets, starting a check for each new URL as it is found. While checks
   * are under way, the event loop gets a turn between slices of reading (ReadSlices says how
   * long they last).
   */
  async read(file: string, text: string): Promise<void> {
    if (this.options.signal?.aborted) return;
    const slices = new ReadSlices();
    for (const line of targetsByLine(file, text)) {
      this.add(line);
      if (!slices.over(this.queued > 0)) continue;
      if (this.lanesRunning > 0) {
        await networkTurn();
        if (this.options.signal?.aborted) return;
        slices.resumed();
      } else slices.restart();
    }
  }

  private add(occurrences: readonly Occurrence[]): void {
    for (const o of occurrences) {
      const t = o.target;
      if (t.kind === 'local') this.local.push(o);
      else if (t.kind === 'mailto') {
        if (!isReserved(t.domain)) push(this.mail, t.domain, o);
      } else if (t.kind === 'record') {
        if (!isReserved(t.name)) push(this.records, t.name, o);
      } else if (t.kind === 'host') {
        if (isPublicName(t.name)) push(this.hosts, t.name, o);
      } else this.addUrl(o, t.url);
    }
  }

  private addUrl(o: Occurrence, written: string): void {
    let url: URL;
    try {
      url = new URL(written);
    } catch {
      this.find(o, 'broken_link', `${written} is not a valid URL`);
      return;
    }
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (isReserved(host)) return;
    const fragment = url.hash === '' ? undefined : url.hash.slice(1);
    if (fragment !== undefined) url.hash = '';
    let check = this.urls.get(url.href);
    if (!check) {
      // fragments written out: every check has one shape
      check = { url: url.href, host, fragments: undefined, occurrences: [] };
      this.urls.set(url.href, check);
      if (fragment !== undefined) check.fragments = new Set([fragment]);
      this.start(check);
    } else if (fragment !== undefined) (check.fragments ??= new Set()).add(fragment);
    check.occurrences.push(o);
  }

  /**
   * Queues a URL for its host, in a few lanes a host, each lane taking its host's next URL when
   * its last is done: as many checks are under way as the host may have requests open, and the
   * rest wait as data, not as 20,000 suspended calls (the heap of a big run stays near that of
   * a small one).
   */
  private start(check: UrlCheck): void {
    this.progress.total++;
    let host = this.lanes.get(check.host);
    if (!host) {
      host = { waiting: [], next: 0, lanes: 0, address: isIp(check.host) };
      this.lanes.set(check.host, host);
    }
    host.waiting.push(check);
    this.queued++;
    if (host.lanes >= this.limiter.perHost) return;
    host.lanes++;
    this.lanesRunning++;
    void this.lane(host);
  }

  private async lane(host: HostLanes): Promise<void> {
    try {
      while (host.next < host.waiting.length) {
        const check = host.waiting[host.next++];
        this.queued--;
        if (host.next === host.waiting.length) {
          host.waiting = [];
          host.next = 0;
        }
        // settle(), written out: one async call less a link
        try {
          await (host.address ? this.checkLink(check) : this.checkNamedUrl(check));
        } catch (err) {
          if (!this.options.signal?.aborted) throw err;
        } finally {
          this.progress.done++;
          this.report_progress();
        }
      }
    } catch (err) {
      this.laneError ??= err instanceof Error ? err : new Error(String(err));
    } finally {
      host.lanes--;
      if (--this.lanesRunning === 0) this.lanesIdle?.();
    }
  }

  /**
   * Work that makes findings at a target's places: once every file is read (a later file may
   * write the target again). The lane that asks goes on to its next URL meanwhile.
   */
  private whenRead(work: () => Promise<void> | void): Promise<void> | void {
    if (this.allRead) return work();
    this.afterReading.push(work);
  }

  async finish(): Promise<void> {
    this.allRead = true;
    const work: Array<Promise<void>> = [];
    // Most deferred work is a link's findings, made at once: only what goes on is waited for.
    for (const deferred of this.afterReading.splice(0)) {
      const pending = deferred();
      if (pending !== undefined) work.push(this.unlessCancelled(pending));
    }
    await this.checkLocal();
    this.progress.total += this.mail.size + this.records.size + this.hosts.size;
    this.report_progress();
    work.push(this.lanesDone());
    for (const [domain, occurrences] of this.mail)
      work.push(this.settle(this.checkMail(domain, occurrences)));
    for (const [name, occurrences] of this.records)
      work.push(this.settle(this.checkRecord(name, occurrences)));
    for (const [name, occurrences] of this.hosts)
      work.push(this.settle(this.checkHost(name, occurrences)));
    await Promise.all(work);
    if (this.laneError !== undefined) throw this.laneError;
    if (this.options.signal?.aborted) throw new LookupError('cancelled', 'The check was cancelled');
  }

  private lanesDone(): Promise<void> {
    if (this.lanesRunning === 0) return Promise.resolve();
    return new Promise((resolve) => (this.lanesIdle = resolve));
  }

  report(): CheckReport {
    this.reportFailures();
    const hosts = new Set([...this.hostVerdicts.keys(), ...this.mail.keys()]);
    this.findings.sort(
      (a, b) =>
        (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
        a.line - b.line ||
        a.column - b.column ||
        (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0),
    );
    return { findings: this.findings, checked: { urls: this.urls.size, hosts: hosts.size } };
  }

  /**
   * One unit of work done, whatever it found; its failure ends the run unless the run was
   * cancelled (unlessCancelled, written out). The lanes do the same without the call.
   */
  private async settle(work: Promise<void>): Promise<void> {
    try {
      await work;
    } catch (err) {
      if (!this.options.signal?.aborted) throw err;
    } finally {
      this.progress.done++;
      this.report_progress();
    }
  }

  /** Work whose failure ends the run, unless the run was cancelled (then it says nothing). */
  private async unlessCancelled(work: Promise<void>): Promise<void> {
    try {
      await work;
    } catch (err) {
      if (this.options.signal?.aborted) return;
      throw err;
    }
  }

  /** Said once the total is known (every file read), so the share done only grows. */
  private report_progress(): void {
    if (!this.allRead) return;
    this.options.onProgress?.({ ...this.progress });
  }

  // ---- links to files of the workspace

  private async checkLocal(): Promise<void> {
    const anchors = new Map<string, Promise<Set<string> | undefined>>();
    const anchorsIn = (path: string) => askedOnce(anchors, path, () => readAnchors(path));
    for (const o of this.local) {
      if (o.target.kind !== 'local') continue;
      const { path, fragment } = o.target;
      const kind = await fileKind(path);
      if (kind === 'missing') {
        this.find(o, 'broken_link', `${relativeTo(this.options.cwd, path)} does not exist`);
        continue;
      }
      if (fragment === undefined || fragment === '' || kind === 'directory') continue;
      const present = await anchorsIn(path);
      if (present && !present.has(decode(fragment)) && !present.has(fragment)) {
        this.find(
          o,
          'missing_fragment',
          `#${fragment} is not a heading or anchor of ${relativeTo(this.options.cwd, path)}`,
        );
      }
    }
  }

  // ---- URLs

  /** A URL whose host is a name (an address has no name to resolve, no domain to ask about). */
  private async checkNamedUrl(check: UrlCheck): Promise<void> {
    const host = await this.hostVerdict(check.host);
    if (host.kind === 'nxdomain') {
      await this.whenRead(() =>
        this.reportMissingName(check.host, check.occurrences, 'unresolvable_host'),
      );
      return;
    }
    // The domain's registration (a WHOIS or RDAP round trip, often the slowest answer of all)
    // says nothing about the link: its look-up runs beside the fetch, not before it.
    await Promise.all([
      this.whenRead(() => this.reportDomain(check.host, check.occurrences)),
      this.checkLink(check),
    ]);
  }

  private async checkLink(check: UrlCheck): Promise<void> {
    const fragments = check.fragments ? [...check.fragments].sort() : NO_FRAGMENTS;
    const key = this.cache.kept
      ? `${this.keyPrefix}url ${check.url}#${fragments.join('#')}`
      : undefined;
    const cached = key !== undefined && this.cache.get(key) !== undefined;
    const outcome = cached ? undefined : await this.fetchLink(check, fragments);
    return this.whenRead(() => {
      // A file read after the check began asked about more fragments: check with them all.
      if ((check.fragments?.size ?? 0) !== fragments.length) return this.checkLink(check);
      if (outcome === undefined) return undefined;
      const good = this.judgeLink(check, outcome);
      if (key === undefined) return undefined;
      if (good) this.cache.set(key, true);
      else this.cache.delete(key);
      return undefined;
    });
  }

  /** The link's verdict, Retry-After honoured and network errors tried again. */
  private async fetchLink(
    check: UrlCheck,
    fragments: readonly string[],
  ): Promise<LinkResult | LookupError> {
    const retries = this.options.retries ?? 2;
    const maxWait = this.options.maxRetryAfterMs ?? 60_000;
    let networkTries = 0;
    let waits = 0;
    for (;;) {
      let outcome: LinkResult | LookupError;
      try {
        const wait = this.limiter.enter(check.host, this.options.signal);
        if (wait) await wait;
        try {
          outcome = await this.callLink(check.url, fragments);
        } finally {
          this.limiter.leave(check.host);
        }
      } catch (err) {
        outcome = asLookupError(err);
      }
      if (this.options.signal?.aborted) throw new LookupError('cancelled', 'cancelled');
      if (outcome instanceof LookupError) {
        endsTheRun(outcome);
        if (outcome.code === 'upstream_error' && networkTries < retries) {
          await delay(jitter(RETRY_BASE_MS * 2 ** networkTries++), this.options.signal);
          continue;
        }
        return outcome;
      }
      const limited = outcome.status === 429 || outcome.status === 503;
      if (!limited || outcome.retry_after === undefined) return outcome;
      const waitMs = outcome.retry_after * 1000;
      if (waitMs > maxWait || waits >= MAX_RATE_LIMIT_WAITS) return outcome;
      waits++;
      // The whole host waits: its other links would only be told the same.
      this.limiter.pause(check.host, this.now() + waitMs);
    }
  }

  /** One call of the link operation, within the link's deadline (the backend keeps it). */
  private callLink(url: string, fragments: readonly string[]): Promise<LinkResult> {
    const params: LinkParams = { url };
    if (fragments.length > 0) params.fragments = [...fragments];
    if (this.options.server) params.server = this.options.server;
    return this.services.meta.link(params, this.linkCall);
  }

  /** Findings for one link's outcome; true when it is good (and may be cached). */
  private judgeLink(check: UrlCheck, outcome: LinkResult | LookupError): boolean {
    const places = check.occurrences;
    if (outcome instanceof LookupError) {
      this.findAt(places, ...errorFinding(outcome));
      return false;
    }
    if (outcome.error) {
      const why =
        outcome.error.code === 'redirect_loop' ? 'redirects in a loop' : 'redirects too often';
      this.findAt(places, 'broken_link', `${check.url} ${why}`);
      return false;
    }
    if (outcome.status === 429 || (outcome.status === 503 && outcome.retry_after !== undefined)) {
      const after =
        outcome.retry_after === undefined ? '' : ` (Retry-After ${outcome.retry_after} s)`;
      this.findAt(places, 'rate_limited', `${check.host} kept answering ${outcome.status}${after}`);
      return false;
    }
    if (outcome.status >= 400 || outcome.status < 200) {
      this.findAt(
        places,
        'broken_link',
        `${check.url} answers ${outcome.status}${statusText(outcome.status)}`,
      );
      return false;
    }
    let good = true;
    const permanent = permanentEnd(outcome);
    if (permanent !== undefined) {
      this.findAt(
        places,
        'redirected_link',
        `${check.url} moved permanently to ${permanent}`,
        permanent,
      );
      good = false;
    }
    for (const fragment of outcome.missing_fragments ?? []) {
      good = false;
      for (const o of check.occurrences) {
        if (o.text.endsWith(`#${fragment}`)) {
          this.find(o, 'missing_fragment', `#${fragment} is not an id or name on ${check.url}`);
        }
      }
    }
    return good;
  }

  // ---- hosts and domains

  private hostVerdict(host: string): Promise<HostVerdict> {
    return askedOnce(this.hostVerdicts, host, () => this.lookUpHost(host));
  }

  private async lookUpHost(host: string): Promise<HostVerdict> {
    const key = `${this.keyPrefix}host ${host}`;
    if (this.cache.get(key) !== undefined) return { kind: 'resolves' };
    try {
      const answer = await this.services.domain.query(
        {
          host,
          types: ['A', 'AAAA'],
          ...(this.options.server ? { server: this.options.server } : {}),
        },
        this.callOptions(),
      );
      if (answer.status === 'NXDOMAIN') return { kind: 'nxdomain' };
      // Nothing found while a question failed: the failed one might have found it.
      const failed = unanswered(answer);
      if (failed) return { kind: 'unknown', why: failed };
      this.cache.set(key, true);
      return { kind: 'resolves' };
    } catch (err) {
      endsTheRun(err);
      if (err instanceof LookupError && err.code === 'not_found') return { kind: 'nxdomain' };
      return { kind: 'unknown', why: reason(err) };
    }
  }

  private domainVerdict(domain: string): Promise<DomainVerdict> {
    return askedOnce(this.domainVerdicts, domain, () => this.lookUpDomain(domain));
  }

  private async lookUpDomain(domain: string): Promise<DomainVerdict> {
    const key = `whois ${domain}`;
    const cached = this.cache.get<{ expires?: string }>(key);
    if (cached !== undefined) return { kind: 'registered', ...cached };
    try {
      const whois = await this.services.domain.whois({ host: domain }, this.callOptions());
      const expires = whois.domain.expiration_date_in_time ?? whois.domain.expiration_date;
      const verdict: DomainVerdict = {
        kind: 'registered',
        ...(expires ? { expires } : {}),
      };
      this.cache.set(key, expires ? { expires } : {});
      return verdict;
    } catch (err) {
      endsTheRun(err);
      if (err instanceof LookupError && err.code === 'not_found') return { kind: 'unregistered' };
      return { kind: 'unknown', why: reason(err) };
    }
  }

  /**
   * A name that does not exist: when its registrable domain (under an ICANN suffix) is free,
   * anyone can register it (and answer for the name); otherwise the name alone is missing.
   */
  private async reportMissingName(
    name: string,
    occurrences: Occurrence[],
    kind: 'unresolvable_host' | 'dangling_record',
  ): Promise<void> {
    const domain = registrable(name);
    const verdict = domain ? await this.domainVerdict(domain) : undefined;
    if (verdict?.kind === 'unknown' && domain) {
      this.failed(
        `whois ${domain}`,
        `whether ${domain} is registered could not be checked: ${verdict.why}`,
        occurrences,
      );
    }
    for (const o of occurrences) {
      if (verdict?.kind === 'unregistered' && domain) {
        const what = kind === 'dangling_record' ? 'dangling_record' : 'registrable_domain';
        this.find(
          o,
          what,
          `${domain} is not registered: anyone can register it and answer for ${name}`,
        );
      } else if (kind === 'dangling_record') {
        this.find(o, kind, `${name} does not exist (NXDOMAIN)`);
      } else {
        this.find(o, kind, `${name} does not resolve (NXDOMAIN)`);
      }
    }
  }

  /** A registered domain that lapses soon. */
  private async reportDomain(host: string, occurrences: Occurrence[]): Promise<void> {
    const registration = await this.registrationOf(
      host,
      occurrences,
      (domain, why) =>
        `the registration of ${domain} could not be checked (${why}): its expiry is unknown`,
    );
    if (registration === undefined) return;
    const { domain, verdict } = registration;
    if (verdict.kind !== 'registered' || verdict.expires === undefined) return;
    const expires = Date.parse(verdict.expires);
    if (Number.isNaN(expires)) return;
    const windowMs = (this.options.expiryDays ?? 30) * DAY_MS;
    const left = expires - this.now();
    if (left > windowMs) return;
    const date = new Date(expires).toISOString().slice(0, 10);
    const message =
      left < 0
        ? `${domain} expired on ${date}`
        : `${domain} expires on ${date} (in ${Math.ceil(left / DAY_MS)} days)`;
    for (const o of occurrences) this.find(o, 'expiring_domain', message);
  }

  // ---- mail and zone records

  private async checkMail(domain: string, occurrences: Occurrence[]): Promise<void> {
    const verdict = await this.mailVerdict(domain);
    if (verdict.accepts === 'unknown') {
      this.failed(
        `mail ${domain}`,
        `whether ${domain} takes mail could not be checked: ${verdict.why}`,
        occurrences,
      );
      return;
    }
    if (verdict.accepts) {
      await this.reportDomain(domain, occurrences);
      return;
    }
    for (const o of occurrences) this.find(o, 'broken_link', verdict.why);
  }

  /** RFC 5321 section 5.1: MX, else the implicit MX of an address; RFC 7505: a null MX. */
  private async mailVerdict(domain: string): Promise<MailVerdict> {
    const server = this.options.server ? { server: this.options.server } : {};
    let answer;
    try {
      answer = await this.services.domain.query(
        { host: domain, types: ['MX', 'A', 'AAAA'], ...server },
        this.callOptions(),
      );
    } catch (err) {
      endsTheRun(err);
      return { accepts: 'unknown', why: reason(err) };
    }
    const failed = answer.status === 'NXDOMAIN' ? undefined : unanswered(answer);
    if (failed) return { accepts: 'unknown', why: failed };
    if (answer.status === 'NXDOMAIN') {
      const reg = registrable(domain);
      const whois = reg ? await this.domainVerdict(reg) : undefined;
      if (whois?.kind === 'unregistered' && reg)
        return {
          accepts: false,
          why: `${reg} is not registered: anyone can register it and receive this mail`,
        };
      return { accepts: false, why: `${domain} does not exist (NXDOMAIN): mail to it bounces` };
    }
    const mx = answer.records.filter((r) => r.type === 'MX');
    if (mx.some((r) => r.value === '' || r.value === '.'))
      return { accepts: false, why: `${domain} accepts no mail (null MX, RFC 7505)` };
    if (mx.length > 0 || answer.records.some((r) => r.type === 'A' || r.type === 'AAAA'))
      return { accepts: true };
    return { accepts: false, why: `${domain} has no MX and no address: mail to it bounces` };
  }

  private async checkRecord(name: string, occurrences: Occurrence[]): Promise<void> {
    const verdict = await this.hostVerdict(name);
    if (verdict.kind === 'nxdomain') {
      await this.reportMissingName(name, occurrences, 'dangling_record');
      return;
    }
    if (verdict.kind === 'unknown') {
      this.failed(`dns ${name}`, `${name} could not be resolved: ${verdict.why}`, occurrences);
    }
    // Resolving is not enough when the domain behind it is free for the taking.
    const registration = await this.registrationOf(
      name,
      occurrences,
      (domain, why) => `whether ${domain} is registered could not be checked: ${why}`,
    );
    if (registration?.verdict.kind === 'unregistered') {
      const { domain } = registration;
      for (const o of occurrences)
        this.find(o, 'dangling_record', `${domain} is not registered: anyone can register it`);
    }
  }

  /**
   * The registration of the domain `host` is under, asked once a run; undefined when there is
   * no such domain, or when the look-up failed (reported with the text `unchecked` gives).
   */
  private async registrationOf(
    host: string,
    occurrences: Occurrence[],
    unchecked: (domain: string, why: string) => string,
  ) {
    const domain = registrable(host);
    if (!domain) return undefined;
    const verdict = await this.domainVerdict(domain);
    if (verdict.kind === 'unknown') {
      this.failed(`whois ${domain}`, unchecked(domain, verdict.why), occurrences);
      return undefined;
    }
    return { domain, verdict };
  }

  /** A host name written on its own: it should exist, and its domain stay registered. */
  private async checkHost(name: string, occurrences: Occurrence[]): Promise<void> {
    const verdict = await this.hostVerdict(name);
    if (verdict.kind === 'nxdomain') {
      await this.reportMissingName(name, occurrences, 'unresolvable_host');
    } else if (verdict.kind === 'unknown') {
      this.failed(`dns ${name}`, `${name} could not be resolved: ${verdict.why}`, occurrences);
    } else {
      await this.reportDomain(name, occurrences);
    }
  }

  private failed(asked: string, message: string, occurrences: Occurrence[]): void {
    const failure = this.failures.get(asked);
    if (failure) failure.occurrences.push(...occurrences);
    else this.failures.set(asked, { message, occurrences: [...occurrences] });
  }

  /**
   * One lookup_failed finding for each thing whose look-up failed, at the first place (in
   * file order) that needed it: a WHOIS server that is down should not fill the Problems panel.
   */
  private reportFailures(): void {
    for (const { message, occurrences } of this.failures.values()) {
      const first = occurrences.reduce((a, b) => (compareOccurrences(a, b) <= 0 ? a : b));
      const others = new Set(occurrences.map((o) => `${o.file}:${o.line}:${o.column}`)).size - 1;
      const more = others > 0 ? ` (and ${others} more place${others === 1 ? '' : 's'})` : '';
      this.find(first, 'lookup_failed', `${message}${more}`);
    }
    this.failures.clear();
  }

  private callOptions() {
    return this.options.signal ? { signal: this.options.signal } : {};
  }

  /** The same finding at each of a target's places. */
  private findAt(
    places: readonly Occurrence[],
    kind: FindingKind,
    message: string,
    finalUrl?: string,
  ): void {
    for (const o of places) this.find(o, kind, message, finalUrl);
  }

  private find(o: Occurrence, kind: FindingKind, message: string, finalUrl?: string): void {
    const finding: Finding = {
      file: relativeTo(this.options.cwd, o.file),
      line: o.line + 1,
      column: o.column + 1,
      target: o.text,
      kind,
      severity: DEFAULT_SEVERITY[kind],
      message,
    };
    if (finalUrl !== undefined) finding.final_url = finalUrl;
    this.findings.push(finding);
  }
}

/**
 * A service that refuses the token refuses every call: the run fails (exit 2) rather than
 * report each link as broken.
 */
/** The answer already asked for `key` in this run, or a new question started now and kept. */
function askedOnce<T>(
  asked: Map<string, Promise<T>>,
  key: string,
  ask: () => Promise<T>,
): Promise<T> {
  let answer = asked.get(key);
  if (answer === undefined) {
    answer = ask();
    asked.set(key, answer);
  }
  return answer;
}

function endsTheRun(err: unknown): void {
  if (err instanceof LookupError && err.code === 'unauthorized') throw err;
}

/** Why an answer without records may be wrong: the questions that failed, if any did. */
function unanswered(answer: QueryResult): string | undefined {
  if (answer.records.length > 0 || !answer.errors?.length) return undefined;
  return answer.errors.map((e) => `${e.type} ${e.code}`).join(', ');
}

function reason(err: unknown): string {
  return err instanceof LookupError ? `${err.code}: ${err.message}` : String(err);
}

function compareOccurrences(a: Occurrence, b: Occurrence): number {
  return (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column;
}

/**
 * A name written on its own is looked up only under a suffix of the ICANN section of the
 * public suffix list: under any other (corp, lan, an internal zone) the public DNS cannot speak
 * for it, and an NXDOMAIN would be a false alarm.
 */
function isPublicName(name: string): boolean {
  if (isReserved(name) || isIp(name)) return false;
  return parseHost(name, { allowPrivateDomains: false }).isIcann === true;
}

/** What a failed link call means. */
function errorFinding(err: LookupError): [FindingKind, string] {
  switch (err.code) {
    case 'upstream_timeout':
      return ['timeout', err.message];
    case 'blocked_target':
      return ['blocked_target', 'the service may not fetch this address (private or loopback)'];
    case 'rate_limited':
      return ['rate_limited', err.message];
    case 'not_found':
      return ['unresolvable_host', err.message];
    case 'invalid_url':
    case 'invalid_host':
      return ['broken_link', err.message];
    default:
      return ['broken_link', err.message];
  }
}

/**
 * Where a chain of permanent redirects (301, 308) ends. A temporary hop (302, 303, 307) ends
 * what may be replaced: the URL before it is the one to keep.
 */
function permanentEnd(outcome: LinkResult): string | undefined {
  let end: string | undefined;
  for (const hop of outcome.locations) {
    if (hop.status_code !== 301 && hop.status_code !== 308) break;
    end = hop.location;
  }
  return end;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  410: 'Gone',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

function statusText(status: number): string {
  const text = STATUS_TEXT[status];
  return text ? ` ${text}` : '';
}

function isReserved(host: string): boolean {
  const name = host.replace(/\.$/, '').toLowerCase();
  const tld = name.slice(name.lastIndexOf('.') + 1);
  if (name === 'localhost' || RESERVED_TLDS.has(tld)) return true;
  for (const domain of RESERVED_DOMAINS)
    if (name === domain || name.endsWith(`.${domain}`)) return true;
  return false;
}

function isIp(host: string): boolean {
  return parseHost(host).isIp === true;
}

/**
 * The registrable domain a finding's target names (a URL's host, a mailto: domain, a record's
 * target), for the editor's "Open WHOIS" fix.
 */
export function findingDomain(target: string): string | undefined {
  let host = target;
  if (/^mailto:/i.test(target)) host = target.slice(target.lastIndexOf('@') + 1);
  else if (/^https?:\/\//i.test(target)) {
    try {
      host = new URL(target).hostname;
    } catch {
      return undefined;
    }
  }
  return registrable(host.replace(/\.$/, '').toLowerCase());
}

/**
 * The registrable domain, as WHOIS holds it, or none when the host's public suffix is not in the
 * ICANN section of the public suffix list. Only a suffix a registry sells makes a free domain
 * "registrable by anyone": for any other (corp, lan, test, a private zone) tldts applies the
 * list's default rule `*` and names a domain that no registry holds, so a WHOIS "not found"
 * there says nothing and an NXDOMAIN under it is only a missing name.
 */
function registrable(host: string): string | undefined {
  if (isIp(host)) return undefined;
  const parsed = parseHost(host, { allowPrivateDomains: false });
  if (parsed.isIcann !== true) return undefined;
  return parsed.domain === null || parsed.domain === '' ? undefined : parsed.domain;
}

async function fileKind(path: string): Promise<'file' | 'directory' | 'missing'> {
  try {
    const info = await stat(path);
    return info.isDirectory() ? 'directory' : 'file';
  } catch {
    return 'missing';
  }
}

async function readAnchors(path: string): Promise<Set<string> | undefined> {
  const ext = extname(path).toLowerCase();
  const markdown = ext === '.md' || ext === '.markdown' || ext === '.mdx';
  if (!markdown && ext !== '.html' && ext !== '.htm') return undefined;
  try {
    return anchorsOf(await readFile(path, 'utf8'), markdown);
  } catch {
    return undefined;
  }
}

function relativeTo(cwd: string, file: string): string {
  const rel = relative(cwd, file);
  return sep === '/' ? rel : rel.split(sep).join('/');
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function decode(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

function asLookupError(err: unknown): LookupError {
  if (err instanceof LookupError) return err;
  return new LookupError('internal_error', (err as Error)?.message ?? String(err));
}

/** Full jitter around the step: between half and one and a half times it. */
function jitter(ms: number): number {
  return Math.round(ms * (0.5 + Math.random()));
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
