// `hostlens query` for people: the answer as zone-file lines (RFC 1035 section 5.1
// presentation format), grouped by type and aligned, then the status and the types whose
// look-up failed, the way dig prints its answer section.
import type { DnsRecord, DnssecResult, QueryResult } from '../../contract/shapes';
import { fqdn, renderer, type RenderContext } from './context';
import { columns, plural } from './layout';

const FAILURE_TEXT: Record<string, string> = {
  upstream_timeout: 'no answer in time',
  upstream_error: 'the server answered with an error',
  servfail: 'SERVFAIL: the server could not answer',
  refused: 'REFUSED: the server will not answer this question',
  connection_refused: 'connection refused',
};

export const renderQuery = renderer<QueryResult>((result, context) => {
  const { style } = context;
  const name = fqdn(context.params.host);
  // The CNAMEs followed come first, then the records, each under its own owner, as dig
  // prints an answer section; an own CNAME asked for is one of the chain's lines already.
  const chain = result.chain ?? [];
  const inChain = (r: DnsRecord) =>
    r.type === 'CNAME' &&
    chain.some((c) => (c.name ?? name) === (r.name ?? name) && c.value === r.value);
  const records = [...chain, ...groupByType(result.records.filter((r) => !inChain(r)))];
  // Resolvers that hide TTLs leave the column out rather than print an empty one.
  const ttls = records.some((record) => record.ttl !== undefined);
  const rows = records.map((record) => [
    record.name ?? name,
    ...(ttls ? [record.ttl === undefined ? '' : String(record.ttl)] : []),
    'IN',
    style.cyan(record.type),
    presentation(record),
  ]);
  const lines: string[] = [];
  columns(rows, ttls ? ['left', 'right'] : []).forEach((line, i) => {
    // a blank line between types, like the groups of a zone file
    if (i > 0 && records[i].type !== records[i - 1].type) lines.push('');
    lines.push(line);
  });
  if (lines.length > 0) lines.push('');
  const target = chain.at(-1)?.value;
  // NXDOMAIN at the end of a chain is about its last name, not the asked one.
  lines.push(statusLine(result, records.length, target ?? name, context));
  if (target !== undefined) lines.push(style.dim(`;; ${name} is an alias of ${target}`));
  if (result.dnssec !== undefined) lines.push(...dnssecLines(result.dnssec, context));
  for (const failure of result.errors ?? [])
    lines.push(
      style.red(
        `;; ${failure.type} failed: ${failure.code} (${FAILURE_TEXT[failure.code] ?? failure.code})`,
      ),
    );
  return lines.join('\n');
});

const DNSSEC_TONE = {
  secure: 'green',
  insecure: 'yellow',
  bogus: 'red',
  indeterminate: 'yellow',
} as const;

/** The verdict as `delv` leads with it, its reason, and the zones the trust ran through. */
function dnssecLines(dnssec: DnssecResult, { style }: RenderContext): string[] {
  const colour = style[DNSSEC_TONE[dnssec.status]];
  const lines = [colour(`;; DNSSEC: ${dnssec.status} (${dnssec.reason})`)];
  if (dnssec.chain.length > 0) {
    lines.push(style.dim(`;; chain of trust: ${dnssec.chain.map((l) => l.zone).join(' > ')}`));
  }
  return lines;
}

/** The records of one type together, the types in the order they came (the asked order). */
function groupByType(records: DnsRecord[]): DnsRecord[] {
  const order = [...new Set(records.map((r) => r.type))];
  return order.flatMap((type) => records.filter((r) => r.type === type));
}

/** `count`: the lines printed, the CNAMEs followed included (dig's ANSWER count). */
function statusLine(
  result: QueryResult,
  count: number,
  name: string,
  { style }: RenderContext,
): string {
  const status = result.status ?? 'NOERROR';
  if (status === 'NXDOMAIN') return style.red(`;; status: NXDOMAIN (${name} does not exist)`);
  const detail = count === 0 ? 'no records of the types asked' : plural(count, 'record');
  const text = `;; status: ${status}, ${detail}`;
  return count === 0 ? style.yellow(text) : style.green(text);
}

/** The RDATA of one record in zone-file syntax. */
export function presentation(record: DnsRecord): string {
  const value = record.value ?? '';
  switch (record.type) {
    case 'MX':
      return `${record.priority ?? 0} ${value}`;
    case 'SRV':
      return `${record.priority ?? 0} ${record.weight ?? 0} ${record.port ?? 0} ${value}`;
    case 'CAA':
      return `${record.flags ?? 0} ${record.tag ?? ''} ${quote(value)}`;
    case 'TXT':
      return (record.parts ?? [value]).map(quote).join(' ');
    case 'SOA':
      return [
        record.mname,
        record.rname,
        record.serial,
        record.refresh,
        record.retry,
        record.expire,
        record.min_ttl,
      ]
        .map((v) => String(v ?? ''))
        .join(' ');
    default:
      return value;
  }
}

/**
 * A <character-string> in double quotes: `"` and `\` escaped with a backslash, control
 * characters as \DDD (RFC 1035 section 5.1); other text stays readable as it is.
 */
export function quote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (code < 0x20 || code === 0x7f) out += `\\${String(code).padStart(3, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}
