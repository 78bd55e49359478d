// A loopback authoritative DNS server for tests, over UDP and TCP on one port. It answers from
// fixture records the way an authoritative server would (NXDOMAIN vs NODATA, wildcards, CNAME
// chasing inside its own data) and can misbehave per question: SERVFAIL, REFUSED, silence, or
// the TC bit over UDP so the client has to come back over TCP.
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { createServer, type Server, type Socket as TcpSocket } from 'node:net';
import * as packet from 'dns-packet';
import { loadZoneFile, type FixtureRecord } from './zone-file';

export { loadZoneFile, type FixtureRecord };
export { loadFixtureZones, parseZone, ZONES_DIR } from './zone-file';

export type Behaviour = 'normal' | 'servfail' | 'refused' | 'timeout' | 'truncate';

export interface DnsFixtureOptions {
  records: FixtureRecord[];
  /** delay every answer by this many milliseconds */
  delayMs?: number;
  /** per-question override of the server's behaviour */
  behaviour?: (q: { name: string; type: string }) => Behaviour | undefined;
  port?: number;
  host?: string;
}

export interface DnsFixture {
  host: string;
  port: number;
  /** "127.0.0.1:port" (or "[::1]:port"), ready for the `server` parameter */
  address: string;
  queries: Array<{ name: string; type: string; transport: 'udp' | 'tcp' }>;
  /** TCP connections accepted so far */
  readonly tcpConnections: number;
  close(): Promise<void>;
}

const DEFAULT_TTL = 300;
const MAX_CNAME_CHAIN = 8;
const CLASSIC_UDP_LIMIT = 512;
/** how early a delayed answer's timer is set, the rest being polled (see DelayLine) */
const TIMER_SLACK_MS = 2;
/** answers remembered per fixture server (see `memo`) */
const MEMO_LIMIT = 10_000;
// dns-packet encodes the RCODE only from the low four bits of `flags`.
const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

type Answer = packet.Answer;

interface Resolution {
  rcode: 'NOERROR' | 'NXDOMAIN';
  answers: Answer[];
  authorities: Answer[];
}

/** Case-insensitive zone data with the lookups an authoritative server needs. */
class ZoneData {
  private readonly byName = new Map<string, FixtureRecord[]>();
  /** every name that exists, including empty non-terminals */
  private readonly existing = new Set<string>(['']);

  constructor(records: FixtureRecord[]) {
    for (const record of records) {
      const name = key(record.name);
      const list = this.byName.get(name) ?? [];
      list.push(record);
      this.byName.set(name, list);
      for (let n = name; n !== ''; n = parent(n)) this.existing.add(n);
    }
  }

  resolve(qname: string, qtype: string): Resolution {
    const answers: Answer[] = [];
    let name = qname;
    for (let hop = 0; hop <= MAX_CNAME_CHAIN; hop++) {
      const found = this.recordsAt(key(name));
      if (found === undefined) {
        // A chased target outside every fixture zone is someone else's to answer.
        const authorities = this.soaFor(name);
        if (hop > 0 && authorities.length === 0) return { rcode: 'NOERROR', answers, authorities };
        return { rcode: 'NXDOMAIN', answers, authorities };
      }
      const matching = found.filter((r) => r.type.toUpperCase() === qtype);
      if (matching.length > 0 || qtype === 'CNAME') {
        answers.push(...matching.map((r) => toAnswer(r, name)));
        return { rcode: 'NOERROR', answers, authorities: [] };
      }
      const cname = found.find((r) => r.type.toUpperCase() === 'CNAME');
      if (cname === undefined) {
        return { rcode: 'NOERROR', answers, authorities: this.soaFor(name) };
      }
      answers.push(toAnswer(cname, name));
      name = String(cname.data);
    }
    return { rcode: 'NOERROR', answers, authorities: [] };
  }

  /** The records owned by a name, wildcard-synthesised when needed; undefined = no such name. */
  private recordsAt(name: string): FixtureRecord[] | undefined {
    if (this.existing.has(name)) return this.byName.get(name) ?? [];
    // RFC 4592: the wildcard at the closest encloser applies only when the name does not exist.
    let encloser = parent(name);
    while (!this.existing.has(encloser)) encloser = parent(encloser);
    return this.byName.get(encloser === '' ? '*' : `*.${encloser}`);
  }

