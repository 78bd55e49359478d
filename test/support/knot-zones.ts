// Knot DNS on a loopback port serving given zone texts, for the zone drift tests (unit and
// VS Code). Zones with `transfer` allow AXFR from 127.0.0.1; the others refuse it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { askRecords } from '../../src/engine/zone/axfr';
import { findTool, freeServicePort, knotConfig, launchKnotd, type KnotdProcess } from './knot';

export { freeServicePort as freePort };

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
  const files = zones.map((zone) => {
    const file = join(dir, `${zone.name}.zone`);
    writeFileSync(file, zone.text);
    return { domain: zone.name, file, transfer: zone.transfer };
  });
  let knot: KnotdProcess;
  try {
    knot = await launchKnotd(knotd, {
      dir,
      config: (port) => knotConfig(dir, port, files),
      serving: (port) => servesEveryZone(port, zones),
      timeoutMs: 10000,
    });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    throw err;
  }
  return {
    server: `127.0.0.1:${knot.port}`,
    port: knot.port,
    dir,
    close: async () => {
      await knot.stop();
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

/** Every zone's SOA, asked through the engine's AXFR-side client (the one the drift tests use). */
async function servesEveryZone(port: number, zones: KnotZone[]): Promise<boolean> {
  try {
    const soas = await Promise.all(
      zones.map((z) =>
        askRecords(`${z.name}.`, 6, { address: '127.0.0.1', port }, { timeoutMs: 500 }),
      ),
    );
    return soas.every((soa) => soa.length === 1);
  } catch {
    return false;
  }
}
