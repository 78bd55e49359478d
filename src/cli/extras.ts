// Commands of the command line beyond the seed's operations: the server, SPF evaluation and
// the whole mail set-up.
// The services and the server are imported when a command runs, so listing the commands
// (help, completion) does not load the engine.
import { parseArgs } from 'node:util';
import { LookupError } from '../contract/errors';
import { zoneCommands } from './zone';
import { openApiDocument } from '../contract/openapi';

export interface ExtraIo {
  /**
   * Prints the command's answer as the user chose: text through the command's renderer in
   * text/index.ts (pretty JSON when it has none) or JSON. `params` are what the renderer may
   * show (the host, the IP asked…).
   */
  print(value: unknown, params?: Record<string, string | string[] | undefined>): void;
  /** The same as print; the name commands written before text output use. */
  printJson(value: unknown): void;
}

export interface ExtraCommand {
  name: string;
  summary: string;
  usage: string;
  run(args: string[], io: ExtraIo): Promise<number>;
}

function parse<T extends Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>>(
  command: ExtraCommand,
  args: string[],
  options: T,
) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new LookupError('invalid_argument', `${(err as Error).message}\nusage: ${command.usage}`);
  }
}

const serveCommand: ExtraCommand = {
  name: 'serve',
  summary:
    'serve the domain and metadata APIs over HTTP (tokens from HOSTLENS_TOKENS or --tokens-file)',
  usage:
    'hostlens serve [--host 127.0.0.1] [--port 8787] [--allow-private] [--tokens-file FILE] [--log-format text|json] [--grace SECONDS]',
  async run(args) {
    const { values } = parse(this, args, {
      host: { type: 'string' },
      port: { type: 'string' },
      'allow-private': { type: 'boolean' },
      'tokens-file': { type: 'string' },
      'log-format': { type: 'string' },
      grace: { type: 'string' },
    });
    const [{ serve }, { EmbeddedServices }] = await Promise.all([
      import('../server/main'),
      import('../services/embedded'),
    ]);
    return serve(
      {
        host: values.host,
        port: values.port,
        allowPrivate: values['allow-private'] === true,
        tokensFile: values['tokens-file'],
        logFormat: values['log-format'],
        graceSeconds: values.grace,
      },
      process.env,
      async ({ blockPrivate }) => {
        const services = new EmbeddedServices({ blockPrivate, warmUp: 'all' });
        // Listening before the warm-up ends would make the first request wait for it.
        await services.ready;
        return services;
      },
    );
  },
};

const spfCheckCommand: ExtraCommand = {
  name: 'spf-check',
  summary: 'evaluate an SPF policy for a client IP (RFC 7208 check_host)',
  usage:
    'hostlens spf-check --host <domain> --ip <ip> [--sender <address>] [--helo <name>] [--server <ns>]',
  async run(args, io) {
    const { values, positionals } = parse(this, args, {
      host: { type: 'string' },
      ip: { type: 'string' },
      sender: { type: 'string' },
      helo: { type: 'string' },
      server: { type: 'string' },
    });
    const domain = values.host ?? positionals[0];
    const ip = values.ip ?? positionals[1];
    if (!domain) throw new LookupError('invalid_host', `--host is required\nusage: ${this.usage}`);
    if (!ip) throw new LookupError('invalid_argument', `--ip is required\nusage: ${this.usage}`);
    const [{ checkSpf }, { EmbeddedServices }] = await Promise.all([
      import('../services/mail'),
      import('../services/embedded'),
    ]);
    const result = await checkSpf(new EmbeddedServices(), {
      domain,
      ip,
      sender: values.sender,
      helo: values.helo,
      server: values.server,
    });
    io.print(result, { host: domain, ip });
    return 0;
  },
};

const mailCommand: ExtraCommand = {
  name: 'mail',
  summary: 'the whole mail set-up of a domain: SPF tree, DKIM keys, DMARC, MTA-STS, TLS-RPT, BIMI',
  usage: 'hostlens mail --host <domain> [--selectors S]… [--server <ns>]',
  async run(args, io) {
    const { values, positionals } = parse(this, args, {
      host: { type: 'string' },
      selectors: { type: 'string', multiple: true },
      server: { type: 'string' },
    });
    const host = values.host ?? positionals[0];
    if (!host) throw new LookupError('invalid_host', `--host is required\nusage: ${this.usage}`);
    const [{ mailSetup }, { EmbeddedServices }] = await Promise.all([
      import('../services/mail'),
      import('../services/embedded'),
    ]);
    const result = await mailSetup(new EmbeddedServices(), host, {
      server: values.server,
      selectors: values.selectors,
    });
    io.print(result, { host });
    return 0;
  },
};

const openApiCommand: ExtraCommand = {
  name: 'openapi',
  summary: 'print the OpenAPI 3.1 description of the HTTP API (as GET /openapi.json serves it)',
  usage: 'hostlens openapi',
  run(args, io) {
    parse(this, args, {});
    io.printJson(openApiDocument());
    return Promise.resolve(0);
  },
};

export function extraCommands(): ExtraCommand[] {
  return [serveCommand, spfCheckCommand, mailCommand, openApiCommand, ...zoneCommands];
}
