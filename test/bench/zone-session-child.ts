// Bundled and run by zone-memory.bench.ts as a process of its own: a zone file opened as the
// editor opens it (a ZoneSession), its problems listed, one line edited in the middle and the
// problems listed again, then what the editor's features ask of it (code lens, folding, and at
// the edited line hover, definition and references). Exit 0 when the zone has no error, so a
// failure is never measured.
import { readFileSync } from 'node:fs';
import { ZoneSession } from '../../src/services/zone';

const [file, origin] = process.argv.slice(2);
const session = new ZoneSession(readFileSync(file, 'utf8'), { origin, file });
const before = session.problems();
const middle = Math.floor(session.document.lineCount / 2);
session.edit(middle, middle, 'edited 300 A 192.0.2.1');
const after = session.problems();
const key = session.recordsOnLines(middle, middle)[0]?.key ?? origin;
const asked = [
  session.recordsOfTypes('SOA'),
  session.multiLineRecords(),
  session.recordsAt(key),
  session.recordsPointingAt(key),
];
const errors = [...before, ...after].filter((p) => p.severity === 'error');
process.exitCode = errors.length === 0 && asked[0].length === 1 ? 0 : 1;
