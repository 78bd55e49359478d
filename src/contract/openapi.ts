// The OpenAPI 3.1 description of both services, built from the operation table, the JSON
// Schemas of the shapes and the error table, so it cannot drift from what the server does.
// Served at GET /openapi.json and printed by `hostlens openapi`.
import { ERROR_STATUS, type ErrorCode } from './errors';
import { OPERATIONS, type Operation } from './operations';
import { SCHEMAS, type JsonSchema } from './schemas';

const PARAM_DESCRIPTIONS: Record<string, string> = {
  host: 'Hostname (IDN accepted; a trailing dot is optional)',
  types:
    'Record types, case-insensitive, repeated (types=A&types=MX) or as one comma list (types=A,MX); omitted: all ten',
  selectors: 'DKIM selectors, repeated; omitted: a set of commonly used selectors',
  server: 'Nameserver: an IPv4 or IPv6 address with an optional port, or a host name',
  url: 'URL to fetch; https:// is prepended when it has no scheme; at most 8 KB',
  port: 'TCP port; default 443, or 25 with starttls=smtp',
  starttls: '`smtp`: STARTTLS after the SMTP greeting and EHLO (RFC 3207)',
  language: 'Sent to the site as Accept-Language; nothing is sent when omitted',
};

// Codes every authenticated operation may answer, besides its own.
const COMMON_CODES: ErrorCode[] = [
  'bad_request',
  'unauthorized',
  'request_timeout',
  'rate_limited',
  'request_header_too_large',
  'internal_error',
  'overloaded',
];

// Codes every operation that reaches out may answer: its target refused by the guard, or the
// upstream (nameserver, registry, site) failing.
const UPSTREAM_CODES: ErrorCode[] = [
  'invalid_argument',
  'not_found',
  'blocked_target',
  'upstream_timeout',
  'upstream_error',
  'response_too_large',
];

const OPERATION_CODES: Record<Operation['service'], ErrorCode[]> = {
  domain: ['invalid_host', 'invalid_type', 'invalid_server', ...UPSTREAM_CODES],
  meta: ['invalid_url', ...UPSTREAM_CODES],
};

const problemContent = {
  'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
};
const retryAfter = {
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
};

/** Problem responses grouped by HTTP status, each listing the codes it may carry. */
function problemResponses(codes: ErrorCode[]): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, JsonSchema> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: `Problem details; code ${list.map((c) => `\`${c}\``).join(', ')}`,
      content: problemContent,
      ...(status === 429 || status === 503 ? { headers: retryAfter } : {}),
    };
  }
  return out;
}

function operationPath(op: Operation): JsonSchema {
  const codes = [...new Set([...COMMON_CODES, ...OPERATION_CODES[op.service]])];
  return {
    get: {
      operationId: `${op.service}_${op.name}`,
      summary: op.summary,
      tags: [op.service],
      parameters: op.params.map((p) => ({
        name: p.name,
        in: 'query',
        required: p.required,
        description: PARAM_DESCRIPTIONS[p.name] ?? p.name,
        ...(p.repeated
          ? { style: 'form', explode: true, schema: { type: 'array', items: { type: 'string' } } }
          : { schema: { type: p.flag ? 'boolean' : 'string' } }),
      })),
      responses: {
        '200': {
          description: op.summary,
          content: {
            'application/json': {
              schema: { $ref: `#/components/schemas/${op.result}` },
            },
          },
        },
        ...problemResponses(codes),
        '405': {
          description: 'Only GET is supported; code `method_not_allowed`',
          content: problemContent,
        },
      },
    },
  };
}

export function openApiDocument(): JsonSchema {
  const paths: Record<string, JsonSchema> = {};
  for (const op of OPERATIONS) paths[`/${op.service}${op.path}`] = operationPath(op);
  paths['/healthz'] = {
    get: {
      operationId: 'healthz',
      summary: 'Liveness: 200 while the instance takes requests, 503 once it is stopping',
      security: [],
      responses: {
        '200': {
          description: 'Serving',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { status: { const: 'ok' } },
                required: ['status'],
              },
            },
          },
        },
        ...problemResponses(['overloaded']),
      },
    },
  };
  paths['/openapi.json'] = {
    get: {
      operationId: 'openapi',
      summary: 'This document',
      security: [],
      responses: {
        '200': { description: 'OpenAPI 3.1', content: { 'application/json': {} } },
      },
    },
  };
  paths['/metrics'] = {
    get: {
      operationId: 'metrics',
      summary: 'Counters and histograms in the Prometheus text format',
      responses: {
        '200': { description: 'Prometheus text format', content: { 'text/plain': {} } },
        ...problemResponses(['unauthorized']),
      },
    },
  };
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'HostLens domain and web metadata services',
      version: '1.0.0',
      description:
        'Two read-only query services under one origin: the domain service at /domain ' +
        '(DNS records, DKIM keys, SPF ranges, WHOIS) and the web metadata service at /meta ' +
        '(icons, redirects, unfurl, images). Errors are RFC 9457 problem details with a ' +
        'stable `code`. Fields not in the seed are additive.',
    },
    servers: [{ url: '/' }],
    security: [{ apiToken: [] }],
    tags: [
      { name: 'domain', description: 'Domain service (base URL <origin>/domain)' },
      { name: 'meta', description: 'Web metadata service (base URL <origin>/meta)' },
    ],
    paths,
    components: {
      securitySchemes: {
        apiToken: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'The API token, bare or as `Bearer <token>`',
        },
      },
      schemas: SCHEMAS,
    },
  };
}
