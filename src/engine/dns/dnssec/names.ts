// Domain names as the validator needs them: absolute, lower case (ASCII only, RFC 4034 section
// 6.2), split into labels, compared in canonical order (RFC 4034 section 6.1). Wire form and
// at-or-below are the engine's name module's (../names.ts), on the canonical key.
import * as keys from '../names';

/** "Www.Example.TLD" or "www.example.tld." -> "www.example.tld."; the root is ".". */
export function canonicalName(name: string): string {
  const lower = name.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const body = lower.replace(/^\.+|\.+$/g, '');
  return body === '' ? '.' : `${body}.`;
}

/** Labels from the left, without the root: "a.b." -> ["a", "b"]. */
export function labels(name: string): string[] {
  const c = canonicalName(name);
  return c === '.' ? [] : c.slice(0, -1).split('.');
}

export function labelCount(name: string): number {
  return labels(name).length;
}

export function fromLabels(parts: readonly string[]): string {
  return parts.length === 0 ? '.' : `${parts.join('.')}.`;
}

/** Whether `name` is `ancestor` or below it. */
export function isAtOrBelow(name: string, ancestor: string): boolean {
  return keys.isAtOrBelow(canonicalName(name), canonicalName(ancestor));
}

export function isBelow(name: string, ancestor: string): boolean {
  return isAtOrBelow(name, ancestor) && labelCount(name) > labelCount(ancestor);
}

/** The rightmost `count` labels of a name. */
export function suffix(name: string, count: number): string {
  const parts = labels(name);
  return fromLabels(parts.slice(parts.length - count));
}

/** The ancestors of a name strictly below `top`, from the one just below `top` down to the name. */
export function namesBelow(name: string, top: string): string[] {
  const total = labelCount(name);
  const start = labelCount(top);
  const out: string[] = [];
  for (let n = start + 1; n <= total; n++) out.push(suffix(name, n));
  return out;
}

/** The longest name both are at or below. */
export function commonAncestor(a: string, b: string): string {
  const la = labels(a).reverse();
  const lb = labels(b).reverse();
  const common: string[] = [];
  for (let i = 0; i < Math.min(la.length, lb.length) && la[i] === lb[i]; i++) common.push(la[i]);
  return fromLabels(common.reverse());
}

/** RFC 4034 section 6.1: label by label from the right, each as lower-cased octets. */
export function compareNames(a: string, b: string): number {
  const la = labels(a).reverse();
  const lb = labels(b).reverse();
  for (let i = 0; i < Math.min(la.length, lb.length); i++) {
    const c = Buffer.compare(Buffer.from(la[i]), Buffer.from(lb[i]));
    if (c !== 0) return c;
  }
  return la.length - lb.length;
}

/** The wire form of a name, canonical (no compression, lower case). */
export function nameToWire(name: string): Buffer {
  return keys.keyWire(canonicalName(name));
}
