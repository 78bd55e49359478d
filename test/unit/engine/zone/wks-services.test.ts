// WKS service names (RFC 1035 section 3.4.2). BIND reads them with getservbyname, so their
// meaning is the loading server's services file; HostLens reads them from a table of the names
// common to servers' files (services.ts). Every name of the table, for TCP and for UDP, goes
// through named-checkzone and named-compilezone on this machine: where its services file is
// Debian's netbase, the two agree on every line (the same ports, the same refusals); a machine
// with another file is named, and the names it reads otherwise are listed, not failed.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseRdata } from '../../../../src/engine/dns/rdata/text';
import { serviceNames } from '../../../../src/engine/dns/rdata/services';
import { tokenizeLine } from '../../../../src/engine/zone/lexer';
import { describeTool, needTools } from '../../../support/reference-tools';

const ORIGIN = 'example.';
const HEAD = [
  `$ORIGIN ${ORIGIN}`,
  '$TTL 300',
  '@ SOA ns hm 1 2 3 4 5',
  '@ NS ns',
  'ns A 192.0.2.1',
];

function ours(data: string): string {
  const parsed = parseRdata('WKS', tokenizeLine(data).tokens, ORIGIN);
  return 'code' in parsed ? `error ${parsed.code}` : parsed.data;
}

describe('engine/zone WKS service names', () => {
  it('reads names in any case, aliases, per protocol; refuses an unknown one, saying why', () => {
    assert.equal(ours('192.0.2.1 tcp SMTP www mail'), '192.0.2.1 6 25 80');
    assert.equal(ours('192.0.2.1 udp domain sink'), '192.0.2.1 17 9 53');
    assert.equal(ours('192.0.2.1 tcp syslog'), '192.0.2.1 6 514');
    // a name is its protocol's: FTP is TCP's only, 21/udp is fsp
    assert.equal(ours('192.0.2.1 udp ftp'), 'error bad-wks');
    assert.equal(ours('192.0.2.1 udp fsp'), '192.0.2.1 17 21');
    // under another protocol, either transport's name (BIND asks both)
    assert.equal(ours('192.0.2.1 1 smtp'), '192.0.2.1 1 25');
    const parsed = parseRdata('WKS', tokenizeLine('192.0.2.1 tcp nosuch').tokens, ORIGIN);
    assert.ok('code' in parsed);
    assert.match(parsed.message, /unknown service "nosuch" for TCP.*write the port number/);
  });

  it("gives BIND's port or refusal for every name of the table, on TCP and UDP", async function () {
    const tools = needTools(this, 'named-checkzone', 'named-compilezone');
    const cases: { line: number; data: string }[] = [];
    for (const name of serviceNames().keys()) {
      for (const protocol of ['tcp', 'udp']) {
        cases.push({ line: HEAD.length + cases.length + 1, data: `192.0.2.1 ${protocol} ${name}` });
      }
    }
    const dir = mkdtempSync(join(tmpdir(), 'hostlens-wks-'));
    try {
      const file = join(dir, 'wks.zone');
      const text = [...HEAD, ...cases.map((c, i) => `s${i} WKS ${c.data}`)].join('\n');
      writeFileSync(file, `${text}\n`);
      const run = promisify(execFile);
      const checked = await run(tools['named-checkzone'].path, ['-i', 'none', ORIGIN, file]).catch(
        (err: { stdout: string }) => ({ stdout: err.stdout }),
      );
      const refused = new Set(
        [...checked.stdout.matchAll(/wks\.zone:(\d+): .*unknown service/g)].map((m) =>
          Number(m[1]),
        ),
      );
      // the lines BIND loads, printed
      const good = join(dir, 'good.zone');
      const loaded = cases.filter((c) => !refused.has(c.line));
      writeFileSync(
        good,
        `${[...HEAD, ...loaded.map((c) => `s${c.line} WKS ${c.data}`)].join('\n')}\n`,
      );
      const { stdout } = await run(tools['named-compilezone'].path, [
        ...['-i', 'none', '-s', 'full', '-o', '-', ORIGIN, good],
      ]);
      const bindData = new Map<number, string>();
      for (const m of stdout.matchAll(/^s(\d+)\.example\.\s+\d+\s+IN\s+WKS\s+(.*)$/gm)) {
        bindData.set(Number(m[1]), m[2].replace(/\s+/g, ' '));
      }
      const differ: string[] = [];
      for (const c of cases) {
        const theirs = refused.has(c.line) ? 'error bad-wks' : bindData.get(c.line);
        const mine = ours(c.data);
        if (mine !== theirs) differ.push(`${c.data}: BIND ${theirs}, HostLens ${mine}`);
      }
      const services = existsSync('/etc/services') ? readFileSync('/etc/services', 'utf8') : '';
      // netbase's file (Debian, Ubuntu) starts its services with this line
      const netbase = services.includes('tcpmux\t\t1/tcp');
      console.log(
        `    WKS names: HostLens gives BIND's reading on ${cases.length - differ.length} of ${cases.length} ` +
          `(${serviceNames().size} names x TCP, UDP; BIND refuses ${refused.size}); ` +
          `${describeTool(tools['named-compilezone'], '-s full')}`,
      );
      if (netbase) assert.deepEqual(differ.slice(0, 10), []);
      else {
        // another system's services file: its differences are its own, listed
        console.log(`    this machine's services file is not netbase's; differences:`);
        for (const d of differ.slice(0, 10)) console.log(`      ${d}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
