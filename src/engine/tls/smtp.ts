// The SMTP dialogue before a STARTTLS handshake (RFC 5321 section 4.2, RFC 3207): the greeting,
// EHLO, and STARTTLS when the server offers it. Each reply is bounded: a line of at most 1000
// octets with its CRLF (RFC 5321 section 4.5.3.1.5 allows 512; servers send longer text), at
// most 64 lines, all within the caller's deadline (the socket is destroyed by the caller).
import type { Socket } from 'node:net';
import { LookupError } from '../../contract/errors';
import { printable } from '../../contract/errors';

const MAX_LINE = 1000;
const MAX_LINES = 64;

interface Reply {
  code: number;
  lines: string[];
}

/** Reads reply after reply from one socket; everything that arrives is buffered once. */
class ReplyReader {
  private buffer = '';
  private waiting: (() => void) | undefined;
  private failure: Error | undefined;

  constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('latin1');
      this.wake();
    });
    const ended = (err?: Error) => {
      this.failure ??=
        err ?? new LookupError('upstream_error', 'The SMTP server closed the connection');
      this.wake();
    };
    socket.on('end', () => ended());
    socket.on('close', () => ended());
    socket.on('error', ended);
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }

  async reply(): Promise<Reply> {
    const lines: string[] = [];
    for (;;) {
      const line = await this.line();
      const match = /^(\d{3})([ -]|$)(.*)$/.exec(line);
      if (match === null) {
        throw new LookupError('upstream_error', `Not an SMTP reply: "${printable(line, 60)}"`);
      }
      lines.push(match[3]);
      if (lines.length > MAX_LINES) {
        throw new LookupError(
          'response_too_large',
          `An SMTP reply of more than ${MAX_LINES} lines`,
        );
      }
      if (match[2] !== '-') return { code: Number(match[1]), lines };
    }
  }

  private async line(): Promise<string> {
    for (;;) {
      const end = this.buffer.indexOf('\n');
      if (end >= 0) {
        const line = this.buffer.slice(0, end).replace(/\r$/, '');
        this.buffer = this.buffer.slice(end + 1);
        if (end > MAX_LINE) throw tooLong();
        return line;
      }
      if (this.buffer.length > MAX_LINE) throw tooLong();
      if (this.failure !== undefined) throw this.failure;
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  /** Stops reading so the TLS layer can take the socket over. */
  release(): void {
    this.socket.removeAllListeners('data');
    this.socket.removeAllListeners('end');
    this.socket.removeAllListeners('close');
    this.socket.removeAllListeners('error');
    if (this.buffer !== '') {
      throw new LookupError('upstream_error', 'The SMTP server sent data before the TLS handshake');
    }
  }
}

function tooLong(): LookupError {
  return new LookupError('response_too_large', `An SMTP reply line longer than ${MAX_LINE} octets`);
}

/**
 * Greeting, EHLO and STARTTLS. True when the server is ready for the handshake; false when it
 * does not offer STARTTLS (it is sent QUIT). Throws upstream_error for a refusal.
 */
export async function startTls(socket: Socket): Promise<boolean> {
  const reader = new ReplyReader(socket);
  const greeting = await reader.reply();
  if (greeting.code !== 220) {
    throw new LookupError(
      'upstream_error',
      `The SMTP server refused the session: ${greeting.code} ${printable(greeting.lines.join(' '), 120)}`,
    );
  }
  socket.write(`EHLO ${addressLiteral(socket.localAddress)}\r\n`);
  const ehlo = await reader.reply();
  if (ehlo.code !== 250) {
    throw new LookupError(
      'upstream_error',
      `The SMTP server refused EHLO: ${ehlo.code} ${printable(ehlo.lines.join(' '), 120)}`,
    );
  }
  // The first line is the server's name; each further line an extension keyword and its
  // parameters (RFC 5321 section 4.1.1.1).
  const offered = ehlo.lines
    .slice(1)
    .some((l) => l.trim().split(/\s+/)[0].toUpperCase() === 'STARTTLS');
  if (!offered) {
    socket.end('QUIT\r\n');
    return false;
  }
  socket.write('STARTTLS\r\n');
  const ready = await reader.reply();
  if (ready.code !== 220) {
    throw new LookupError(
      'upstream_error',
      `The SMTP server refused STARTTLS: ${ready.code} ${printable(ready.lines.join(' '), 120)}`,
    );
  }
  reader.release();
  return true;
}

/** EHLO's argument when the client has no name of its own (RFC 5321 section 4.1.3). */
function addressLiteral(address: string | undefined): string {
  if (address === undefined || address === '') return '[127.0.0.1]';
  const bare = address.replace(/^::ffff:(?=\d+\.)/, '');
  return bare.includes(':') ? `[IPv6:${bare}]` : `[${bare}]`;
}