  private soaFor(name: string): Answer[] {
    for (let n = key(name); ; n = parent(n)) {
      const soa = this.byName.get(n)?.find((r) => r.type.toUpperCase() === 'SOA');
      if (soa !== undefined) return [toAnswer(soa, soa.name)];
      if (n === '') return [];
    }
  }
}

function key(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

function parent(name: string): string {
  const dot = name.indexOf('.');
  return dot === -1 ? '' : name.slice(dot + 1);
}

function toAnswer(record: FixtureRecord, owner: string): Answer {
  return {
    name: owner,
    type: record.type.toUpperCase(),
    class: 'IN',
    ttl: record.ttl ?? DEFAULT_TTL,
    data: record.data,
  } as Answer;
}

/**
 * A nameserver `delayMs` away answers exactly that long after each question arrived. Timers
 * fire up to a few milliseconds late (libuv counts whole milliseconds, and a busy loop runs
 * them late), which a bench would charge to the client; so one timer is set a little before
 * the earliest answer is due and the last stretch is waited out by polling the clock between
 * turns of the loop. With one delay for every answer, answers fall due in the order their
 * questions came: a queue, and every answer due is sent in the same turn.
 */
class DelayLine {
  private readonly queue: Array<{ due: number; send: () => void }> = [];
  private timer: NodeJS.Timeout | undefined;
  private poller: NodeJS.Immediate | undefined;

  push(due: number, send: () => void): void {
    this.queue.push({ due, send });
    if (this.queue.length === 1) this.wait();
  }

  clear(): void {
    this.queue.length = 0;
    clearTimeout(this.timer);
    clearImmediate(this.poller);
  }

  private wait(): void {
    const early = this.queue[0].due - performance.now() - TIMER_SLACK_MS;
    if (early > 0) this.timer = setTimeout(this.poll, early);
    else this.poller = setImmediate(this.poll);
  }

  private readonly poll = (): void => {
    const now = performance.now();
    while (this.queue.length > 0 && this.queue[0].due <= now) this.queue.shift()!.send();
    if (this.queue.length > 0) this.wait();
  };
}

export async function startDnsServer(options: DnsFixtureOptions): Promise<DnsFixture> {
  const host = options.host ?? '127.0.0.1';
  const zone = new ZoneData(options.records);
  const queries: DnsFixture['queries'] = [];
  const pending = new Set<NodeJS.Immediate>();
  const delayLine = new DelayLine();
  const tcpClients = new Set<TcpSocket>();

  // Normal UDP answers by the query's bytes after the ID: a question asked again is answered
  // without decoding and encoding it again, as fast as a real server answers, so a bench
  // measures the client rather than this fixture.
  const memo = new Map<string, { q: { name: string; type: string }; reply: Buffer }>();

  const respond = (
    query: packet.Packet,
    transport: 'udp' | 'tcp',
    arrived: number,
    send: (b: Buffer) => void,
    memoKey?: string,
  ) => {
    const question = query.questions?.[0];
    if (question === undefined) return;
    const q = { name: question.name, type: question.type };
    queries.push({ ...q, transport });
    const behaviour = options.behaviour?.(q) ?? 'normal';
    if (behaviour === 'timeout') return;
    const reply = buildReply(query, zone, behaviour, transport);
    if (memoKey !== undefined && behaviour === 'normal' && memo.size < MEMO_LIMIT) {
      memo.set(memoKey, { q, reply });
    }
    answerAt(arrived, reply, send);
  };

  const answerAt = (arrived: number, reply: Buffer, send: (b: Buffer) => void) => {
    const delay = options.delayMs ?? 0;
    if (delay <= 0) send(reply);
    else delayLine.push(arrived + delay, () => send(reply));
  };

  const family = host.includes(':') ? 'udp6' : 'udp4';
  const { udp, tcp, port } = await bindBoth(host, family, options.port ?? 0);

  // Datagrams that arrive together are handed over one by one; each is stamped on arrival and
  // answered a turn later, so the work on one does not make the next look later than it was.
  udp.on('message', (msg: Buffer, rinfo: RemoteInfo) => {
    const arrived = performance.now();
    const later = setImmediate(() => {
      pending.delete(later);
      const send = (reply: Buffer) => udp.send(reply, rinfo.port, rinfo.address);
      if (msg.length < 12) return;
      const key = msg.toString('latin1', 2);
      const known = memo.get(key);
      if (known !== undefined && (options.behaviour?.(known.q) ?? 'normal') === 'normal') {
        queries.push({ ...known.q, transport: 'udp' });
        const reply = Buffer.from(known.reply);
        reply.writeUInt16BE(msg.readUInt16BE(0), 0);
        answerAt(arrived, reply, send);
        return;
      }
      const query = safeDecode(msg);
      if (query === undefined) return;
      respond(query, 'udp', arrived, send, key);
    });
    pending.add(later);
  });

  let tcpConnections = 0;
  tcp.on('connection', (socket) => {
    tcpConnections++;
    tcpClients.add(socket);
    socket.on('close', () => tcpClients.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      const arrived = performance.now();
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2) {
        const length = buffered.readUInt16BE(0);
        if (buffered.length < 2 + length) break;
        const query = safeDecode(buffered.subarray(2, 2 + length));
        buffered = buffered.subarray(2 + length);
        if (query === undefined) continue;
        respond(query, 'tcp', arrived, (reply) => {
          if (socket.destroyed) return;
          const framed = Buffer.alloc(2 + reply.length);
          framed.writeUInt16BE(reply.length, 0);
          reply.copy(framed, 2);
          socket.write(framed);
        });
      }
    });
  });

  const display = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return {
    host,
    port,
    address: display,
    queries,
    get tcpConnections() {
      return tcpConnections;
    },
    close: async () => {
      for (const later of pending) clearImmediate(later);
      pending.clear();
      delayLine.clear();
      for (const socket of tcpClients) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    },
  };
}

