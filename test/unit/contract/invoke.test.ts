import * as assert from 'node:assert/strict';
import { invoke } from '../../../src/contract/invoke';
import { findOperation, type Operation } from '../../../src/contract/operations';
import type { Services } from '../../../src/contract/services';
import { code } from '../../support/settled';

describe('contract invoke (the server and the command line call operations through it)', () => {
  const calls: unknown[][] = [];
  const domain = {
    query(params: unknown, options: unknown) {
      calls.push([params, options]);
      return Promise.resolve({ records: [] });
    },
  };
  const services = { domain, meta: {} } as unknown as Services;

  it('calls the method the operation names, on its service, with the parameters and options', async () => {
    const op = findOperation('query')!;
    const signal = new AbortController().signal;
    assert.deepEqual(await invoke(services, op, { host: 'example.com' }, { signal }), {
      records: [],
    });
    assert.deepEqual(calls, [[{ host: 'example.com' }, { signal }]]);
  });

  it('refuses an operation its service does not have with internal_error', async () => {
    const op = { ...findOperation('query')!, method: 'nothing' } as unknown as Operation;
    assert.equal(await code(invoke(services, op, {}, {})), 'internal_error');
  });
});
