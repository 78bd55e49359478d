// Command links in hovers. Every command a link may run is listed once here, because a
// trusted MarkdownString runs only the commands it names.
const HOVER_COMMANDS = [
  'hostlens.lookUpDnsRecords',
  'hostlens.showSpfTree',
  'hostlens.showMailSetup',
  'hostlens.showCertificate',
  'hostlens.whois',
  'hostlens.previewLink',
  'hostlens.traceRedirects',
  'hostlens.showIcons',
];

export function hoverCommands(): string[] {
  return HOVER_COMMANDS;
}

export function commandLink(label: string, command: string, args: unknown[]): string {
  if (!HOVER_COMMANDS.includes(command)) throw new Error(`${command} is not a hover command`);
  return `[${label}](command:${command}?${encodeURIComponent(JSON.stringify(args))})`;
}
