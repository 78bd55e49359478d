export { startServer, type ServerOptions, type RunningServer } from './server';
export { serve, loadTokens, type ServeArgs, type ServeIo, type CreateServices } from './main';
