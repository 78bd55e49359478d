// The layer rules of architecture.md bite: eslint refuses a file that breaks one, and lets
// the same import through where the layers allow it. Files are linted as text under the path
// they would have, with the project's own config.
import assert from 'node:assert/strict';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

const root = path.resolve(__dirname, '..', '..', '..');

async function layerErrors(file: string, source: string): Promise<string[]> {
  // The probe files do not exist, so the type-aware rules (which need the file in a program)
  // are off; the import rules under test need no types.
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: [
      tseslint.configs.disableTypeChecked,
      { languageOptions: { parserOptions: { projectService: false, project: null } } },
    ],
  });
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  const messages = result?.messages ?? [];
  const fatal = messages.find((m) => m.fatal);
  if (fatal) throw new Error(`eslint could not lint ${file}: ${fatal.message}`);
  return messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const CASES: Array<{ file: string; source: string; refused: boolean }> = [
  // engine/ never imports services/ (nor the editor)
  {
    file: 'src/engine/dns/probe.ts',
    source: "import type { Services } from '../../services/embedded';\nexport type X = Services;\n",
    refused: true,
  },
  {
    file: 'src/engine/probe.ts',
    source: "import type { X } from '../editor/deps';\nexport type Y = X;\n",
    refused: true,
  },
  {
    file: 'src/engine/dns/probe.ts',
    source:
      "import type { QueryResult } from '../../contract/shapes';\nexport type X = QueryResult;\n",
    refused: false,
  },
  // code that imports vscode (the editor) never imports engine/
  {
    file: 'src/editor/commands/probe.ts',
    source:
      "import * as vscode from 'vscode';\nimport { query } from '../../engine/dns/query';\nexport const x = [vscode, query];\n",
    refused: true,
  },
  {
    file: 'src/editor/commands/probe.ts',
    source:
      "import * as vscode from 'vscode';\nimport { mailSetup } from '../../services/mail';\nexport const x = [vscode, mailSetup];\n",
    refused: false,
  },
  // only the editor imports vscode
  {
    file: 'src/services/probe.ts',
    source: "import * as vscode from 'vscode';\nexport const x = vscode;\n",
    refused: true,
  },
  // the contract imports nothing of ours
  {
    file: 'src/contract/probe.ts',
    source: "import { normalizeHost } from '../engine/names';\nexport const x = normalizeHost;\n",
    refused: true,
  },
  // the webview imports the protocol types and the shared status meanings, nothing else
  {
    file: 'src/webview/probe.ts',
    source: "import { statusMeaning } from '../contract/epp';\nexport const x = statusMeaning;\n",
    refused: false,
  },
  {
    file: 'src/webview/probe.ts',
    source: "import { LookupError } from '../contract/errors';\nexport const x = LookupError;\n",
    refused: true,
  },
  // the server speaks services, not the engine
  {
    file: 'src/server/probe.ts',
    source: "import { query } from '../engine/dns/query';\nexport const x = query;\n",
    refused: true,
  },
  // inside engine/ imports point down: names.ts and guard.ts, dns/, mail/, zone/, whois/, web/
  ...engineOrder(),
];

/** Each engine folder against every other, and the bottom files against all of them. */
function engineOrder(): Array<{ file: string; source: string; refused: boolean }> {
  const order = ['dns', 'mail', 'zone', 'whois', 'web'];
  const cases = order.flatMap((from, i) =>
    order
      .filter((to) => to !== from)
      .flatMap((to) => [
        {
          file: `src/engine/${from}/probe.ts`,
          source: `import { x } from '../${to}/probe2';\nexport const y = x;\n`,
          refused: order.indexOf(to) > i,
        },
        // deeper files too (dns/dnssec/, dns/rdata/)
        {
          file: `src/engine/${from}/sub/probe.ts`,
          source: `import { x } from '../../${to}/probe2';\nexport const y = x;\n`,
          refused: order.indexOf(to) > i,
        },
      ]),
  );
  for (const to of order) {
    cases.push({
      file: 'src/engine/probe.ts',
      source: `import { x } from './${to}/probe2';\nexport const y = x;\n`,
      refused: true,
    });
  }
  for (const bottom of ['names', 'guard']) {
    cases.push({
      file: 'src/engine/web/probe.ts',
      source: `import { x } from '../${bottom}';\nexport const y = x;\n`,
      refused: false,
    });
    cases.push({
      file: 'src/engine/dns/rdata/probe.ts',
      source: `import { x } from '../../../${bottom}';\nexport const y = x;\n`,
      refused: false,
    });
  }
  // the engine order does not loosen the layers: engine/ still never imports services/
  cases.push({
    file: 'src/engine/web/probe.ts',
    source: "import { x } from '../../services/embedded';\nexport const y = x;\n",
    refused: true,
  });
  return cases;
}

describe('lint: the layers of architecture.md and the order inside engine/', function () {
  this.timeout(120_000);
  for (const c of CASES) {
    const verdict = c.refused ? 'refuses' : 'allows';
    const lines = c.source.split('\n');
    const shown = lines.find((l) => /from '\.\.?\//.test(l)) ?? lines[0];
    it(`${verdict} ${shown} in ${c.file}`, async () => {
      const errors = await layerErrors(c.file, c.source);
      if (c.refused) assert.ok(errors.length > 0, 'eslint let a layer break through');
      else assert.deepEqual(errors, []);
    });
  }
});