function safeDecode(msg: Buffer): packet.Packet | undefined {
  try {
    return packet.decode(msg);
  } catch {
    return undefined;
  }
}

function buildReply(
  query: packet.Packet,
  zone: ZoneData,
  behaviour: Exclude<Behaviour, 'timeout'>,
  transport: 'udp' | 'tcp',
): Buffer {
  const question = query.questions![0];
  const base = {
    id: query.id ?? 0,
    type: 'response' as const,
    questions: [question],
  };
  const rd = (query.flags ?? 0) & packet.RECURSION_DESIRED;
  if (behaviour === 'servfail' || behaviour === 'refused') {
    const rcode = behaviour === 'servfail' ? RCODE.SERVFAIL : RCODE.REFUSED;
    return packet.encode({ ...base, flags: rd | rcode });
  }
  const truncated = packet.encode({
    ...base,
    flags: rd | packet.AUTHORITATIVE_ANSWER | packet.TRUNCATED_RESPONSE,
  });
  if (behaviour === 'truncate' && transport === 'udp') return truncated;
  const found = zone.resolve(question.name, question.type.toUpperCase());
  const reply = packet.encode({
    ...base,
    flags: rd | packet.AUTHORITATIVE_ANSWER | RCODE[found.rcode],
    answers: found.answers,
    authorities: found.authorities,
  });
  // An answer too big for a classic UDP message is truncated, as a real server would.
  if (transport === 'udp' && reply.length > udpLimit(query)) return truncated;
  return reply;
}

function udpLimit(query: packet.Packet): number {
  const opt = query.additionals?.find((a) => a.type === 'OPT') as { udpPayloadSize?: number };
  return Math.max(CLASSIC_UDP_LIMIT, opt?.udpPayloadSize ?? 0);
}

/** Binds UDP and TCP on the same port; with port 0, retries when the TCP side is taken. */
async function bindBoth(
  host: string,
  family: 'udp4' | 'udp6',
  wanted: number,
): Promise<{ udp: Socket; tcp: Server; port: number }> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 10; attempt++) {
    const udp = createSocket({ type: family });
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(wanted, host, () => {
        udp.off('error', reject);
        resolve();
      });
    });
    const port = udp.address().port;
    const tcp = createServer();
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(port, host, () => {
          tcp.off('error', reject);
          resolve();
        });
      });
      return { udp, tcp, port };
    } catch (err) {
      lastError = err;
      udp.close();
      if (wanted !== 0) break;
    }
  }
  throw lastError instanceof Error ? lastError : new Error('could not bind the DNS fixture');
}
