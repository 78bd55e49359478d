// Runs the openspf RFC 7208 test suite (../shared/corpus/spf-rfc7208) against checkHost, each
// scenario's zone served by the loopback DNS fixture. Shared by the unit test and the bench.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadAll } from 'js-yaml';
import { checkHost, type SpfResult } from '../../src/engine/mail/spf-check';
import { startDnsServer, type FixtureRecord } from './dns-server';

export const SUITE_PATH = resolve(
  __dirname,
  '../../../shared/corpus/spf-rfc7208/test/rfc7208-tests.yml',
);

export interface SuiteTest {
  scenario: string;
  name: string;
  helo: string;
  host: string;
  mailfrom: string;
  /** acceptable results */
  results: SpfResult[];
  explanation?: string;
}

export interface SuiteScenario {
  description: string;
  tests: SuiteTest[];
  zonedata: Record<string, unknown[]>;
}

export interface SuiteOutcome {
  test: SuiteTest;
  ok: boolean;
  got: string;
  explanation?: string;
}

export function suiteAvailable(): boolean {
  return existsSync(SUITE_PATH);
}

interface RawTest {
  helo: string;
  host: string;
  mailfrom: string;
  result: string | string[];
  explanation?: string;
}

export function loadSuite(): SuiteScenario[] {
  const docs = loadAll(readFileSync(SUITE_PATH, 'utf8')) as Array<{
    description: string;
    tests: Record<string, RawTest>;
    zonedata?: Record<string, unknown[]>;
  }>;
  return docs
    .filter((d) => d && typeof d === 'object')
    .map((d) => ({
      description: d.description,
      zonedata: d.zonedata ?? {},
      tests: Object.entries(d.tests).map(([name, t]) => ({
        scenario: d.description,
        name,
        helo: String(t.helo),
        host: String(t.host),
        mailfrom: String(t.mailfrom ?? ''),
        results: (Array.isArray(t.result) ? t.result : [t.result]) as SpfResult[],
        ...(t.explanation !== undefined ? { explanation: String(t.explanation) } : {}),
      })),
    }));
}

/**
 * The suite's zone conventions: SPF (type 99) entries stand in for TXT when a name has no TXT
 * entry of its own (TXT: NONE included); NONE means no record of that type; TIMEOUT means the
 * server stays silent for every type that has no record at that name.
 */
export function zoneFor(zonedata: Record<string, unknown[]>): {
  records: FixtureRecord[];
  silent: (name: string, type: string) => boolean;
} {
  const records: FixtureRecord[] = [];
  const timeouts = new Map<string, Set<string>>();
  for (const [name, entries] of Object.entries(zonedata)) {
    const hasTxt = entries.some((e) => typeof e === 'object' && e !== null && 'TXT' in e);
    const types = new Set<string>();
    let timeout = false;
    for (const entry of entries) {
      if (entry === 'TIMEOUT') {
        timeout = true;
        continue;
      }
      for (const [rawType, value] of Object.entries(entry as Record<string, unknown>)) {
        const type = rawType === 'SPF' ? (hasTxt ? undefined : 'TXT') : rawType;
        if (type === undefined || value === 'NONE') continue;
        types.add(type);
        records.push({ name, type, data: fixtureData(type, value) });
      }
    }
    if (timeout) timeouts.set(name.toLowerCase(), types);
  }
  return {
    records,
    silent: (name, type) => {
      const types = timeouts.get(name.toLowerCase().replace(/\.$/, ''));
      return types !== undefined && !types.has(type.toUpperCase());
    },
  };
}

function fixtureData(type: string, value: unknown): unknown {
  switch (type) {
    case 'TXT': {
      const parts = (Array.isArray(value) ? value : [value]).map(String);
      // A TXT RR holds at least one character-string; the suite's "[ ]" becomes one empty one.
      return parts.length === 0 ? [''] : parts;
    }
    case 'MX': {
      const [preference, exchange] = value as [number, string];
      return { preference, exchange };
    }
    default:
      return String(value);
  }
}

/** Runs one scenario against its own fixture server. */
export async function runScenario(
  scenario: SuiteScenario,
  // Only TIMEOUT names wait this long, and a scenario's tests run in parallel; a tighter bound
  // turns a loopback answer delayed by a loaded machine into a spurious temperror.
  timeoutMs = 1500,
): Promise<SuiteOutcome[]> {
  const zone = zoneFor(scenario.zonedata);
  const server = await startDnsServer({
    records: zone.records,
    behaviour: (q) => (zone.silent(q.name, q.type) ? 'timeout' : undefined),
  });
  try {
    return await Promise.all(
      scenario.tests.map(async (test): Promise<SuiteOutcome> => {
        const at = test.mailfrom.lastIndexOf('@');
        const domain = test.mailfrom === '' ? test.helo : test.mailfrom.slice(at + 1);
        const res = await checkHost(
          { ip: test.host, domain, sender: test.mailfrom, helo: test.helo, server: server.address },
          { timeoutMs, tries: 1, receiver: 'unknown' },
        );
        let ok = test.results.includes(res.result);
        // "DEFAULT" is the implementation's own text; ours is no explanation at all. The
        // suite writes %{ir} nibbles in upper case where RFC 7208 section 7.4 uses lower.
        if (ok && test.explanation !== undefined && res.result === 'fail') {
          ok =
            test.explanation === 'DEFAULT'
              ? res.explanation === undefined
              : res.explanation?.toLowerCase() === test.explanation.toLowerCase();
        }
        return {
          test,
          ok,
          got: res.reason ? `${res.result} (${res.reason})` : res.result,
          ...(res.explanation !== undefined ? { explanation: res.explanation } : {}),
        };
      }),
    );
  } finally {
    await server.close();
  }
}
