// The one way an operation of the table is called on the services, for the HTTP server and the
// command line alike: the service and method its row names, with the parsed parameters.
import { LookupError } from './errors';
import type { Operation } from './operations';
import type { CallOptions, Services } from './services';

export type OperationParams = Record<string, string | string[]>;

/** Calls the service method the operation names. */
export function invoke(
  services: Services,
  op: Operation,
  params: OperationParams,
  options: CallOptions,
): Promise<unknown> {
  const service: object = services[op.service];
  const method: unknown = Reflect.get(service, op.method);
  if (typeof method !== 'function') {
    return Promise.reject(new LookupError('internal_error', 'The operation is not available'));
  }
  return Promise.resolve(Reflect.apply(method, service, [params, options]));
}
