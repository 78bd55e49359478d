// Knot DNS on a loopback port serving given zone texts, for the zone drift tests (unit and
// VS Code). Zones with `transfer` allow AXFR from 127.0.0.1; the others refuse it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { askRecords } from '../../src/engine/zone/axfr';
import { findTool, freePort, knotConfig } from './knot';

export { freePort };

export interface KnotZone {
  name: string;
  text: string;
  transfer: boolean;
}

export interface KnotServer {
  /** "127.0.0.1:port" */
  server: string;
  port: number;
  dir: string;
  close(): Promise<void>;
}

export function findKnotd(): string | undefined {
  return findTool('knotd');
}

export async function startKnot(knotd: string, zones: KnotZone[]): Promise<KnotServer> {
  const dir = mkdtempSync(join(tmpdir(), 'hostlens-knot-zone-'));
  const port = await freePort();
  const files = zones.map((zone) => {
    const file = join(dir, `${zone.name}.zone`);
    writeFileSync(file, zone.text);
    return { domain: zone.name, file, transfer: zone.transfer };
  });
  writeFileSync(join(dir, 'knot.conf'), knotConfig(dir, port, files));
  let log = '';
  const knot: ChildProcess = spawn(knotd, ['-c', join(dir, 'knot.conf')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  knot.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const close = async () => {
    // knotd writes into its directory until it has exited
    if (knot.exitCode === null) {
      const exited = new Promise((resolve) => knot.once('exit', resolve));
      knot.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    }
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  };
  const deadline = Date.now() + 10000;
  for (;;) {
    if (knot.exitCode !== null) throw new Error(`knotd exited: ${log}`);
    try {
      const soas = await Promise.all(
        zones.map((z) =>
          askRecords(`${z.name}.`, 6, { address: '127.0.0.1', port }, { timeoutMs: 500 }),
        ),
      );
      if (soas.every((soa) => soa.length === 1)) break;
    } catch (err) {
      if (Date.now() > deadline) {
        await close();
        throw err;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { server: `127.0.0.1:${port}`, port, dir, close };
}
