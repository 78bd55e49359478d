// Columns and wrapping for text output. Cells may carry colour: widths count printed
// characters only.
import { visibleLength } from './style';

export type Align = 'left' | 'right';

/**
 * Rows padded into aligned columns separated by `gap` spaces. The last column is not padded,
 * so long values (TXT data, URLs) do not push trailing blanks.
 */
export function columns(rows: string[][], align: Align[] = [], gap = 2): string[] {
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, visibleLength(cell));
    });
  return rows.map((row) =>
    row
      .map((cell, i) => {
        if (i === row.length - 1 && align[i] !== 'right') return cell;
        const pad = ' '.repeat(widths[i] - visibleLength(cell));
        return align[i] === 'right' ? pad + cell : cell + pad;
      })
      .join(' '.repeat(gap))
      .trimEnd(),
  );
}

/** Items joined with `sep` into lines no wider than `width` (a longer item gets a line). */
export function wrapItems(items: string[], width: number, sep = '  '): string[] {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    if (line !== '' && visibleLength(line) + sep.length + visibleLength(item) > width) {
      lines.push(line);
      line = '';
    }
    line = line === '' ? item : `${line}${sep}${item}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/**
 * A line folded at spaces to `width` printed columns; the lines after the first start with
 * `indent` spaces (a hanging indent under a table's value column). Colour codes stay with
 * their words, and terminals keep a colour across the break.
 */
export function fold(line: string, width: number, indent: number | string): string[] {
  if (!Number.isFinite(width) || visibleLength(line) <= width) return [line];
  // a number of spaces, or the text that starts each continuation (a tree's branches)
  const start = typeof indent === 'number' ? ' '.repeat(indent) : indent;
  const room = Math.max(width - visibleLength(start), 20);
  const lead = /^ */.exec(line)![0];
  const [first = '', ...words] = line.slice(lead.length).split(' ');
  const lines: string[] = [];
  let current = lead + first;
  let limit = width;
  for (const word of words) {
    const candidate = `${current} ${word}`;
    if (word !== '' && visibleLength(candidate) > limit) {
      lines.push(current.trimEnd());
      current = start + word;
      limit = visibleLength(start) + room;
    } else current = candidate;
  }
  lines.push(current);
  return lines;
}

/** Label and value rows, long values folded under the value column. */
export function labelled(rows: string[][], width: number): string[] {
  const labelWidth = Math.max(0, ...rows.map(([label = '']) => visibleLength(label)));
  return columns(rows).flatMap((line) => fold(line, width, labelWidth + 2));
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
