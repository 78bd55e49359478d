// How text output looks: ANSI colour (only when the caller decided colour is wanted) and the
// characters that draw trees and marks (box-drawing, or plain ASCII for old terminals and
// logs that mangle UTF-8).

export interface Style {
  bold: (text: string) => string;
  dim: (text: string) => string;
  red: (text: string) => string;
  green: (text: string) => string;
  yellow: (text: string) => string;
  cyan: (text: string) => string;
}

export interface Glyphs {
  /** tree branches: a child with siblings after it, the last child, and their continuations */
  branch: string;
  last: string;
  pipe: string;
  space: string;
  ok: string;
  warn: string;
  error: string;
  none: string;
  arrow: string;
  dash: string;
  /** between the facts of one line */
  dot: string;
  ellipsis: string;
}

const sgr =
  (open: number, close: number) =>
  (text: string): string =>
    text === '' ? '' : `\u001b[${open}m${text}\u001b[${close}m`;

const PLAIN: Style = {
  bold: (t) => t,
  dim: (t) => t,
  red: (t) => t,
  green: (t) => t,
  yellow: (t) => t,
  cyan: (t) => t,
};

const COLOUR: Style = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  red: sgr(31, 39),
  green: sgr(32, 39),
  yellow: sgr(33, 39),
  cyan: sgr(36, 39),
};

const BOX: Glyphs = {
  branch: '├── ',
  last: '└── ',
  pipe: '│   ',
  space: '    ',
  ok: '✓',
  warn: '⚠',
  error: '✗',
  none: '–',
  arrow: '→',
  dash: '—',
  dot: ' · ',
  ellipsis: '…',
};

const ASCII: Glyphs = {
  branch: '|-- ',
  last: '`-- ',
  pipe: '|   ',
  space: '    ',
  ok: '+',
  warn: '!',
  error: 'x',
  none: '-',
  arrow: '->',
  dash: '-',
  dot: ', ',
  ellipsis: '...',
};

export function makeStyle(colour: boolean): Style {
  return colour ? COLOUR : PLAIN;
}

export function makeGlyphs(ascii: boolean): Glyphs {
  return ascii ? ASCII : BOX;
}

/** The printed width of a string: escape sequences take no room. */
export function visibleLength(text: string): number {
  return [...text.replace(/\u001b\[[0-9;]*m/g, '')].length;
}

export function stripAnsi(text: string): string {
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
