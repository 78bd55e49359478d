// Routes and query-string parsing, driven by the OPERATIONS table so every endpoint and
// parameter of the seed is served without a hand-written route per operation.
//
// Unknown query parameters are refused with `invalid_argument` rather than ignored: a typo
// such as `type=MX` would otherwise silently answer for all ten types.
import { LookupError, type ErrorCode } from '../contract/errors';
import { printable } from '../contract/errors';
import type { OperationParams } from '../contract/invoke';
import { OPERATIONS, type Operation } from '../contract/operations';

/** Mount point of each service: base URLs are `<origin>/domain` and `<origin>/meta`. */
export const SERVICE_PREFIX = { domain: '/domain', meta: '/meta' } as const;

export const ROUTES: ReadonlyMap<string, Operation> = new Map(
  OPERATIONS.map((op) => [`${SERVICE_PREFIX[op.service]}${op.path}`, op]),
);

// A missing required parameter gets the contract code of what it names.
const MISSING_CODE: Record<string, ErrorCode> = { host: 'invalid_host', url: 'invalid_url' };

export type ParsedParams = OperationParams;

/** Each operation's parameter names, built once rather than for every request. */
const PARAM_NAMES: ReadonlyMap<Operation, ReadonlySet<string>> = new Map(
  OPERATIONS.map((op) => [op, new Set(op.params.map((p) => p.name))]),
);

export function parseParams(op: Operation, query: URLSearchParams): ParsedParams {
  const known = PARAM_NAMES.get(op) ?? new Set(op.params.map((p) => p.name));
  for (const name of query.keys()) {
    if (!known.has(name)) {
      throw new LookupError(
        'invalid_argument',
        `Unknown parameter "${printable(name, 40)}" for ${op.path}; expected ${[...known].join(', ')}`,
      );
    }
  }
  const params: ParsedParams = {};
  for (const spec of op.params) {
    const values = query.getAll(spec.name);
    if (spec.repeated) {
      if (values.length > 0) params[spec.name] = values;
    } else if (values.length > 1) {
      throw new LookupError(
        'invalid_argument',
        `The ${spec.name} parameter may be given only once`,
      );
    } else if (values.length === 1) {
      params[spec.name] = values[0]!;
    }
    const value = params[spec.name];
    if (spec.required && (value === undefined || value === '')) {
      throw new LookupError(
        MISSING_CODE[spec.name] ?? 'invalid_argument',
        `The ${spec.name} parameter is required`,
      );
    }
  }
  return params;
}
