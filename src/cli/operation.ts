// Runs one of the seed's operations over the embedded engine. Imported by main.ts only when
// an operation runs, so that nothing else pays for evaluating the engine.
import { parseArgs } from 'node:util';
import { LookupError } from '../contract/errors';
import { invoke } from '../contract/invoke';
import type { Operation } from '../contract/operations';
import { EmbeddedServices } from '../services/embedded';
import { argumentError } from './mistyped';
import { OUTPUT_OPTIONS } from './output';
import { operationUsage } from './usage';

// The short form for people: `hostlens query example.com MX TXT`, `hostlens whois example.com`.
const POSITIONAL_PARAMS: Record<string, string[]> = {
  query: ['host', 'types'],
  domain_keys: ['host', 'selectors'],
  sender_policy_ranges: ['host'],
  whois: ['host'],
  icons: ['url'],
  redirects: ['url'],
  unfurl: ['url'],
  image: ['url'],
};

/** The operation's answer, and the parameters it was asked with (what text output shows). */
export async function runOperation(
  operation: Operation,
  args: string[],
): Promise<{ result: unknown; params: Record<string, string | string[]> }> {
  const params = parseOperationArgs(operation, args);
  const services = new EmbeddedServices({});
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.once('SIGINT', interrupt);
  try {
    const result = await invoke(services, operation, params, { signal: controller.signal });
    return { result, params };
  } finally {
    process.off('SIGINT', interrupt);
  }
}

function parseOperationArgs(
  operation: Operation,
  args: string[],
): Record<string, string | string[]> {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {};
  for (const p of operation.params) {
    options[p.name] = p.flag ? { type: 'boolean' } : { type: 'string', multiple: p.repeated };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    const known = [...operation.params.map((p) => `--${p.name}`), ...OUTPUT_OPTIONS];
    throw argumentError(err, known, operationUsage(operation));
  }
  const params: Record<string, string | string[]> = {};
  for (const p of operation.params) {
    const value = parsed.values[p.name];
    if (value === true) params[p.name] = 'true';
    else if (typeof value === 'string' || Array.isArray(value))
      params[p.name] = value as string | string[];
  }
  const positionalNames = POSITIONAL_PARAMS[operation.name] ?? [];
  const positionals = [...parsed.positionals];
  for (const name of positionalNames) {
    if (positionals.length === 0) break;
    const spec = operation.params.find((p) => p.name === name)!;
    if (spec.repeated) {
      params[name] = [...((params[name] as string[] | undefined) ?? []), ...positionals.splice(0)];
    } else if (params[name] === undefined) {
      params[name] = positionals.shift()!;
    }
  }
  if (positionals.length > 0) {
    throw new LookupError(
      'invalid_argument',
      `Unexpected argument "${positionals[0]}"\n\n${operationUsage(operation)}`,
    );
  }
  const missing = operation.params.find((p) => p.required && params[p.name] === undefined);
  if (missing) {
    const code = missing.name === 'url' ? 'invalid_url' : 'invalid_host';
    throw new LookupError(code, `--${missing.name} is required\n\n${operationUsage(operation)}`);
  }
  return params;
}
