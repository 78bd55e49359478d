// Streaming extraction of a page's head metadata with htmlparser2. Sloppy pages put
// <link rel=icon> and <meta> late in the head or early in the body, so reading goes on past
// the head: once the body starts only the tags that can carry metadata reach the parser (see
// html-feed.ts), and reading stops after BODY_BUDGET characters of body, or at the first
// substantial body text in markup parsed before that switch.
import { Parser } from 'htmlparser2';
import { attribute, decodeTitle, DecodedText } from './entities';
import { MarkupFeed } from './html-feed';

/** Characters of body (skipped script, style and svg text included) read before giving up. */
export const BODY_BUDGET = 64 * 1024;
/** Non-blank body text that counts as "the page has started". */
const BODY_TEXT_BUDGET = 512;
/** Feed size when the whole document is at hand, so a stop skips the rest. */
const SLICE = 16 * 1024;

export interface LinkTag {
  /** rel tokens, lower case, single spaces */
  rel: string;
  href: string;
  sizes?: string;
  type?: string;
}

export interface HeadMeta {
  title: string;
  /** <meta name=…> contents by lower-case name, first one wins */
  names: Map<string, string>;
  /** og:* properties in document order */
  openGraph: Array<[string, string]>;
  /** twitter:* tags, first one wins */
  twitter: Map<string, string>;
  links: LinkTag[];
  baseHref: string;
  /** <meta http-equiv=refresh content> as written */
  refresh: string;
}

/** Elements whose content htmlparser2 reads as text up to their closing tag. */
const RAW_TEXT = new Set([
  'script',
  'style',
  'title',
  'textarea',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'plaintext',
]);

const HEAD_ELEMENTS = new Set([
  'html',
  'head',
  'title',
  'meta',
  'link',
  'base',
  'style',
  'script',
  'noscript',
  'template',
]);

export class HeadExtractor {
  readonly meta: HeadMeta = {
    title: '',
    names: new Map(),
    openGraph: [],
    twitter: new Map(),
    links: [],
    baseHref: '',
    refresh: '',
  };
  private readonly parser: Parser;
  private readonly feed: MarkupFeed;
  private done = false;
  private inTitle = false;
  private titleText = '';
  private svgDepth = 0;
  private skipText = 0;
  private bodyAt = -1;
  private inHead = false;
  private sawBodyTag = false;
  private headClosed = false;
  private bodyText = 0;
  /** characters written to the parser */
  private written = 0;
  /** the raw-text element the parser is inside, if any */
  private rawText = '';
  /** body text as htmlparser2 would have decoded it, counted toward BODY_TEXT_BUDGET */
  private readonly bodyTextDecoded = new DecodedText((text) => this.countBodyText(text));
  /** the same inside a title or textarea that is not the page's title */
  private readonly rcdataDecoded = new DecodedText((text) => this.countBodyText(text), true);
  /** where the last piece of body text ended in the parser's input */
  private bodyTextEnd = -1;

  constructor() {
    this.parser = new Parser(
      {
        onopentag: (name, attribs) => this.open(name, attribs),
        onclosetag: (name, isImplied) => this.close(name, isImplied),
        ontext: (text) => this.text(text),
      },
      // Entities are decoded only in what is read (entities.ts).
      { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: true },
    );
    this.feed = new MarkupFeed(
      (markup) => {
        for (let i = 0; i < markup.length && !this.done; i += SLICE) {
          const piece = markup.length <= SLICE ? markup : markup.slice(i, i + SLICE);
          this.written += piece.length;
          this.parser.write(piece);
        }
        return this.done;
      },
      // The parser moves startIndex to the end of each text run or tag it completes; inside
      // a tag it stays at the tag (or attribute) start.
      () => this.rawText === '' && this.parser.startIndex === this.written,
    );
  }

  /** True once enough has been read; further writes are ignored. */
  get finished(): boolean {
    return this.done;
  }

  write(text: string): boolean {
    if (!this.done && this.feed.push(text)) this.stop();
    return this.done;
  }

  end(): HeadMeta {
    if (!this.done) {
      this.feed.flush();
      this.parser.end();
    }
    this.finish();
    return this.meta;
  }

  private stop(): void {
    if (this.done) return;
    this.done = true;
    this.parser.pause();
    this.finish();
  }

  private finish(): void {
    if (this.inTitle) this.endTitle(false);
  }

  private startBody(): void {
    if (this.bodyAt < 0) {
      this.bodyAt = this.parser.startIndex;
      this.feed.pickOnly = true;
      this.feed.stopAt = this.feed.consumed + BODY_BUDGET;
    }
  }

  private open(name: string, attribs: Record<string, string>): void {
    if (this.done) return;
    // A tag's '<' ends the text before it, which may end the read before the tag counts.
    this.endTextRun();
    if (this.done) return;
    if (RAW_TEXT.has(name)) this.rawText = name;
    if (name === 'svg' || name === 'math') this.svgDepth += 1;
    if (name === 'script' || name === 'style' || name === 'noscript' || name === 'template') {
      this.skipText += 1;
    }
    if (name === 'head') {
      this.inHead = true;
      // Junk before a late <head> (injected divs) was not the body after all; the byte cap
      // still bounds a page that keeps reopening its head.
      if (!this.sawBodyTag) {
        this.bodyAt = -1;
        this.feed.pickOnly = false;
        this.feed.stopAt = Number.POSITIVE_INFINITY;
        this.bodyText = 0;
      }
    }
    if (name === 'body') this.sawBodyTag = true;
    // A stray element inside an explicit <head> (tracking pixels, widgets) does not end it:
    // pages keep their meta tags after such elements.
    if (name === 'body' || (!this.inHead && !HEAD_ELEMENTS.has(name) && this.svgDepth === 0)) {
      this.startBody();
    }
    if (name === 'title' && this.svgDepth === 0 && this.meta.title === '' && !this.inTitle) {
      this.inTitle = true;
      this.titleText = '';
    } else if (name === 'meta') {
      this.metaTag(attribs);
    } else if (name === 'link') {
      this.linkTag(attribs);
    } else if (name === 'base' && this.meta.baseHref === '' && attribs.href) {
      this.meta.baseHref = attribute(attribs, 'href')!.trim();
    }
  }

