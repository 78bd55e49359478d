// Hover on a hostname, IP address, e-mail address or URL: a compact answer and command links.
// Names and IPs are looked up (cached for their TTL, cancelled with the hover), validated with
// DNSSEC when hostlens.dns.dnssec is on; URLs are never fetched by a hover, they only offer
// commands.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import type { Detected } from '../../detect';
import { detectAtPosition } from '../editorContext';
import { toLookupError } from '../../contract/errors';
import type { DnsRecord, RecordType } from '../../contract/shapes';
import { recordLabel } from '../views/nodes/dns';
import { DnsCache, type AnswerSource, type TypeAnswer } from './dnsCache';
import { commandLink, hoverCommands } from './links';
import { dnssecLine, escapeMd, worstVerdict } from './markdown';
import { getDomain } from 'tldts';
import { TlsHoverCache, tlsHoverLine } from './tlsLine';

export function registerHostHover(context: vscode.ExtensionContext, deps: Deps): DnsCache {
  const cache = new DnsCache();
  const tls = new TlsHoverCache();
  const provider: vscode.HoverProvider = {
    provideHover: (document, position, token) =>
      provideHover(deps, cache, tls, document, position, token),
  };
  context.subscriptions.push(
    vscode.languages.registerHoverProvider([{ scheme: 'file' }, { scheme: 'untitled' }], provider),
  );
  return cache;
}

async function provideHover(
  deps: Deps,
  cache: DnsCache,
  tls: TlsHoverCache,
  document: vscode.TextDocument,
  position: vscode.Position,
  token: vscode.CancellationToken,
): Promise<vscode.Hover | undefined> {
  const settings = deps.settings();
  if (!settings.hoverEnabled) return undefined;
  if (
    settings.hoverLanguages.length > 0 &&
    !settings.hoverLanguages.includes(document.languageId)
  ) {
    return undefined;
  }
  const { item, context } = detectAtPosition(document, position);
  if (!item) return undefined;
  const origin = context.origin;
  const range = new vscode.Range(position.line, item.start, position.line, item.end);
  if (item.kind === 'url') return new vscode.Hover(urlMarkdown(item), range);

  const name = item.value.replace(/^\*\./, '');
  const types = typesFor(item, name, origin);
  const controller = new AbortController();
  const subscription = token.onCancellationRequested(() => controller.abort());
  try {
    const source = { server: settings.dnsServer, dnssec: settings.dnssec };
    // The certificate on 443 is asked beside the records, for a host name only.
    const certificate =
      item.kind === 'hostname'
        ? tls.get(deps, name, settings.dnsServer, controller.signal)
        : Promise.resolve(undefined);
    const answers = await lookUp(deps, cache, name, types, source, controller.signal);
    if (token.isCancellationRequested) return undefined;
    const addressed = ['A', 'AAAA'].some(
      (t) => (answers.get(t as RecordType)?.records.length ?? 0) > 0,
    );
    const outcome = addressed ? await certificate : undefined;
    if (token.isCancellationRequested) return undefined;
    const tlsLine = outcome ? tlsHoverLine(outcome) : undefined;
    return new vscode.Hover(
      answerMarkdown(item, name, types, answers, settings.dnsServer, tlsLine),
      range,
    );
  } catch (err) {
    if (token.isCancellationRequested) return undefined;
    const error = toLookupError(err);
    const md = heading(item, name);
    md.appendMarkdown(`\n\n$(error) ${escapeMd(error.detail)}`);
    return new vscode.Hover(md, range);
  } finally {
    subscription.dispose();
  }
}

function typesFor(item: Detected, name: string, origin: string | undefined): RecordType[] {
  if (item.kind === 'ip') return ['PTR'];
  if (item.kind === 'email') return ['MX'];
  const apex =
    (origin !== undefined && origin.replace(/\.$/, '').toLowerCase() === name) ||
    getDomain(name, { allowPrivateDomains: true }) === name;
  return apex ? ['A', 'AAAA', 'CNAME', 'MX', 'NS'] : ['A', 'AAAA', 'CNAME'];
}

