// The services and the engine behind them, loaded on first use. esbuild.mjs bundles
// servicesBundle.ts apart (dist/engine.js) and points this import at it, so activation
// evaluates the editor part alone; under tsx (unit tests) the import reads the sources.
import type { CallOptions, DomainService, MetaService, Services } from '../contract/services';

export type ServicesBundle = typeof import('./servicesBundle');

let loading: Promise<ServicesBundle> | undefined;

export function loadServices(): Promise<ServicesBundle> {
  return (loading ??= import('./servicesBundle'));
}

/**
 * Services whose every call first loads the engine, then asks the services `make` builds from
 * it (built once, on the first call). Every method of both interfaces returns a promise, so
 * callers see no difference.
 */
export function deferredServices(make: (engine: ServicesBundle) => Services): Services {
  let built: Promise<Services> | undefined;
  const services = () => (built ??= loadServices().then(make));
  const side = <T extends object>(key: 'domain' | 'meta'): T =>
    new Proxy({} as T, {
      get(_target, method) {
        // Not a thenable, and no symbols: only the interfaces' methods are forwarded.
        if (typeof method !== 'string' || method === 'then') return undefined;
        return async (params: unknown, options?: CallOptions) => {
          const target = (await services())[key] as unknown as Record<
            string,
            (p: unknown, o?: CallOptions) => Promise<unknown>
          >;
          return target[method](params, options);
        };
      },
    });
  return { domain: side<DomainService>('domain'), meta: side<MetaService>('meta') };
}
