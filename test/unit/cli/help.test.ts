// `hostlens COMMAND --help` and `-h`: every operation and every command prints its own usage
// on stdout and exits 0 (issue 24), without running the command, and the command table is
// what help and dispatch read.
import * as assert from 'node:assert/strict';
import { OPERATIONS } from '../../../src/contract/operations';
import { COMMANDS } from '../../../src/cli/commands';
import { runCli } from './run';

const NAMES = [...OPERATIONS.map((o) => o.name), ...COMMANDS.map((c) => c.name)];

describe('hostlens COMMAND --help', () => {
  for (const flag of ['--help', '-h'])
    it(`prints each command's usage for ${flag}, exit 0`, async () => {
      for (const name of NAMES) {
        const r = await runCli([name, flag]);
        assert.equal(r.code, 0, `${name} ${flag}: ${r.stderr}`);
        assert.equal(r.stderr, '', name);
        assert.match(r.stdout, new RegExp(`^hostlens ${name}: `), name);
        assert.match(r.stdout, new RegExp(`\\nusage: hostlens ${name}\\b`), name);
      }
    });

  it('answers help wherever the flag stands, also after other arguments', async () => {
    const r = await runCli(['zone-check', 'no-such-file.zone', '--origin', 'x.test', '--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^usage: hostlens zone-check FILE/m);
    const q = await runCli(['query', 'example.test', 'MX', '-h', '--json']);
    assert.equal(q.code, 0);
    assert.match(q.stdout, /^usage: hostlens query --host <host>/m);
  });

  it('leaves a --help after -- to the command', async () => {
    const r = await runCli(['zone-check', '--', '--help']);
    assert.notEqual(r.code, 0, 'the file "--help" does not exist: a failed check, not help');
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /--help/);
  });

  it('accepts the operation names with dashes', async () => {
    const r = await runCli(['domain-keys', '--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^hostlens domain_keys: /);
  });

  it('keeps an unknown command an error, with or without --help', async () => {
    const r = await runCli(['no-such-command', '--help']);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /Unknown command \\"no-such-command\\"/);
  });

  it('lists every command of the table in hostlens help', async () => {
    const r = await runCli(['help']);
    for (const c of COMMANDS) assert.ok(r.stdout.includes(c.usage), c.name);
  });
});
