import assert from 'node:assert/strict';
import { LookupError } from '../../../src/contract/errors';
import { parseParams, ROUTES } from '../../../src/server/routes';
import { findOperation, OPERATIONS, type Operation } from '../../../src/contract/operations';

function op(name: string): Operation {
  const found = findOperation(name);
  assert.ok(found);
  return found;
}

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof LookupError);
    return err.code;
  }
  return 'none';
}

describe('server routes', () => {
  it('mounts every operation under its service prefix', () => {
    assert.equal(ROUTES.size, OPERATIONS.length);
    for (const operation of OPERATIONS) {
      const prefix = operation.service === 'domain' ? '/domain' : '/meta';
      assert.equal(ROUTES.get(`${prefix}${operation.path}`), operation);
    }
  });

  it('keeps repeated parameters in order and values as sent', () => {
    const q = new URLSearchParams(
      'host=Example.TEST&types=a&types=Mx&types=TXT&server=192.0.2.1:53',
    );
    assert.deepEqual(parseParams(op('query'), q), {
      host: 'Example.TEST',
      types: ['a', 'Mx', 'TXT'],
      server: '192.0.2.1:53',
    });
    assert.deepEqual(
      parseParams(op('domain_keys'), new URLSearchParams('host=x.test&selectors=s1&selectors=s2')),
      {
        host: 'x.test',
        selectors: ['s1', 's2'],
      },
    );
    assert.deepEqual(
      parseParams(op('unfurl'), new URLSearchParams('url=site.test%2Fa%3Fb%3D1&language=de')),
      {
        url: 'site.test/a?b=1',
        language: 'de',
      },
    );
  });

  it('leaves omitted optional parameters out', () => {
    assert.deepEqual(parseParams(op('query'), new URLSearchParams('host=x.test')), {
      host: 'x.test',
    });
  });

  it('gives missing required parameters the contract code of what they name', () => {
    assert.equal(
      code(() => parseParams(op('query'), new URLSearchParams(''))),
      'invalid_host',
    );
    assert.equal(
      code(() => parseParams(op('whois'), new URLSearchParams('host='))),
      'invalid_host',
    );
    assert.equal(
      code(() => parseParams(op('icons'), new URLSearchParams('language=en'))),
      'invalid_url',
    );
  });

  it('refuses unknown, wrongly cased and duplicated parameters', () => {
    assert.equal(
      code(() => parseParams(op('query'), new URLSearchParams('host=x&type=MX'))),
      'invalid_argument',
    );
    assert.equal(
      code(() => parseParams(op('query'), new URLSearchParams('HOST=x'))),
      'invalid_argument',
    );
    assert.equal(
      code(() => parseParams(op('whois'), new URLSearchParams('host=a&host=b'))),
      'invalid_argument',
    );
    assert.equal(
      code(() => parseParams(op('whois'), new URLSearchParams('host=x&server=1.1.1.1'))),
      'invalid_argument',
    );
  });
});
