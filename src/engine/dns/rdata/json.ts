// Record data to the contract's JSON through the type table: each field's codec sets its key
// (the field names of the contract's types are the contract's keys), so a type the contract
// gains is a field list in types.ts, not a case here.
import type { DnsRecord, RecordType } from '../../../contract/shapes';
import { MalformedMessage } from '../errors';
import { CODECS } from './codecs';
import { WireReader } from './reader';
import { TYPES } from './types';

/** The contract's record for record data of `type` at `at` in `message`. */
export function recordJson(
  message: Uint8Array,
  at: number,
  length: number,
  type: RecordType,
  ttl?: number,
): DnsRecord {
  const reader = new WireReader(message, at, at + length, false);
  const record: { type: RecordType; [key: string]: unknown } = { type };
  const { fields } = TYPES[type];
  for (const field of fields) CODECS[field.kind].json(reader, record, field.name);
  if (!reader.done()) throw new MalformedMessage(`${type} data is longer than its fields`);
  if (ttl !== undefined) record.ttl = ttl;
  return record;
}
