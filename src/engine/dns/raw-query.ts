// SPF macros can build names whose labels hold any printable octet ("foo:bar/baz", spaces,
// "%"): legal on the wire (RFC 2181 section 11) but refused by the host-name checks. For those
// names only, this asks the question itself, through the same transport and checks as every
// other look-up. The name is read in presentation form, as the engine prints names (an MX
// target `foo\:bar/baz.example.` asks the label `foo:bar/baz`); a backslash in text that is
// not a name the engine printed must therefore be written `\\`.
import { LookupError, throwIfAborted } from '../../contract/errors';
import type { QueryResult, RecordType } from '../../contract/shapes';
import { askTypes } from './ask';
import { textToLabels } from './names';
import { DEFAULT_TIMEOUT_MS, DEFAULT_TRIES, serversFor, type DnsOptions } from './query';

/** Whether a name is a legal wire name of printable ASCII (labels 1-63, at most 253). */
export function isWireName(name: string): boolean {
  const body = name.endsWith('.') ? name.slice(0, -1) : name;
  if (body.length === 0 || body.length > 253 || !/^[\x20-\x7e]+$/.test(body)) return false;
  return body.split('.').every((l) => l.length > 0 && l.length <= 63);
}

export async function rawQuery(
  name: string,
  type: RecordType,
  server: string | undefined,
  options: DnsOptions = {},
): Promise<QueryResult> {
  throwIfAborted(options.signal);
  if (!isWireName(name)) throw new LookupError('invalid_host', 'Not a name that can be asked');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const tries = options.tries ?? DEFAULT_TRIES;
  const servers = await (options.servers?.() ?? serversFor(server, options, timeoutMs * tries));
  const labels = textToLabels(name);
  const [outcome] = await askTypes(labels, [type], {
    servers,
    timeoutMs,
    tries,
    deadline: Date.now() + timeoutMs * tries,
    options: { signal: options.signal, ca: options.ca },
  });
  switch (outcome.kind) {
    case 'records':
      return { records: outcome.records, status: 'NOERROR' };
    case 'nxdomain':
      return { records: [], status: 'NXDOMAIN' };
    case 'nodata':
      return { records: [], status: 'NOERROR' };
    case 'failed':
      if (outcome.code === 'upstream_timeout') {
        throw new LookupError('upstream_timeout', `No answer for ${name}`);
      }
      return { records: [], errors: [{ type, code: outcome.code }] };
    case 'cancelled':
      throw new LookupError('cancelled', 'The request was cancelled');
  }
}
