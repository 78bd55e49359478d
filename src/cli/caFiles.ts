// `--ca-file FILE` (repeatable): CAs the TLS look-ups trust besides the system's and
// NODE_EXTRA_CA_CERTS, for a company CA or a test PKI.
import { readFileSync } from 'node:fs';
import { LookupError, printable } from '../contract/errors';

export function readCaFiles(files: readonly string[] | undefined): string[] | undefined {
  if (files === undefined || files.length === 0) return undefined;
  return files.map((file) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      throw new LookupError('invalid_argument', `--ca-file ${printable(file)} cannot be read`);
    }
    if (!text.includes('-----BEGIN CERTIFICATE-----')) {
      throw new LookupError(
        'invalid_argument',
        `--ca-file ${printable(file)} holds no PEM certificate`,
      );
    }
    return text;
  });
}
