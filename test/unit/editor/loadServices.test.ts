// The editor's services load the engine on their first call (issue 24): nothing is built
// before, the services are built once, and every call reaches them with its arguments.
import * as assert from 'node:assert/strict';
import type { Services } from '../../../src/contract/services';
import { deferredServices, loadServices } from '../../../src/editor/loadServices';
import { FakeServices } from '../../support/fake-services';

describe('deferredServices', () => {
  it('builds the services on the first call only, and forwards every call', async () => {
    const built: Services[] = [];
    const fake = new FakeServices();
    const services = deferredServices(() => {
      built.push(fake);
      return fake;
    });
    assert.equal(built.length, 0, 'nothing built before a call');
    const controller = new AbortController();
    await services.domain.query({ host: 'x.test' }, { signal: controller.signal });
    await services.meta.unfurl({ url: 'https://site.test/' });
    assert.equal(built.length, 1);
    assert.deepEqual(
      fake.calls.map((c) => c.method),
      ['query', 'unfurl'],
    );
    assert.equal((fake.calls[0].params as { host: string }).host, 'x.test');
    assert.equal(fake.calls[0].signal, controller.signal);
  });

  it('is no thenable, so awaiting it by mistake does not call the engine', async () => {
    const services = deferredServices(() => new FakeServices());
    assert.equal((services.domain as unknown as { then?: unknown }).then, undefined);
    assert.equal(await Promise.resolve(services.domain), services.domain);
  });

  it('passes a failure of the engine on as the call’s rejection', async () => {
    const fake = new FakeServices();
    fake.behaviour.whois = () => Promise.reject(new Error('refused'));
    const services = deferredServices(() => fake);
    await assert.rejects(services.domain.whois({ host: 'x.test' }), /refused/);
  });

  it('loads the services bundle once', async () => {
    const [a, b] = await Promise.all([loadServices(), loadServices()]);
    assert.equal(a, b);
    assert.equal(typeof a.EmbeddedServices, 'function');
  });
});
