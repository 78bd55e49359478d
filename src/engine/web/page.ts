// Fetches a page and extracts its head as the bytes arrive, decoded in the page's own charset:
// the first bytes are held back until the charset can be decided, then the rest streams.
import { normalizeUrl } from '../names';
import type { ChainEnd, ChainRequest, WebSession } from './fetcher';
import { discard } from './fetcher';
import { header } from './fetcher';
import { detectCharset, PRESCAN_BYTES, utf8Cut } from './charset';
import { HeadExtractor, type HeadMeta } from './html';

export const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

export interface FetchedPage {
  chain: ChainEnd;
  /** undefined when the final response is not HTML or the walk stopped on an error */
  head: HeadMeta | undefined;
  /** the charset the page was decoded in */
  encoding?: string;
}

export function isHtml(contentType: string | undefined): boolean {
  if (contentType === undefined || contentType.trim() === '') return true;
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'text/html' || type === 'application/xhtml+xml';
}

/** Parses the head of a body that is already in memory (bench, corpus checks). */
export function extractFromBytes(bytes: Uint8Array, contentType?: string): HeadMeta {
  const charset = detectCharset(
    bytes.subarray(0, PRESCAN_BYTES),
    contentType,
    bytes.length <= PRESCAN_BYTES,
  );
  const extractor = new HeadExtractor();
  // Decoded slice by slice, so the text after the point where extraction stops is never made.
  if (charset.encoding === 'utf-8') {
    writeUtf8(extractor, bytes, charset.skip);
    return extractor.end();
  }
  const decoder = new TextDecoder(charset.encoding);
  for (let at = charset.skip; at < bytes.length && !extractor.finished; at += DECODE_SLICE) {
    extractor.write(decoder.decode(bytes.subarray(at, at + DECODE_SLICE), { stream: true }));
  }
  if (!extractor.finished) extractor.write(decoder.decode());
  return extractor.end();
}

const DECODE_SLICE = 16 * 1024;

/**
 * The UTF-8 case of the loop above through Buffer's native decoder, which is markedly faster
 * than TextDecoder's: the same slices and the same text in each (see utf8Cut), a character
 * cut at a slice's end carried to the next one.
 */
function writeUtf8(extractor: HeadExtractor, bytes: Uint8Array, skip: number): void {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  let start = skip;
  // TextDecoder drops a byte order mark at the start of its stream (one after a skipped BOM).
  if (buffer[start] === 0xef && buffer[start + 1] === 0xbb && buffer[start + 2] === 0xbf) {
    start += 3;
  }
  for (let at = skip; at < buffer.length && !extractor.finished; at += DECODE_SLICE) {
    const cut = utf8Cut(buffer, Math.min(at + DECODE_SLICE, buffer.length));
    extractor.write(start < cut ? buffer.toString('utf8', start, cut) : '');
    start = Math.max(start, cut);
  }
  // What a final TextDecoder.decode() gives: a character left unfinished at the end.
  if (!extractor.finished) {
    extractor.write(start < buffer.length ? buffer.toString('utf8', start) : '');
  }
}

/** A push decoder: holds bytes back until the charset is decided, then streams text. */
class PageDecoder {
  encoding = '';
  private decoder: TextDecoder | undefined;
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly contentType: string | undefined) {}

  push(chunk: Buffer): string {
    if (this.decoder) return this.decoder.decode(chunk, { stream: true });
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    return this.pendingBytes < PRESCAN_BYTES ? '' : this.release(true);
  }

  end(): string {
    return this.decoder ? this.decoder.decode() : this.release(false);
  }

  private release(stream: boolean): string {
    const first = Buffer.concat(this.pending);
    this.pending = [];
    const charset = detectCharset(
      first.subarray(0, PRESCAN_BYTES),
      this.contentType,
      !stream && first.length <= PRESCAN_BYTES,
    );
    this.encoding = charset.encoding;
    const decoder = new TextDecoder(charset.encoding);
    this.decoder = decoder;
    return decoder.decode(first.subarray(charset.skip), { stream });
  }
}

export async function fetchPage(
  session: WebSession,
  url: string,
  language: string | undefined,
): Promise<FetchedPage> {
  const start = normalizeUrl(url);
  const request: ChainRequest = { accept: HTML_ACCEPT };
  if (language !== undefined) request.language = language;
  const chain = await session.follow(start, request);
  const contentType = header(chain.headers, 'content-type');
  if (!chain.response || !isHtml(contentType)) {
    if (chain.response) discard(chain.response);
    return { chain, head: undefined };
  }
  const { head, encoding } = await readHead(session, chain);
  return { chain, head, encoding };
}

/** Reads the head of the chain's final response, which must be HTML. */
export async function readHead(
  session: WebSession,
  chain: ChainEnd,
): Promise<{ head: HeadMeta; encoding: string }> {
  const extractor = new HeadExtractor();
  const decoder = new PageDecoder(header(chain.headers, 'content-type'));
  await session.readBody(chain, session.limits.maxBodyBytes, (chunk) =>
    extractor.write(decoder.push(chunk)),
  );
  if (!extractor.finished) extractor.write(decoder.end());
  return { head: extractor.end(), encoding: decoder.encoding };
}
