// `hostlens whois` for people: registrar, the dates with how far away they are (in the
// panel's words: contract/dates.ts), each status with what it means, the name servers and
// DNSSEC.
import { statusMeaning, type StatusTone } from '../../contract/epp';
import type { WhoisResult } from '../../contract/shapes';
import { renderer, type RenderContext } from './context';
import { relativeDate } from '../../contract/dates';
import { labelled } from './layout';
import type { Style } from './style';

const DAY = 86_400_000;
const SOON_DAYS = 30;

export const renderWhois = renderer<WhoisResult>((result, context) => {
  const { style, glyphs } = context;
  const d = result.domain;
  const r = result.registrar;
  const name = d.domain ?? d.punycode ?? String(context.params.host ?? '');
  const source = result.source === 'rdap' ? 'RDAP' : result.source === 'whois' ? 'WHOIS' : '';
  const rows: string[][] = [];
  const row = (label: string, value: string) => rows.push([style.bold(label), value]);

  const registrar = [r.name, r.id !== undefined ? style.dim(`IANA ${r.id}`) : undefined]
    .filter((v) => v !== undefined && v !== '')
    .join(' ');
  row('Registrar', registrar !== '' ? registrar : style.dim('not published'));
  if (r.referral_url) row('', style.dim(r.referral_url));
  row('Created', dated(d.created_date, context, false));
  row('Updated', dated(d.updated_date, context, false));
  row('Expires', dated(d.expiration_date, context, true));
  const statuses = d.status ?? [];
  if (statuses.length === 0) row('Status', style.dim('none published'));
  statuses.forEach((status, i) => {
    const meaning = statusMeaning(status);
    row(
      i === 0 ? 'Status' : '',
      `${tone(meaning.tone, style)(meaning.label)} ${style.dim(`${glyphs.dash} ${meaning.meaning}`)}`,
    );
  });
  const servers = d.name_servers ?? [];
  if (servers.length === 0) row('Name servers', style.dim('none published'));
  servers.forEach((ns, i) => row(i === 0 ? 'Name servers' : '', ns.toLowerCase()));
  if (d.dnssec !== undefined) row('DNSSEC', d.dnssec ? style.green('signed') : 'unsigned');
  if (d.whois_server) row('WHOIS server', d.whois_server);

  const title = [
    style.bold(name),
    d.punycode && d.punycode !== name ? style.dim(d.punycode) : '',
    source ? style.dim(`(${source})`) : '',
  ]
    .filter((p) => p !== '')
    .join(' ');
  return [title, '', ...labelled(rows, context.width)].join('\n');
});

function dated(iso: string | undefined, { style, now }: RenderContext, expiry: boolean): string {
  if (iso === undefined || iso === '') return style.dim('not published');
  const at = Date.parse(iso);
  const relative = relativeDate(iso, now.getTime());
  if (relative === undefined) return iso;
  const day = new Date(at).toISOString().slice(0, 10);
  if (!expiry) return `${day}  ${style.dim(relative.text)}`;
  const left = at - now.getTime();
  if (left < 0) return style.red(`${day}  ${relative.text} (expired)`);
  return left < SOON_DAYS * DAY
    ? style.yellow(`${day}  ${relative.text}`)
    : `${day}  ${relative.text}`;
}

function tone(kind: StatusTone, style: Style): (text: string) => string {
  if (kind === 'ok') return style.green;
  if (kind === 'problem') return style.red;
  if (kind === 'pending' || kind === 'grace') return style.yellow;
  return (text) => text;
}
