// `hostlens completion`: scripts generated from the operation table. The bash script is run
// in bash the way bash-completion calls it; zsh and fish scripts are syntax-checked when those
// shells are installed.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { OPERATIONS } from '../../../src/contract/operations';
import { RECORD_TYPES } from '../../../src/contract/shapes';
import { runCli } from './run';

async function script(shell: string): Promise<string> {
  const r = await runCli(['completion', shell]);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

/** What the bash script offers for a command line typed so far (the last word is partial). */
function bashComplete(source: string, words: string[]): string[] {
  const line = words.map((w) => `'${w}'`).join(' ');
  const r = spawnSync(
    'bash',
    [
      '-c',
      `${source}\nCOMP_WORDS=(${line}); COMP_CWORD=${words.length - 1}; _hostlens; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split('\n').filter((w) => w !== '');
}

function hasShell(name: string): boolean {
  return spawnSync(name, ['--version']).status === 0;
}

describe('hostlens completion', () => {
  it('names every operation and every parameter in each shell', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const text = await script(shell);
      for (const op of OPERATIONS) {
        assert.ok(text.includes(op.name), `${shell}: ${op.name}`);
        for (const p of op.params)
          assert.ok(
            text.includes(shell === 'fish' ? `-l ${p.name}` : `--${p.name}`),
            `${shell}: ${op.name} --${p.name}`,
          );
      }
      for (const extra of ['serve', 'spf-check', 'mail', 'completion'])
        assert.ok(text.includes(extra), `${shell}: ${extra}`);
      assert.ok(text.includes(RECORD_TYPES.join(' ')), `${shell}: record types`);
    }
  });

  it('completes commands, options, record types and option values in bash', async () => {
    const source = await script('bash');
    assert.deepEqual(bashComplete(source, ['hostlens', 'qu']), ['query']);
    assert.deepEqual(bashComplete(source, ['hostlens', 's']), [
      'sender_policy_ranges',
      'serve',
      'spf-check',
    ]);
    assert.deepEqual(bashComplete(source, ['hostlens', 'query', '--t']), ['--types']);
    assert.deepEqual(bashComplete(source, ['hostlens', 'query', '--types', 'C']), ['CAA', 'CNAME']);
    assert.deepEqual(bashComplete(source, ['hostlens', 'query', 'example.com', 'AA']), ['AAAA']);
    assert.deepEqual(bashComplete(source, ['hostlens', 'whois', '--format', '']), ['text', 'json']);
    assert.deepEqual(bashComplete(source, ['hostlens', 'spf-check', '--i']), ['--ip']);
    assert.deepEqual(bashComplete(source, ['hostlens', 'completion', 'z']), ['zsh']);
    assert.deepEqual(bashComplete(source, ['hostlens', 'query', '--host', '']), []);
  });

  it('writes zsh and fish scripts their shells accept', async function () {
    const shells = ['zsh', 'fish'].filter(hasShell);
    if (shells.length === 0) {
      console.log('      (skipped: neither zsh nor fish is installed)');
      this.skip();
    }
    for (const shell of shells) {
      const args =
        shell === 'zsh'
          ? ['-n', '-c', await script(shell)]
          : ['--no-execute', '-c', await script(shell)];
      const r = spawnSync(shell, args, { encoding: 'utf8' });
      assert.equal(r.status, 0, `${shell}: ${r.stderr}`);
    }
  });

  it('completes in fish as in bash', async function () {
    if (!hasShell('fish')) {
      console.log('      (skipped: fish is not installed)');
      this.skip();
    }
    const source = await script('fish');
    const complete = (line: string) => {
      const r = spawnSync('fish', ['--no-config', '-c', `${source}\ncomplete -C'${line}'`], {
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout
        .split('\n')
        .filter((w) => w !== '')
        .map((w) => w.split('\t')[0]);
    };
    assert.deepEqual(complete('hostlens qu'), ['query']);
    assert.deepEqual(complete('hostlens query --types C'), ['CAA', 'CNAME']);
    assert.deepEqual(complete('hostlens query example.com AA'), ['AAAA']);
    assert.ok(complete('hostlens spf-check --').includes('--ip'));
  });

  it('refuses a shell it does not know', async () => {
    for (const args of [
      ['completion'],
      ['completion', 'powershell'],
      ['completion', 'bash', 'zsh'],
    ]) {
      const r = await runCli(args);
      assert.equal(r.code, 2);
      assert.equal((JSON.parse(r.stderr) as { code: string }).code, 'invalid_argument');
    }
  });
});
