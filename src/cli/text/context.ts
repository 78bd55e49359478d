// What every text renderer is handed besides the result.
import { domainToASCII } from 'node:url';
import type { Glyphs, Style } from './style';

export interface RenderContext {
  style: Style;
  glyphs: Glyphs;
  /** the clock for relative dates ("in 23 days"); tests pass a fixed one */
  now: Date;
  /** printed columns to fold long lines at (the terminal's width); Infinity: never fold */
  width: number;
  /** the parameters the command ran with (host, url, types…), as parsed */
  params: Readonly<Record<string, string | string[] | undefined>>;
}

/** Turns one command's result into lines for people; the output ends without a newline. */
export type TextRenderer = (result: unknown, context: RenderContext) => string;

/** Types a renderer over its result shape; the registry holds them untyped. */
export function renderer<T>(render: (result: T, context: RenderContext) => string): TextRenderer {
  return (result, context) => render(result as T, context);
}

/** The asked host as a fully qualified name in ASCII (IDN labels as xn--). */
export function fqdn(host: string | string[] | undefined): string {
  const name = (Array.isArray(host) ? host[0] : host) ?? '';
  const trimmed = name.trim().replace(/\.$/, '').toLowerCase();
  if (trimmed === '') return '.';
  return `${asciiName(trimmed)}.`;
}

function asciiName(name: string): string {
  // domainToASCII answers "" for a name it cannot convert; keep the input then.
  const ascii = domainToASCII(name);
  return ascii === '' ? name : ascii;
}
