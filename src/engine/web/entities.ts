// Character references decoded where a value is read, not while parsing. The head parser runs
// with htmlparser2's decodeEntities off, so it skips through attribute values and text instead
// of checking every character for '&' (about 6% of the extraction time over the corpus). The
// few values that hold a '&' are decoded here by htmlparser2 itself, re-read in the same
// context the head parser would have decoded them in (an attribute value, a title, body
// text), so the strings come out as before.
import { Parser } from 'htmlparser2';

/** An attribute's value as htmlparser2 decodes it, or undefined when the tag lacks it. */
export function attribute(attribs: Record<string, string>, name: string): string | undefined {
  let raw = attribs[name];
  if (raw === undefined) return undefined;
  // A browser reads CR LF and a lone CR as LF before it tokenizes (HTML, "preprocessing the
  // input stream"): a value written on several lines reads the same from a page served with
  // either line end. A CR written as "&#13;" is a character of the value, and stays.
  if (raw.includes('\r')) raw = raw.replace(CR_LINE_ENDS, '\n');
  return raw.includes('&') ? decodeAttribute(raw) : raw;
}

const CR_LINE_ENDS = /\r\n?/g;

function decodeAttribute(raw: string): string {
  // Re-read inside a tag of its own, in a quote it does not hold. A value holding both
  // quotes was written unquoted, so it has no space or '>' and starts with neither quote.
  const quote = !raw.includes('"') ? '"' : !raw.includes("'") ? "'" : '';
  let value = raw;
  const parser = new Parser({
    onopentag: (_name, attribs) => {
      value = attribs.v ?? raw;
    },
  });
  parser.end(`<a v=${quote}${raw}${quote}>`);
  return value;
}

/**
 * A title's text as htmlparser2 decodes it. `closed`: its end tag was read, which ends a
 * reference the way that tag's '<' did; otherwise the document ended there, or the read
 * stopped inside the title (the body budget): a reference cut there is then decoded as at the
 * end of a document, where before the outcome hung on where the parser's writes happened to
 * fall.
 */
export function decodeTitle(raw: string, closed: boolean): string {
  if (!raw.includes('&')) return raw;
  let text = '';
  const parser = new Parser({
    ontext: (piece) => {
      text += piece;
    },
  });
  parser.write('<title>');
  parser.write(raw);
  if (closed) parser.write('</title>');
  else parser.end();
  return text;
}

/**
 * Body text handed over as htmlparser2 would have decoded it, piece by piece. A reference can
 * straddle two pieces of one run of text (the head parser's writes end anywhere), so a run
 * with a '&' goes through a shadow parser, written the same pieces: it holds an unfinished
 * reference back exactly as the head parser used to, and `endRun` gives it the '<' that ended
 * the run. `rcdata`: the text is a title's or textarea's, which htmlparser2 decodes in that
 * element's own state (a '&' right after a '<' stays as it is there).
 */
export class DecodedText {
  private shadow: Parser | undefined;
  /** a run is in the shadow and not yet ended */
  private open = false;

  constructor(
    private readonly sink: (text: string) => void,
    private readonly rcdata = false,
  ) {}

  /** One piece of text; `continues` says it follows the previous piece in the same run. */
  push(raw: string, continues: boolean): void {
    if (this.open && !continues) this.endRun();
    if (!this.open && !raw.includes('&')) {
      this.sink(raw);
      return;
    }
    if (!this.shadow) {
      this.shadow = new Parser({ ontext: (text) => this.sink(text) });
      if (this.rcdata) this.shadow.write('<title>');
    }
    this.shadow.write(raw);
    this.open = true;
  }

  /** The run ended at a '<' (a tag follows): a reference held back is settled now. */
  endRun(): void {
    if (!this.open) return;
    this.open = false;
    // A void element, or the title closed and opened again: the shadow's stack stays small
    // however many runs it sees.
    this.shadow!.write(this.rcdata ? '</title><title>' : '<br>');
  }
}
