// `hostlens query` for people: the answer as zone-file lines (RFC 1035 section 5.1
// presentation format), grouped by type and aligned, then the status and the types whose
// look-up failed, the way dig prints its answer section.
import type { DnsRecord, QueryResult } from '../../contract/shapes';
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
  const records = groupByType(result.records);
  // Resolvers that hide TTLs leave the column out rather than print an empty one.
  const ttls = records.some((record) => record.ttl !== undefined);
  const rows = records.map((record) => [
    name,
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
  lines.push(statusLine(result, name, context));
  if (
    result.records.some((r) => r.type === 'CNAME') &&
    result.records.some((r) => r.type !== 'CNAME')
  )
    lines.push(
      style.dim(`;; ${name} is an alias: the other records belong to the name its CNAME leads to`),
    );
  for (const failure of result.errors ?? [])
    lines.push(
      style.red(
        `;; ${failure.type} failed: ${failure.code} (${FAILURE_TEXT[failure.code] ?? failure.code})`,
      ),
    );
  return lines.join('\n');
});

/** CNAME first (it explains the rest), then the types in the order they came. */
function groupByType(records: DnsRecord[]): DnsRecord[] {
  const order = [...new Set(records.map((r) => r.type))].sort(
    (a, b) => Number(b === 'CNAME') - Number(a === 'CNAME'),
  );
  return order.flatMap((type) => records.filter((r) => r.type === type));
}

function statusLine(result: QueryResult, name: string, { style }: RenderContext): string {
  const status = result.status ?? 'NOERROR';
  if (status === 'NXDOMAIN') return style.red(`;; status: NXDOMAIN (${name} does not exist)`);
  const count = result.records.length;
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
