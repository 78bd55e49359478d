// Knot DNS (knotd) serving zone files on a loopback port, for conformance tests. A free port
// is only free until someone else binds it, so a start that fails to bind (knotd exits or
// logs "address already in use") is retried on another port.
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import * as packet from 'dns-packet';

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

/** A loopback port free at the moment of asking (the callers retry if someone takes it). */
export async function freePort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(resolve));
  return port;
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

/** Starts knotd and waits until it answers the first zone's SOA; retries on a taken port. */
export async function startKnot(knotd: string, zones: KnotZone[]): Promise<KnotServer> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const dir = mkdtempSync(join(tmpdir(), 'hostlens-knot-'));
    const port = await freePort();
    writeFileSync(
      join(dir, 'knot.conf'),
      knotConfig(
        dir,
        port,
        zones.map((z) => ({ domain: z.origin, file: z.file })),
      ),
    );
    const child = spawn(knotd, ['-c', join(dir, 'knot.conf')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const close = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    };
    try {
      await waitUntilServing(child, port, zones[0].origin, () => log);
      return { port, address: `127.0.0.1:${port}`, close };
    } catch (err) {
      lastError = err;
      await close();
      if (!/address already in use|exited/i.test(String(err))) break;
    }
  }
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}

async function waitUntilServing(
  child: ChildProcess,
  port: number,
  origin: string,
  log: () => string,
): Promise<void> {
  const deadline = Date.now() + 10000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`knotd exited (${child.exitCode}): ${log()}`);
    if (/address already in use/i.test(log())) throw new Error(`knotd: ${log()}`);
    if (await answersSoa(port, origin)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`knotd did not serve ${origin} in time: ${log()}`);
}

/** One UDP SOA question, asked with dns-packet so the engine under test is not involved. */
function answersSoa(port: number, origin: string): Promise<boolean> {
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

/**
 * A loopback UDP port nothing listens on, below the kernel's ephemeral range: a port taken
 * from that range can be handed straight back to the client's own socket, which then asks
 * itself (and reads its query as a malformed answer) instead of meeting a closed port.
 */
export async function closedUdpPort(): Promise<number> {
  const below = ephemeralLow();
  for (;;) {
    const port = 1024 + Math.floor(Math.random() * (below - 1024));
    const socket = createSocket('udp4');
    const bound = await new Promise<boolean>((resolve) => {
      socket.once('error', () => resolve(false));
      socket.bind(port, '127.0.0.1', () => resolve(true));
    });
    if (!bound) continue; // taken: the failed socket is already closed
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    return port;
  }
}

/** The kernel's lowest ephemeral port (Linux), or the usual 32768 where it cannot be read. */
function ephemeralLow(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (Number.isInteger(low) && low > 2048) return low;
  } catch {
    // not Linux: fall through
  }
  return 32768;
}
