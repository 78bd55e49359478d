// The records of a validated answer in the contract's shape (docs/contract.md), so that with
// `dnssec=true` the records shown are exactly the ones the verdict is about, bogus ones too.
import type { DnsRecord, RecordType } from '../../../contract/shapes';
import { fqdn } from '../../names';
import type { RRset } from './rrset';

export function contractRecords(type: RecordType, set: RRset): DnsRecord[] {
  const base = { ttl: set.ttl };
  return set.data.flatMap((data): DnsRecord[] => {
    const d = data as Record<string, unknown>;
    switch (type) {
      case 'A':
      case 'AAAA':
        return [{ type, value: String(data), ...base }];
      case 'CNAME':
      case 'NS':
      case 'PTR':
        return [{ type, value: fqdn(String(data)), ...base }];
      case 'MX':
        return [{ type, value: fqdn(String(d.exchange)), priority: Number(d.preference), ...base }];
      case 'TXT': {
        const parts = (Array.isArray(data) ? data : [data]).map((p) =>
          Buffer.from(p as Buffer).toString(),
        );
        return [{ type, value: parts.join(''), parts, ...base }];
      }
      case 'SRV':
        return [
          {
            type,
            priority: Number(d.priority),
            weight: Number(d.weight),
            port: Number(d.port),
            value: fqdn(String(d.target)),
            ...base,
          },
        ];
      case 'CAA':
        return [
          { type, flags: Number(d.flags), tag: String(d.tag), value: String(d.value), ...base },
        ];
      case 'SOA':
        return [
          {
            type,
            mname: fqdn(String(d.mname)),
            rname: fqdn(String(d.rname)),
            serial: Number(d.serial),
            refresh: Number(d.refresh),
            retry: Number(d.retry),
            expire: Number(d.expire),
            min_ttl: Number(d.minimum),
            ...base,
          },
        ];
    }
  });
}
