// DKIM keys one per line: selector, key type and size, and a verdict on the key (RFC 8301:
// RSA keys under 1024 bits must not be used, 2048 is what senders should publish; an empty
// p= revokes the key, RFC 6376 section 3.6.1).
import type { DkimEntry, DomainKeysResult } from '../../contract/shapes';
import { renderer, type RenderContext } from './context';
import { columns } from './layout';

export const renderDomainKeys = renderer<DomainKeysResult>((result, context) =>
  dkimLines(result.domain_keys, context).join('\n'),
);

export function dkimLines(keys: DkimEntry[], context: RenderContext): string[] {
  const { style } = context;
  if (keys.length === 0)
    return [style.yellow('No DKIM key found under the selectors asked (try --selectors)')];
  return columns(
    keys.map((key) => {
      const [mark, verdict] = keyVerdict(key, context);
      return [mark, style.bold(key.selector), keyKind(key), verdict, style.dim(key.domain)];
    }),
  );
}

function keyKind(key: DkimEntry): string {
  const bits = key.key_bits !== undefined ? ` ${key.key_bits} bits` : '';
  const services = key.service_type.filter((s) => s !== 'all' && s !== '*');
  return `${key.key_type}${bits}${services.length > 0 ? ` s=${services.join(':')}` : ''}`;
}

function keyVerdict(key: DkimEntry, { style, glyphs }: RenderContext): [string, string] {
  if (key.public_key === '') return [style.dim(glyphs.none), style.dim('revoked (empty p=)')];
  if (key.key_type.toLowerCase() === 'rsa' && key.key_bits !== undefined) {
    if (key.key_bits < 1024)
      return [style.red(glyphs.error), style.red('too short: receivers must reject it')];
    if (key.key_bits < 2048)
      return [style.yellow(glyphs.warn), style.yellow('weak: publish 2048 bits')];
  }
  return [style.green(glyphs.ok), style.green('ok')];
}
