// hostlens serve: the seed's HTTP API over the embedded engine.
import { EmbeddedServices } from '../../services/embedded';
import { serve } from '../../server/main';
import { parseCommandArgs, type CommandRun } from '../commands';

export const run: CommandRun = async (args, _io, command) => {
  const { values } = parseCommandArgs(command, args, {
    host: { type: 'string' },
    port: { type: 'string' },
    'allow-private': { type: 'boolean' },
    'allow-cidr': { type: 'string', multiple: true },
    'tokens-file': { type: 'string' },
    'log-format': { type: 'string' },
    grace: { type: 'string' },
    'rate-limit': { type: 'string' },
    burst: { type: 'string' },
    'max-open': { type: 'string' },
  });
  return serve(
    {
      host: values.host,
      port: values.port,
      allowPrivate: values['allow-private'] === true,
      allowCidr: values['allow-cidr'],
      tokensFile: values['tokens-file'],
      logFormat: values['log-format'],
      graceSeconds: values.grace,
      rateLimit: values['rate-limit'],
      burst: values.burst,
      maxOpen: values['max-open'],
    },
    process.env,
    async ({ blockPrivate, allowCidrs }) => {
      const services = new EmbeddedServices({
        blockPrivate,
        warmUp: 'all',
        ...(allowCidrs ? { allowCidrs } : {}),
      });
      // Listening before the warm-up ends would make the first request wait for it.
      await services.ready;
      return services;
    },
  );
};