async function lookUp(
  deps: Deps,
  cache: DnsCache,
  name: string,
  types: RecordType[],
  source: AnswerSource,
  signal: AbortSignal,
): Promise<Map<RecordType, TypeAnswer>> {
  const answers = new Map<RecordType, TypeAnswer>();
  const missing: RecordType[] = [];
  for (const type of types) {
    const cached = cache.get(name, type, source);
    if (cached) answers.set(type, cached);
    else missing.push(type);
  }
  if (missing.length > 0) {
    // Only the hover's own question is validated: the chain is walked for these types alone.
    const dnssec = source.dnssec ? true : undefined;
    const result = await deps
      .services()
      .domain.query({ host: name, types: missing, server: source.server, dnssec }, { signal });
    cache.put(name, missing, source, result);
    for (const type of missing) {
      answers.set(type, {
        records: result.records.filter((r) => r.type === type),
        nxdomain: result.status === 'NXDOMAIN',
        failure: result.errors?.find((e) => e.type === type),
        dnssec: result.dnssec,
      });
    }
  }
  return answers;
}

function heading(item: Detected, name: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = { enabledCommands: hoverCommands() };
  md.supportThemeIcons = true;
  const label = item.kind === 'email' ? `${escapeMd(name)} (mail domain)` : escapeMd(name);
  md.appendMarkdown(`**${label}**`);
  return md;
}

function answerMarkdown(
  item: Detected,
  name: string,
  types: RecordType[],
  answers: Map<RecordType, TypeAnswer>,
  server: string | undefined,
  tlsLine?: string,
): vscode.MarkdownString {
  const md = heading(item, name);
  if (server) md.appendMarkdown(` · @${escapeMd(server)}`);
  const rows: string[] = [];
  const nxdomain = [...answers.values()].some((a) => a.nxdomain);
  if (nxdomain) rows.push('$(error) NXDOMAIN: no such domain');
  for (const type of types) {
    const answer = answers.get(type);
    if (!answer) continue;
    if (answer.failure) rows.push(`${type} $(warning) ${answer.failure.code}`);
    else if (answer.records.length > 0)
      rows.push(`${type} ${answer.records.map(formatRecord).join(' · ')}`);
  }
  if (!nxdomain && rows.length === 0) rows.push(`No ${types.join('/')} records`);
  const verdict = worstVerdict([...answers.values()].map((a) => a.dnssec));
  if (verdict) rows.push(dnssecLine(verdict));
  if (tlsLine !== undefined) rows.push(tlsLine);
  md.appendMarkdown(`\n\n${rows.join('  \n')}`);
  const links = [
    commandLink('All records', 'hostlens.lookUpDnsRecords', [
      item.kind === 'ip' ? item.value : name,
    ]),
  ];
  if (item.kind !== 'ip') {
    links.push(
      commandLink('SPF tree', 'hostlens.showSpfTree', [name]),
      commandLink('Mail set-up', 'hostlens.showMailSetup', [name]),
      commandLink('WHOIS', 'hostlens.whois', [name]),
      commandLink('Certificate', 'hostlens.showCertificate', [name]),
    );
  }
  md.appendMarkdown(`\n\n${links.join(' · ')}`);
  return md;
}

function formatRecord(record: DnsRecord): string {
  const value = `\`${recordLabel(record).replace(/`/g, "'")}\``;
  return record.priority !== undefined ? `${record.priority} ${value}` : value;
}

function urlMarkdown(item: Detected): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = { enabledCommands: hoverCommands() };
  md.appendMarkdown(`**${escapeMd(item.value)}**\n\n`);
  const host = safeHost(item.value);
  // Offered, never run: a hover does not fetch a URL by itself.
  const links = [
    commandLink('Preview', 'hostlens.previewLink', [item.value]),
    commandLink('Redirects', 'hostlens.traceRedirects', [item.value]),
    commandLink('Icons', 'hostlens.showIcons', [item.value]),
  ];
  if (host) links.push(commandLink('DNS records', 'hostlens.lookUpDnsRecords', [host]));
  md.appendMarkdown(links.join(' · '));
  return md;
}

function safeHost(url: string): string | undefined {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`).hostname.replace(
      /^\[|\]$/g,
      '',
    );
  } catch {
    return undefined;
  }
}
