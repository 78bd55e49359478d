// Knot DNS (knotd) serving zone files on a loopback port, for conformance tests, and the one
// launcher every knotd of the tests goes through.
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import * as packet from 'dns-packet';
import { closedUdpPort, freeServicePort } from './ports';

export interface KnotZone {
  origin: string;
  file: string;
}

export interface KnotServer {
  port: number;
  /** "127.0.0.1:port" */
  address: string;
  close(): Promise<void>;
}

export { closedUdpPort, freeServicePort };

export function findTool(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** A zone as knotd.conf names it: its domain, its file, and whether 127.0.0.1 may AXFR it. */
export interface KnotConfigZone {
  domain: string;
  file: string;
  transfer?: boolean;
}

/**
 * The one knotd.conf of the tests: a loopback listener, state in `dir`, warnings on stderr,
 * zones read whole from their files and never written back.
 */
export function knotConfig(dir: string, port: number, zones: KnotConfigZone[]): string {
  return [
    'server:',
    `    rundir: "${dir}"`,
    `    listen: 127.0.0.1@${port}`,
    'database:',
    `    storage: "${dir}"`,
    'log:',
    '  - target: stderr',
    '    any: warning',
    'acl:',
    '  - id: transfer',
    '    address: 127.0.0.1',
    '    action: transfer',
    'zone:',
    ...zones.flatMap((z) => [
      `  - domain: "${z.domain}"`,
      `    file: "${z.file}"`,
      ...(z.transfer === true ? ['    acl: transfer'] : []),
      '    zonefile-sync: -1',
      '    zonefile-load: whole',
      '    journal-content: none',
    ]),
    '',
  ].join('\n');
}

/** Starts knotd and waits until it answers the first zone's SOA. */
export async function startKnot(knotd: string, zones: KnotZone[]): Promise<KnotServer> {
  const dir = mkdtempSync(join(tmpdir(), 'hostlens-knot-'));
  try {
    const knot = await launchKnotd(knotd, {
      dir,
      config: (port) =>
        knotConfig(
          dir,
          port,
          zones.map((z) => ({ domain: z.origin, file: z.file })),
        ),
      serving: (port) => answersSoa(port, zones[0].origin),
      timeoutMs: 10000,
    });
    return {
      port: knot.port,
      address: `127.0.0.1:${knot.port}`,
      close: async () => {
        await knot.stop();
        rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
      },
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    throw err;
  }
}

export interface KnotdLaunch {
  /** Where knot.conf goes (the caller owns and removes the folder). */
  dir: string;
  config(port: number): string;
  /** Whether knotd on `port` serves what the caller needs yet. */
  serving(port: number): Promise<boolean>;
  timeoutMs: number;
}

export interface KnotdProcess {
  port: number;
  stop(): Promise<void>;
}

/**
 * Runs knotd with the config for a free port and waits until `serving` says yes. A free port
 * is only free until someone else binds it, so a start that loses its port (knotd exits or
 * logs "address already in use") is retried on another one.
 */
export async function launchKnotd(knotd: string, launch: KnotdLaunch): Promise<KnotdProcess> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freeServicePort();
    writeFileSync(join(launch.dir, 'knot.conf'), launch.config(port));
    const child = spawn(knotd, ['-c', join(launch.dir, 'knot.conf')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const stop = () => stopChild(child);
    try {
      await waitUntilServing(child, port, launch, () => log);
      return { port, stop };
    } catch (err) {
      lastError = err;
      await stop();
      if (!/address already in use|exited/i.test(String(err))) break;
    }
  }
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  // knotd writes into its folder until it has exited, so the caller waits before removing it
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

async function waitUntilServing(
  child: ChildProcess,
  port: number,
  launch: KnotdLaunch,
  log: () => string,
): Promise<void> {
  const deadline = Date.now() + launch.timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`knotd exited (${child.exitCode}): ${log()}`);
    if (/address already in use/i.test(log())) throw new Error(`knotd: ${log()}`);
    if (await launch.serving(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`knotd did not serve in time: ${log()}`);
}

/** One UDP SOA question, asked with dns-packet so the engine under test is not involved. */
export function answersSoa(port: number, origin: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    const timer = setTimeout(() => done(false), 300);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.close();
      resolve(ok);
    };
    socket.on('error', () => done(false));
    socket.on('message', (msg: Buffer) => {
      try {
        const reply = packet.decode(msg);
        done((reply.answers ?? []).some((a) => a.type === 'SOA'));
      } catch {
        done(false);
      }
    });
    socket.send(
      packet.encode({ type: 'query', id: 1, questions: [{ type: 'SOA', name: origin }] }),
      port,
      '127.0.0.1',
    );
  });
}
