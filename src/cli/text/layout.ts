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

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