  private close(name: string, isImplied: boolean): void {
    if (!this.done) this.endTextRun();
    if (this.done) return;
    if (name === this.rawText) this.rawText = '';
    if (name === 'svg' || name === 'math') this.svgDepth = Math.max(0, this.svgDepth - 1);
    if (name === 'script' || name === 'style' || name === 'noscript' || name === 'template') {
      this.skipText = Math.max(0, this.skipText - 1);
    }
    // An implied close of a title is the end of the document (nothing else ends raw text).
    if (name === 'title' && this.inTitle) this.endTitle(!isImplied);
    if (name === 'head') {
      this.inHead = false;
      this.headClosed = true;
      this.startBody();
    }
  }

  private text(text: string): void {
    if (this.done) return;
    if (this.inTitle) {
      this.titleText += text;
      return;
    }
    if (this.bodyAt < 0 || this.skipText > 0) return;
    // The parser's endIndex is this piece's last character: pieces that meet are one run.
    const end = this.parser.endIndex + 1;
    const continues = end - text.length === this.bodyTextEnd;
    this.bodyTextEnd = end;
    if (this.rawText === '') this.bodyTextDecoded.push(text, continues);
    else if (this.rawText === 'title' || this.rawText === 'textarea') {
      this.rcdataDecoded.push(text, continues);
    } else this.countBodyText(text); // xmp, iframe and the like: never decoded
  }

  private endTextRun(): void {
    this.bodyTextDecoded.endRun();
    this.rcdataDecoded.endRun();
  }

  private countBodyText(text: string): void {
    this.bodyText += text.replace(/\s+/g, '').length;
    // Text only ends the read inside a real body: junk before a late <head> does not.
    if (this.bodyText >= BODY_TEXT_BUDGET && (this.sawBodyTag || this.headClosed)) this.stop();
  }

  /** `closed`: by its end tag, rather than by the end of the document or of the read. */
  private endTitle(closed: boolean): void {
    this.inTitle = false;
    this.meta.title = collapse(decodeTitle(this.titleText, closed));
  }

  private metaTag(attribs: Record<string, string>): void {
    const content = attribute(attribs, 'content');
    const equiv = attribute(attribs, 'http-equiv')?.trim().toLowerCase();
    if (equiv === 'refresh' && content !== undefined && this.meta.refresh === '') {
      this.meta.refresh = content.trim();
      return;
    }
    if (content === undefined) return;
    const name = attribute(attribs, 'name')?.trim().toLowerCase();
    const property = attribute(attribs, 'property')?.trim().toLowerCase() ?? name ?? '';
    if (property === '') return;
    if (property.startsWith('og:')) {
      this.meta.openGraph.push([property, content.trim()]);
    } else if (property.startsWith('twitter:')) {
      if (!this.meta.twitter.has(property)) this.meta.twitter.set(property, content.trim());
    }
    if (name && !this.meta.names.has(name)) this.meta.names.set(name, content);
  }

  private linkTag(attribs: Record<string, string>): void {
    const rels = (attribute(attribs, 'rel') ?? '').trim().toLowerCase();
    // Most rel values are one token: no split needed to normalise them.
    const rel = /\s/.test(rels) ? rels.split(/\s+/).join(' ') : rels;
    const href = (attribute(attribs, 'href') ?? '').trim();
    if (rel === '' || href === '') return;
    const link: LinkTag = { rel, href };
    const sizes = attribute(attribs, 'sizes');
    if (sizes) link.sizes = sizes.trim();
    const type = attribute(attribs, 'type');
    if (type) link.type = type.trim().toLowerCase();
    this.meta.links.push(link);
  }
}

/** Extracts the head metadata of a whole document held in memory. */
export function extractHead(html: string): HeadMeta {
  const extractor = new HeadExtractor();
  extractor.write(html);
  return extractor.end();
}

/** Whitespace runs to one space, trimmed: how titles and descriptions are shown. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Resolves an href against the document's base, or undefined when it is not a URL. */
export function resolveHref(href: string, page: URL, baseHref: string): URL | undefined {
  try {
    const base = baseHref === '' ? page : new URL(baseHref, page);
    return new URL(href, base);
  } catch {
    return undefined;
  }
}

/** Parses `<meta http-equiv=refresh content="5; url=/next">`. */
export function parseRefresh(
  content: string,
  page: URL,
): { delay: number; url: string } | undefined {
  const match = /^\s*(\d+(?:\.\d*)?)?\s*(?:[;,]\s*(?:url\s*=\s*)?(['"]?)(.*?)\2\s*)?$/i.exec(
    content,
  );
  if (!match) return undefined;
  const delay = Math.floor(Number(match[1] ?? '0'));
  const target = (match[3] ?? '').trim();
  if (target === '') return { delay, url: page.href };
  try {
    return { delay, url: new URL(target, page).href };
  } catch {
    return undefined;
  }
}
