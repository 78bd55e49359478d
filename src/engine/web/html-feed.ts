// Feeds markup to the HTML parser while skipping what can never hold head metadata: the
// contents of <script>, <style> and inline <svg> elements, and comments. Those are found with
// native regex scans instead of the tokenizer's per-character loop, which is where heads
// spend their bytes (inline scripts, JSON, CSS). The parser still sees the script and style
// tags themselves with empty content, so its state is the same as for the full text.
//
// Once the body has started, only the tags that can carry head metadata are passed on
// (meta, link, base, title with its text, head, body): sloppy pages put those early in the
// body, and everything else there is the page itself.

// A tag of interest is found by jumping from '<' to '<' with indexOf and trying a sticky
// regex only where the next two characters can begin one: several times faster than one global
// regex with alternatives, which tries every alternative at every '<' (and body markup is
// mostly '<'). The sticky regexes start with '<' and match exactly what the global ones did.

/**
 * Head mode. </head> and <body> are matched as boundaries so body mode takes effect there.
 * A start tag is matched up to its name only; tagEnd finds its '>' outside quoted values.
 */
const OPENER = /<(?:!--|(script|style|svg)(?=[\s/>])|\/head\s*>|body(?=[\s>]))/iy;
/** Body mode: only what can carry head metadata, and what must be skipped. */
const PICKER =
  /<(?:!--|(script|style|svg)(?=[\s/>])|(?:meta|link|base|head|body)(?=[\s/>])|\/head\s*>|title(?=[\s>]))/iy;
/** An unfinished start tag is held back for the next chunk up to this length, then read as is. */
const MAX_HELD_TAG = 8 * 1024;
/** Character pairs after '<' that can begin an OPENER or PICKER match (either case). */
const OPENER_START = startFlags(['!-', '/h', 'sc', 'st', 'sv', 'bo']);
const PICKER_START = startFlags(['!-', '/h', 'sc', 'st', 'sv', 'me', 'li', 'ba', 'bo', 'he', 'ti']);
/** Longest run of head markup handed over at once; cut before a '<' so no tag is split. */
const PIECE = 16 * 1024;
const CLOSERS: Record<string, RegExp> = {
  script: /<\/script[^>]*>/iy,
  style: /<\/style[^>]*>/iy,
  // Inline SVG (icon sprites) carries no page metadata; its <title>s are not the page's.
  svg: /<\/svg[^>]*>/iy,
};
const TITLE_END = /<\/title\s*>/iy;
/**
 * A script or style start tag reaches the parser bare (`<script>`) when its attributes are
 * plainly well formed and the parser is between tags in ordinary text (not inside a title or
 * textarea, where the tag is text, nor inside another tag): nothing reads their attributes,
 * and they were a third of the markup the parser had to tokenise. Anything unusual (an
 * unclosed quote, a '/' before '>', a name holding a quote) goes as written, so the parser
 * still ends the tag where it would have. Inline svg keeps its tag: `<svg/>` closes itself.
 */
