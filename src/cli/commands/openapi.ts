// hostlens openapi: the OpenAPI document of the HTTP API.
import { openApiDocument } from '../../contract/openapi';
import { parseCommandArgs, type CommandRun } from '../commands';

export const run: CommandRun = (args, io, command) => {
  parseCommandArgs(command, args, {});
  io.print(openApiDocument());
  return Promise.resolve(0);
};
