// Text renderers by command name. A command without one prints pretty JSON on a terminal, so
// a new command works at once and gets a renderer when someone writes one: add a file beside
// these and one line to RENDERERS.
import type { RenderContext, TextRenderer } from './context';
import { renderCheck } from './check';
import { renderDomainKeys } from './dkim';
import { renderMail } from './mail';
import { renderQuery } from './query';
import { renderSpf } from './spf';
import { renderSpfCheck } from './spfCheck';
import { renderTls } from './tls';
import { renderMtaSts } from './transport';
import { renderIcons, renderImage, renderRedirects, renderUnfurl } from './web';
import { renderWhois } from './whois';
import { renderZoneCheck, renderZoneDiff } from './zone';

export type { RenderContext, TextRenderer } from './context';

const RENDERERS = new Map<string, TextRenderer>([
  ['query', renderQuery],
  ['domain_keys', renderDomainKeys],
  ['sender_policy_ranges', renderSpf],
  ['whois', renderWhois],
  ['icons', renderIcons],
  ['redirects', renderRedirects],
  ['unfurl', renderUnfurl],
  ['image', renderImage],
  ['mail', renderMail],
  ['spf-check', renderSpfCheck],
  ['tls', renderTls],
  ['mta_sts', renderMtaSts],
  ['zone-check', renderZoneCheck],
  ['zone-diff', renderZoneDiff],
  ['check', renderCheck],
]);

/** The result as text for people, or as pretty JSON when the command has no renderer. */
export function renderText(command: string, result: unknown, context: RenderContext): string {
  const render = RENDERERS.get(command);
  return render ? render(result, context) : JSON.stringify(result, null, 2);
}