const PLAIN_TAG = /^<[a-z]+(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=>`<]+))?)*\s*>$/i;
const BARE: Record<string, string> = { script: '<script>', style: '<style>' };

/** Flags indexed by two ASCII char codes (first * 128 + second), set for the given pairs. */
function startFlags(pairs: string[]): Uint8Array {
  const flags = new Uint8Array(128 * 128);
  for (const pair of pairs) {
    for (const first of [pair[0].toLowerCase(), pair[0].toUpperCase()]) {
      for (const second of [pair[1].toLowerCase(), pair[1].toUpperCase()]) {
        flags[first.charCodeAt(0) * 128 + second.charCodeAt(0)] = 1;
      }
    }
  }
  return flags;
}

/** The first match of sticky `re` at or after `from`, tried only after a `starts` pair. */
function findTag(
  text: string,
  from: number,
  re: RegExp,
  starts: Uint8Array,
): RegExpExecArray | null {
  for (let lt = text.indexOf('<', from); lt >= 0; lt = text.indexOf('<', lt + 1)) {
    const first = text.charCodeAt(lt + 1);
    const second = text.charCodeAt(lt + 2);
    if (first < 128 && second < 128 && starts[first * 128 + second] === 1) {
      re.lastIndex = lt;
      const match = re.exec(text);
      if (match) return match;
    }
  }
  return null;
}

/**
 * Index just after the '>' that ends a start tag whose name ends at `from`, or -1 when the
 * text ends first. As in the HTML tokenizer, a '>' inside a quoted attribute value does not
 * end the tag (`<meta content="Home > Shop">`); a quote counts only where a value begins.
 * Linear, unlike a regex with alternatives for quoted values, which can backtrack badly on a
 * hostile page.
 */
export function tagEnd(text: string, from: number): number {
  let afterEquals = false;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3e /* > */) return i + 1;
    if (c === 0x3d /* = */) {
      afterEquals = true;
      continue;
    }
    if (afterEquals && (c === 0x22 /* " */ || c === 0x27) /* ' */) {
      const close = text.indexOf(c === 0x22 ? '"' : "'", i + 1);
      if (close < 0) return -1;
      i = close;
    }
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0c && c !== 0x0d) afterEquals = false;
  }
  return -1;
}

/** The first match of sticky `re` (a closing tag) at or after `from`. */
function findCloser(text: string, from: number, re: RegExp): RegExpExecArray | null {
  for (let lt = text.indexOf('</', from); lt >= 0; lt = text.indexOf('</', lt + 2)) {
    re.lastIndex = lt;
    const match = re.exec(text);
    if (match) return match;
  }
  return null;
}

/** Receives markup; returns true to stop the feed. */
export type MarkupSink = (markup: string) => boolean;

export class MarkupFeed {
  /** characters of input consumed so far, skipped ones included */
  consumed = 0;
  /** body mode: pass on only the tags that can carry head metadata */
  pickOnly = false;
  /** stop once this many characters have been consumed */
  stopAt = Number.POSITIVE_INFINITY;
  private carry = '';
  /** inside a raw-text element (its closer) or a comment ('-->') */
  private skipping: RegExp | '-->' | undefined;
  /** inside a picked <title>: its text is passed on up to and with the closer */
  private inTitle = false;
  /** the closing tag found by skipEnd */
  private closer = '';
  private stopped = false;

  /**
   * @param sink receives the markup to parse
   * @param betweenTags says whether the parser has read everything written so far and sits in
   *   ordinary text, where a start tag begins a tag
   */
  constructor(
    private readonly sink: MarkupSink,
    private readonly betweenTags: () => boolean = () => false,
  ) {}

  /** Returns true once the feed has stopped (the sink asked, or stopAt was reached). */
  push(chunk: string): boolean {
    if (this.stopped) return true;
    const text = this.carry + chunk;
    this.carry = '';
    let pos = 0;
    while (pos < text.length && !this.stopped) {
      if (this.consumed >= this.stopAt) {
        this.stopped = true;
        break;
      }
      if (this.skipping !== undefined || this.inTitle) {
        const end = this.inTitle ? this.titleEnd(text, pos) : this.skipEnd(text, pos);
        if ((end < 0 ? text.length : end) - pos >= this.stopAt - this.consumed) {
          this.stopped = true;
          break;
        }
        if (end < 0) {
          // The closer may straddle the chunk boundary: keep its possible prefix.
          const keep = Math.min(text.length - pos, 64);
          if (this.inTitle) this.emit(text.slice(pos, text.length - keep));
          else this.consumed += text.length - pos - keep;
          this.carry = text.slice(text.length - keep);
          return this.stopped;
        }
        if (this.inTitle) {
          this.inTitle = false;
          this.emit(text.slice(pos, end));
          pos = end;
        } else {
          this.consumed += end - pos;
          // The element's closing tag always reaches the parser, in body mode too, so the
          // parser leaves its raw-text state.
          const closer = this.closer;
          this.closer = '';
          this.emit(closer);
          pos = end + closer.length;
        }
        continue;
      }
      const match = this.pickOnly
        ? findTag(text, pos, PICKER, PICKER_START)
        : findTag(text, pos, OPENER, OPENER_START);
      if (!this.pickOnly && (match ? match.index : text.length) - pos > PIECE) {
        // A long run without skippable content: hand it over in pieces so that a switch
        // to body mode (a stray element starting the body) takes effect promptly.
        const lt = text.lastIndexOf('<', pos + PIECE);
        const cut = lt > pos ? lt : pos + PIECE;
        this.emit(text.slice(pos, cut));
        pos = cut;
        continue;
      }
      if (match && match.index - pos >= this.stopAt - this.consumed) {
        // The next tag lies past the budget: it is not read.
        this.stopped = true;
        break;
      }
      if (!match) {
        // Hold back an unfinished tag so a split "<scr" + "ipt>" is still recognised.
        const lt = text.lastIndexOf('<');
        const cut = lt >= pos && text.indexOf('>', lt) < 0 ? lt : text.length;
        this.pass(text.slice(pos, cut));
        this.carry = text.slice(cut);
        return this.stopped;
      }
      // Comments and </head> are complete as matched; a start tag runs to its own '>'.
      const complete = match[0] === '<!--' || match[0].startsWith('</');
      const end = complete
        ? match.index + match[0].length
        : tagEnd(text, match.index + match[0].length);
      if (end < 0 && text.length - match.index <= MAX_HELD_TAG) {
        // The tag continues in the next chunk (a quoted value may hold a '>').
        this.pass(text.slice(pos, match.index));
        this.carry = text.slice(match.index);
        return this.stopped;
      }
      this.pass(text.slice(pos, match.index));
      // A tag whose quote never closes is read as the tokenizer would give up on it: to the end.
      const tag = text.slice(match.index, end < 0 ? text.length : end);
      pos = match.index + tag.length;
      if (tag === '<!--') {
        this.consumed += tag.length;
        this.skipping = '-->';
        continue;
      }
      const raw = match[1]?.toLowerCase();
      if (raw !== undefined) {
        const bare = raw !== 'svg' && this.betweenTags() && PLAIN_TAG.test(tag);
        this.emit(bare ? BARE[raw] : tag, tag.length);
        this.skipping = CLOSERS[raw];
      } else {
        this.emit(tag);
        if (/^<title/i.test(tag)) this.inTitle = true;
      }
    }
    return this.stopped;
  }

  /** Whatever was held back, at the end of the document. */
  flush(): void {
    if (!this.stopped && this.skipping === undefined && this.carry !== '') {
      if (this.inTitle) this.emit(this.carry);
      else this.pass(this.carry);
    }
    this.carry = '';
  }

  /** Markup between interesting tags: passed on in head mode, dropped in body mode. */
  private pass(markup: string): void {
    if (this.pickOnly) this.consumed += markup.length;
    else this.emit(markup);
  }

  /** Index where skipping ends (the closer, in `closer`, is kept for the parser), or -1. */
  private skipEnd(text: string, from: number): number {
    if (this.skipping === '-->') {
      const at = text.indexOf('-->', from);
      if (at < 0) return -1;
      this.skipping = undefined;
      return at + 3;
    }
    const closer = this.skipping!;
    const match = findCloser(text, from, closer);
    if (!match) return -1;
    this.skipping = undefined;
    this.closer = match[0];
    return match.index;
  }

  /** Index just after a picked title's closing tag, or -1. */
  private titleEnd(text: string, from: number): number {
    const match = findCloser(text, from, TITLE_END);
    return match ? match.index + match[0].length : -1;
  }

  /** Passes markup on; `length` is what it stood for in the input when it was rewritten. */
  private emit(markup: string, length = markup.length): void {
    this.consumed += length;
    if (markup !== '' && this.sink(markup)) this.stopped = true;
  }
}
