// Edges of the HTTP API people meet with curl: a word that is no URL, a method other than
// GET, types given as one comma list, and an OpenAPI document that types `dnssec` as what it
// is (a switch).
import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { openApiDocument } from '../../../src/contract/openapi';
import { EmbeddedServices } from '../../../src/services/embedded';
import { loadFixtureZones, startDnsServer, type DnsFixture } from '../../support/dns-server';
import { startTestServer, type TestServer } from '../../support/serve';

const agent = new Agent({ connections: 8 });

async function call(server: TestServer, path: string, method: 'GET' | 'POST' = 'GET') {
  const res = await request(`${server.url}${path}`, {
    method,
    headers: { authorization: server.token },
    dispatcher: agent,
  });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    headers: res.headers,
    json: JSON.parse(text) as Record<string, unknown>,
  };
}

describe('server: API edges', () => {
  let dns: DnsFixture;
  let server: TestServer;

  before(async () => {
    dns = await startDnsServer({ records: loadFixtureZones(['example.test.zone']) });
    server = await startTestServer(new EmbeddedServices({ blockPrivate: false }));
  });
  after(async () => {
    await server.close();
    await dns.close();
  });

  it('url=not-a-url is 400 invalid_url, not a look-up that finds nothing', async () => {
    for (const op of ['icons', 'redirects', 'unfurl', 'image']) {
      const reply = await call(server, `/meta/${op}?url=not-a-url`);
      assert.equal(reply.status, 400, op);
      assert.equal(reply.json.code, 'invalid_url', op);
      assert.match(String(reply.json.detail), /not-a-url/);
    }
  });

  it('answers other methods 405 with a code of their own', async () => {
    const reply = await call(server, '/domain/query?host=example.test', 'POST');
    assert.equal(reply.status, 405);
    assert.equal(reply.headers.allow, 'GET');
    assert.equal(reply.json.code, 'method_not_allowed');
    assert.equal(reply.json.status, 405);
    assert.equal(reply.json.type, 'https://hostlens.dev/problems/method_not_allowed');
  });

  it('takes types=MX,TXT as the list it means', async () => {
    const server_ = encodeURIComponent(dns.address);
    const comma = await call(
      server,
      `/domain/query?host=example.test&types=MX,TXT&server=${server_}`,
    );
    const repeated = await call(
      server,
      `/domain/query?host=example.test&types=MX&types=TXT&server=${server_}`,
    );
    assert.equal(comma.status, 200, JSON.stringify(comma.json));
    assert.deepEqual(comma.json, repeated.json);
    const bad = await call(server, `/domain/query?host=example.test&types=MX,BOGUS`);
    assert.equal(bad.json.code, 'invalid_type');
    assert.match(String(bad.json.detail), /"BOGUS"/);
  });

  it('OpenAPI: dnssec is a boolean parameter, and 405 is described with its code', () => {
    const doc = openApiDocument() as {
      paths: Record<
        string,
        {
          get: {
            parameters: Array<{ name: string; schema: unknown }>;
            responses: Record<string, { description: string }>;
          };
        }
      >;
    };
    const query = doc.paths['/domain/query'].get;
    const dnssec = query.parameters.find((p) => p.name === 'dnssec');
    assert.deepEqual(dnssec?.schema, { type: 'boolean' });
    assert.match(query.responses['405'].description, /method_not_allowed/);
  });
});
