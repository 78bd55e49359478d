// One `tls` look-up (issue 22) from a cold `hostlens serve` over a link with 50 ms of added
// round-trip latency: the name's A record from a nameserver that answers 50 ms late, then TCP
// and a TLS 1.3 handshake through a proxy that adds 50 ms a round trip (test/support/
// latency-proxy.ts). Critical path: 3 round trips (A, TCP, TLS 1.3). The CAA and TLSA
// questions go out beside them and must not lengthen it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDnsServer } from '../support/dns-server';
import { startLatencyProxy } from '../support/latency-proxy';
import { makeTestPki } from '../support/tls-pki';
import { serveTls } from '../support/tls-server';
import { ensureBuilt, measure, row, warmClient } from './dns.bench';
import type { BenchRow } from './types';

const RTT_MS = 50;
const ROUND_TRIPS = 3;

export default async function tlsBench(): Promise<BenchRow[]> {
  ensureBuilt();
  await warmClient();
  const pki = makeTestPki({ hostile: false });
  const dir = mkdtempSync(join(tmpdir(), 'hostlens-bench-tls-'));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, pki.ca);
  const tls = await serveTls(pki.cases.good);
  const proxy = await startLatencyProxy({ host: '127.0.0.1', port: tls.port }, RTT_MS);
  const dns = await startDnsServer({
    records: [{ name: 'good.test', type: 'A', data: '127.0.0.1' }],
    delayMs: RTT_MS,
  });
  try {
    const path =
      `/domain/tls?host=good.test&port=${proxy.port}` +
      `&server=${encodeURIComponent(dns.address)}`;
    const m = await measure(
      path,
      (body) => {
        const result = JSON.parse(body) as { trusted: boolean; protocol: string };
        if (!result.trusted || result.protocol !== 'TLSv1.3') throw new Error(`answer: ${body}`);
      },
      { NODE_EXTRA_CA_CERTS: caFile },
    );
    return [
      row(
        `tls via serve: one look-up, ${RTT_MS} ms round trips (A, TCP, TLS 1.3)`,
        m,
        ROUND_TRIPS * RTT_MS,
        1.2,
        `; ${ROUND_TRIPS} round trips; ${dns.queries.length} DNS questions in all (A, CAA up the tree, TLSA and its DNSSEC chain)`,
      ),
    ];
  } finally {
    await dns.close();
    await proxy.close();
    await tls.close();
    pki.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
