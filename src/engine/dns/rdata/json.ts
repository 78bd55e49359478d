// Record data to the contract's JSON through the type table: each field's codec sets its key
// (the field names of the contract's types are the contract's keys), so a type the contract
// gains is a field list in types.ts, not a case here.
import { MalformedMessage } from '../errors';
import { CODECS } from './codecs';
import { WireReader } from './reader';
import { TYPES } from './types';

/**
 * The record for record data of `type` (a mnemonic of the table) at `at` in `message`: for the
 * contract's types, the contract's record (a DnsRecord).
 */
export function recordJson<T extends string>(
  message: Uint8Array,
  at: number,
  length: number,
  type: T,
  ttl?: number,
): { type: T; [key: string]: unknown } {
  const spec = TYPES[type];
  if (spec === undefined) throw new MalformedMessage(`no fields known for ${type}`);
  const reader = new WireReader(message, at, at + length, false);
  const record: { type: T; [key: string]: unknown } = { type };
  const { fields } = spec;
  for (const field of fields) CODECS[field.kind].json(reader, record, field.name);
  if (!reader.done()) throw new MalformedMessage(`${type} data is longer than its fields`);
  if (ttl !== undefined) record.ttl = ttl;
  return record;
}
