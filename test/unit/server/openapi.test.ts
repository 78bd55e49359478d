// GET /openapi.json and `hostlens openapi`: one OpenAPI 3.1 document of both services, built
// from the JSON Schemas in src/contract/schemas.ts. The three-way suite checks every answer it
// gets against it; this file checks the document itself and the server's own answers.
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020';
import { request } from 'undici';
import { main } from '../../../src/cli/main';
import { PIPE } from '../cli/run';
import { ERROR_STATUS, LookupError, type ErrorCode } from '../../../src/contract/errors';
import { openApiDocument } from '../../../src/contract/openapi';
import { OPERATIONS } from '../../../src/contract/operations';
import { SCHEMAS } from '../../../src/contract/schemas';
import { FakeServices, FIXED, type MethodName } from '../../support/fake-services';
import { OpenApiChecker } from '../../support/openapi';
import { startTestServer, type TestServer } from '../../support/serve';

const PATHS: Record<MethodName, string> = {
  query: '/domain/query?host=example.test&types=A',
  domainKeys: '/domain/domain_keys?host=example.test&selectors=s1',
  senderPolicyRanges: '/domain/sender_policy_ranges?host=example.test',
  whois: '/domain/whois?host=example.test',
  tls: '/domain/tls?host=example.test&port=8443&starttls=smtp',
  mtaSts: '/domain/mta_sts?host=example.test&server=192.0.2.53',
  icons: '/meta/icons?url=site.test',
  redirects: '/meta/redirects?url=site.test',
  unfurl: '/meta/unfurl?url=site.test',
  image: '/meta/image?url=site.test/a.png',
  link: '/meta/link?url=site.test&fragments=a&fragments=b',
};

describe('OpenAPI document', () => {
  const checker = new OpenApiChecker();
  let fake: FakeServices;
  let server: TestServer;

  beforeEach(async () => {
    fake = new FakeServices();
    server = await startTestServer(fake);
  });

  afterEach(async () => {
    await server.close();
  });

  it('is served without a token at /openapi.json, as the contract module builds it', async () => {
    const res = await request(`${server.url}/openapi.json`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(await res.body.json(), openApiDocument());
  });

  it('is printed by `hostlens openapi`', async () => {
    const out: string[] = [];
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const write = process.stdout.write;
    process.stdout.write = (chunk: string) => (out.push(String(chunk)), true);
    let code: number;
    try {
      code = await main(['openapi'], PIPE);
    } finally {
      process.stdout.write = write;
    }
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(out.join('')), openApiDocument());
  });

  it('describes every operation, the auth header and the error model', () => {
    const doc = openApiDocument() as {
      openapi: string;
      paths: Record<string, { get: { parameters?: Array<{ name: string }> } }>;
      components: { securitySchemes: Record<string, { in: string; name: string }> };
      security: unknown[];
    };
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(doc.components.securitySchemes.apiToken, {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description: 'The API token, bare or as `Bearer <token>`',
    });
    assert.deepEqual(doc.security, [{ apiToken: [] }]);
    for (const op of OPERATIONS) {
      const path = doc.paths[`/${op.service}${op.path}`];
      assert.ok(path, op.name);
      assert.deepEqual(
        path.get.parameters?.map((p) => p.name),
        op.params.map((p) => p.name),
      );
    }
    const problem = SCHEMAS.Problem as { properties: { code: { enum: string[] } } };
    assert.deepEqual(problem.properties.code.enum, Object.keys(ERROR_STATUS));
  });

  it('compiles every schema in strict mode (no unknown keyword, no loose type)', () => {
    // The same schemas with their references moved to $defs, so strict Ajv sees only schemas.
    const defs = JSON.parse(
      JSON.stringify(SCHEMAS).replaceAll('#/components/schemas/', '#/$defs/'),
    ) as Record<string, object>;
    const strict = new Ajv2020({ strict: true, allErrors: true });
    for (const name of Object.keys(SCHEMAS)) {
      assert.doesNotThrow(() => strict.compile({ $defs: defs, $ref: `#/$defs/${name}` }), name);
    }
  });

  it('rejects what the shapes do not allow (the schemas can fail)', () => {
    const wrong: Array<[string, unknown]> = [
      ['/domain/query', { records: [{ type: 'A', valu: '192.0.2.1' }] }],
      ['/domain/query', { records: [{ type: 'AXFR' }] }],
      ['/domain/domain_keys', { domain_keys: [{ selector: 's' }] }],
      ['/domain/sender_policy_ranges', { ...FIXED.senderPolicyRanges, includes: [{}] }],
      ['/domain/whois', { domain: { dnssec: 'yes' }, registrar: {} }],
      ['/meta/icons', { ...FIXED.icons, truncated: false }],
      ['/meta/unfurl', { ...FIXED.unfurl, open_graph: { 'og:title': 3 } }],
      ['/meta/redirects', { locations: [{ status_code: '301', location: 'x' }] }],
    ];
    for (const [path, body] of wrong) {
      assert.notDeepEqual(checker.check(path, 200, 'application/json', body), [], path);
    }
  });

  for (const op of OPERATIONS) {
    it(`matches the server's answers for ${op.service}${op.path}`, async () => {
      const path = `/${op.service}${op.path}`;
      const ok = await request(`${server.url}${PATHS[op.method]}`, {
        headers: { authorization: server.token },
      });
      assert.equal(ok.statusCode, 200);
      assert.deepEqual(
        checker.check(path, 200, String(ok.headers['content-type']), await ok.body.json()),
        [],
      );
      // Every error the contract lists for the path validates as a problem at its status.
      const codes = Object.keys(ERROR_STATUS) as ErrorCode[];
      for (const code of codes) {
        fake.behaviour[op.method] = () => Promise.reject(new LookupError(code, `a ${code}`));
        const res = await request(`${server.url}${PATHS[op.method]}`, {
          headers: { authorization: server.token },
        });
        const body = await res.body.json();
        const documented = checker.document.paths[path].get.responses[String(res.statusCode)];
        if (!documented) continue; // a code this service never raises (cancelled: 499)
        assert.deepEqual(
          checker.check(path, res.statusCode, String(res.headers['content-type']), body),
          [],
          code,
        );
      }
    });
  }

  it('documents the 401 the server itself answers', async () => {
    const unauthorized = await request(`${server.url}/domain/query?host=x.test`);
    assert.deepEqual(
      checker.check(
        '/domain/query',
        401,
        'application/problem+json',
        await unauthorized.body.json(),
      ),
      [],
    );
  });
});
