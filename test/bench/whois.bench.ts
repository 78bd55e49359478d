// Parse every whois-parser corpus reply with HostLens's parser and with whoiser's
// parseDomainWhois: time per reply, the ratio (whoiser / ours, target >= 5), and each parser's
// field agreement with whois-parser's expectations beside it.
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import type { WhoisResult } from '../../src/engine/types';
import { parseWhois } from '../../src/engine/whois/parse';
import {
  compare,
  corpusAvailable,
  loadReplies,
  overall,
  pct,
  type FieldTally,
} from '../support/whois-corpus';
import type { BenchRow } from './types';

type WhoiserParse = (
  domain: string,
  text: string,
  ignorePrivacy: boolean,
) => Record<string, unknown>;

const require = createRequire(__filename);

function ours(domain: string, text: string): WhoisResult | undefined {
  try {
    return parseWhois(text, { domain });
  } catch {
    return undefined;
  }
}

// whoiser returns the registry's own labels; this maps the common ones onto the seed's shape so
// its agreement can be reported on the same scale. Dates are read with V8's Date.parse.
function whoiserToSeed(out: Record<string, unknown>): WhoisResult {
  const str = (k: string): string | undefined =>
    typeof out[k] === 'string' && out[k] !== '' ? out[k] : undefined;
  const list = (k: string): string[] =>
    Array.isArray(out[k]) ? (out[k] as string[]) : str(k) ? [str(k)!] : [];
  const domain: WhoisResult['domain'] = {};
  const name = str('Domain Name')?.toLowerCase();
  if (name) {
    domain.domain = name;
    domain.punycode = name;
    const dot = name.lastIndexOf('.');
    domain.name = dot < 0 ? name : name.slice(0, dot);
    if (dot >= 0) domain.extension = name.slice(dot + 1);
  }
  if (str('Registry Domain ID')) domain.id = str('Registry Domain ID');
  if (str('Registrar WHOIS Server')) domain.whois_server = str('Registrar WHOIS Server');
  const status = list('Domain Status')
    .map((s) => s.split(/\s+/)[0].toLowerCase())
    .filter((s) => s !== '');
  if (status.length) domain.status = status;
  const ns = list('Name Server').map((s) => s.toLowerCase().replace(/\.$/, ''));
  if (ns.length) domain.name_servers = ns;
  if (/^(signed|yes)/i.test(str('DNSSEC') ?? '')) domain.dnssec = true;
  for (const [label, key] of [
    ['Created Date', 'created_date'],
    ['Updated Date', 'updated_date'],
    ['Expiry Date', 'expiration_date'],
  ] as const) {
    const ms = Date.parse(str(label) ?? '');
    if (Number.isFinite(ms)) {
      const iso = new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
      domain[key] = iso;
      domain[`${key}_in_time`] = iso;
    }
  }
  const registrar: WhoisResult['registrar'] = {};
  if (str('Registrar IANA ID')) registrar.id = str('Registrar IANA ID');
  if (str('Registrar')) registrar.name = str('Registrar');
  if (str('Registrar URL')) registrar.referral_url = str('Registrar URL');
  return { domain, registrar };
}

type ParseFn = (d: string, t: string) => unknown;

// The two parsers run in alternating rounds so that load from other processes on a shared
// machine falls on both alike; each round parses every reply once.
function timeBoth(
  replies: Array<{ domain: string; text: string }>,
  a: ParseFn,
  b: ParseFn,
): [number, number] {
  const round = (fn: ParseFn): number => {
    const t0 = performance.now();
    for (const r of replies) fn(r.domain, r.text);
    return performance.now() - t0;
  };
  round(a); // warm-up
  round(b);
  let ta = 0;
  let tb = 0;
  let rounds = 0;
  const start = performance.now();
  while (rounds < 20 || performance.now() - start < 2000) {
    ta += round(a);
    tb += round(b);
    rounds += 1;
  }
  const perReply = (ms: number): number => (ms * 1000) / (rounds * replies.length);
  return [perReply(ta), perReply(tb)];
}

export default function bench(): Promise<BenchRow[]> {
  return Promise.resolve(run());
}

function run(): BenchRow[] {
  if (!corpusAvailable()) {
    return [
      {
        entry: 'whois: parse corpus',
        figure: 'skipped: ../shared/corpus absent',
        target: '-',
        ratio: Number.NaN,
        pass: false,
      },
    ];
  }
  const { parseDomainWhois } = require('whoiser/src/parsers.js') as {
    parseDomainWhois: WhoiserParse;
  };
  const replies = loadReplies('noterror').filter((r) => r.expected !== undefined);
  const [oursUs, theirsUs] = timeBoth(replies, ours, (d, t) => {
    try {
      return parseDomainWhois(d, t, true);
    } catch {
      return undefined;
    }
  });
  const oursTally = new Map<string, FieldTally>();
  const theirsTally = new Map<string, FieldTally>();
  for (const r of replies) {
    compare(ours(r.domain, r.text), r.expected!, oursTally);
    let mapped: WhoisResult | undefined;
    try {
      mapped = whoiserToSeed(parseDomainWhois(r.domain, r.text, true));
    } catch {
      mapped = undefined;
    }
    compare(mapped, r.expected!, theirsTally);
  }
  const a = overall(oursTally);
  const b = overall(theirsTally);
  const ratio = theirsUs / oursUs;
  return [
    {
      entry: `whois: parse ${replies.length} corpus replies (per reply)`,
      figure: `${oursUs.toFixed(1)} µs`,
      target: 'ratio >= 5 (whoiser / ours)',
      ratio,
      pass: ratio >= 5,
      notes: `whoiser ${theirsUs.toFixed(1)} µs; field agreement ours ${pct(a.agree, a.total)} (${a.agree}/${a.total}), whoiser ${pct(b.agree, b.total)} (${b.agree}/${b.total})`,
    },
  ];
}
