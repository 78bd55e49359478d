// The WHOIS view: registrar, dates with relative time, status with meanings, name servers
// that run the DNS look-up, DNSSEC, source and the raw reply behind a toggle. Only what the reply
// holds is shown: a field it lacks has no row (the registry may not publish it, or publish it in
// a form that could not be read; the view does not claim which).
import type { WhoisResult, WhoisView } from '../protocol';
import { add, button, chip, commandLink, el, externalLink, isHttpUrl, row, section } from './dom';
import { statusMeaning } from './epp';
import { expiryLevel, formatUtc, relativeDate } from './time';

export function drawWhois(root: HTMLElement, view: WhoisView): void {
  const data = view.data;
  if (!data) return;
  const name = data.domain.domain ?? data.domain.punycode ?? view.target;
  drawHeader(root, data, name);
  drawRegistrar(root, data.registrar);
  drawDates(root, data.domain, view.at);
  drawStatus(root, data.domain.status ?? []);
  drawNameServers(root, data.domain.name_servers ?? []);
  drawDnssec(root, data.domain.dnssec);
  drawRaw(root, data, view.showRaw);
}

function drawHeader(root: HTMLElement, data: WhoisResult, name: string): void {
  const d = data.domain;
  const header = add(root, el('header', 'view-header'));
  add(header, el('h1', undefined, name));
  const meta = add(header, el('div', 'subtitle'));
  add(meta, chip(data.source === 'rdap' ? 'RDAP' : 'WHOIS', 'chip-source'));
  if (d.punycode && d.punycode !== name) add(meta, el('span', 'muted', d.punycode));
  if (d.whois_server) add(meta, el('span', 'muted', `WHOIS server ${d.whois_server}`));
  const actions = add(header, el('div', 'actions'));
  add(actions, commandLink('DNS records', 'hostlens.lookUpDnsRecords', d.punycode ?? name));
  add(actions, button('Copy JSON', 'copy-json', 'button secondary'));
}

function drawRegistrar(root: HTMLElement, r: WhoisResult['registrar']): void {
  if (!r.name && !r.referral_url && !r.id) return;
  const registrar = section(root, 'Registrar');
  const rlist = add(registrar, el('dl', 'facts'));
  if (r.name || r.referral_url) {
    const label = r.name ?? r.referral_url ?? '';
    row(rlist, 'Name', isHttpUrl(r.referral_url) ? externalLink(label, r.referral_url) : label);
  }
  // An IANA id is a number; some registries give their own handle for the registrar instead.
  if (r.id) row(rlist, /^\d+$/.test(r.id) ? 'IANA ID' : 'Registry ID', r.id);
  if (r.referral_url && r.name) row(rlist, 'Website', r.referral_url);
}

function drawDates(root: HTMLElement, d: WhoisResult['domain'], at: number): void {
  if (!d.created_date && !d.updated_date && !d.expiration_date) return;
  const dates = section(root, 'Dates');
  const dlist = add(dates, el('dl', 'facts'));
  dateRow(dlist, 'Created', d.created_date, at, false);
  dateRow(dlist, 'Updated', d.updated_date, at, false);
  dateRow(dlist, 'Expires', d.expiration_date, at, true);
}

/** Each EPP status with what it means for the holder. */
function drawStatus(root: HTMLElement, values: string[]): void {
  if (values.length === 0) return;
  const status = section(root, 'Status');
  const list = add(status, el('ul', 'status-list'));
  for (const value of values) {
    const meaning = statusMeaning(value);
    const item = add(list, el('li'));
    add(item, chip(meaning.label, `tone-${meaning.tone}`));
    add(item, el('span', 'meaning', meaning.meaning));
  }
}

/** Each name server links to its DNS look-up. */
function drawNameServers(root: HTMLElement, servers: string[]): void {
  if (servers.length === 0) return;
  const ns = section(root, 'Name servers');
  const list = add(ns, el('ul', 'ns-list'));
  for (const server of servers) {
    add(add(list, el('li')), commandLink(server, 'hostlens.lookUpDnsRecords', server));
  }
}

function drawDnssec(root: HTMLElement, dnssec: boolean | undefined): void {
  if (dnssec === undefined) return;
  add(section(root, 'DNSSEC'), dnssec ? chip('Signed', 'tone-ok') : chip('Unsigned', 'tone-info'));
}

/** The reply as received, behind a toggle. */
function drawRaw(root: HTMLElement, data: WhoisResult, showRaw: boolean): void {
  const raw = section(root, data.source === 'rdap' ? 'Raw RDAP reply' : 'Raw WHOIS reply');
  if (data.raw) {
    const bar = add(raw, el('div', 'actions'));
    add(bar, button(showRaw ? 'Hide raw reply' : 'Show raw reply', 'toggle-raw'));
    add(bar, button('Copy raw reply', 'copy-raw', 'button secondary'));
    const pre = add(raw, el('pre', 'raw', data.raw));
    pre.hidden = !showRaw;
  } else add(raw, el('p', 'muted', 'Not available from this backend.'));
}

function dateRow(
  list: HTMLElement,
  term: string,
  iso: string | undefined,
  now: number,
  expiry: boolean,
): void {
  if (!iso) return;
  const value = el('span');
  add(value, el('span', 'date', formatUtc(iso)));
  const rel = relativeDate(iso, now);
  if (rel) {
    const level = expiry ? expiryLevel(iso, now) : 'normal';
    const text = expiry
      ? level === 'past'
        ? `expired ${rel.text}`
        : `expires ${rel.text}`
      : rel.text;
    value.append(' ');
    add(value, el('span', `relative level-${level}`, text));
  }
  row(list, term, value);
}
