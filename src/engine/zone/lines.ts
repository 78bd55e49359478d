// The lines of a held document without a string per line: the text as it was opened, where each
// line starts in it, and the lines edited since then apart. A million-line zone holds its text
// and an Int32Array of four bytes a line, where an array of line strings cost some fifty bytes a
// line more.

export class LineStore {
  /** per line: where it starts in `base`, or ~i for edited[i] */
  private starts: Int32Array;
  private count: number;
  private readonly edited: string[] = [];

  constructor(private readonly base: string) {
    // as split(/\r?\n/): a line per line feed, and one after the last
    let lines = 1;
    for (let at = base.indexOf('\n'); at !== -1; at = base.indexOf('\n', at + 1)) lines++;
    this.starts = new Int32Array(lines + 16);
    let line = 0;
    this.starts[line++] = 0;
    for (let at = base.indexOf('\n'); at !== -1; at = base.indexOf('\n', at + 1)) {
      this.starts[line++] = at + 1;
    }
    this.count = lines;
  }

  get length(): number {
    return this.count;
  }

  get(line: number): string {
    const start = this.starts[line];
    if (start < 0) return this.edited[~start];
    const feed = this.base.indexOf('\n', start);
    const end = feed === -1 ? this.base.length : feed;
    // a CR is dropped only before a line feed
    const cut =
      feed !== -1 && end > start && this.base.charCodeAt(end - 1) === 0x0d ? end - 1 : end;
    return this.base.slice(start, cut);
  }

  /** Replaces lines [from, to) with `lines`. */
  splice(from: number, to: number, lines: string[]): void {
    const count = this.count - (to - from) + lines.length;
    if (count > this.starts.length) {
      const bigger = new Int32Array(count * 2);
      bigger.set(this.starts.subarray(0, this.count));
      this.starts = bigger;
    }
    this.starts.copyWithin(from + lines.length, to, this.count);
    for (let i = 0; i < lines.length; i++) {
      this.starts[from + i] = ~this.edited.length;
      this.edited.push(lines[i]);
    }
    this.count = count;
  }

  /** The same lines over one text of their own: the strings of past edits can go. */
  rebased(): LineStore {
    const lines: string[] = [];
    for (let i = 0; i < this.count; i++) lines.push(this.get(i));
    return new LineStore(lines.join('\n'));
  }
}
