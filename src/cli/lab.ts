import { durationNote, main } from './main';
import { endQuietlyOnClosedPipe } from './safeOutput';

/** Entry point of `npm run lab`: kept apart from main.ts so tests can call main() in-process. */
endQuietlyOnClosedPipe(process.stdout);
// A long command ends by saying how long it ran, on stderr: piped output stays the result alone, and a
// log shows where the time went.
const startedMs = performance.now();
process.exitCode = await main(process.argv.slice(2));
const note = durationNote(process.argv[2], performance.now() - startedMs);
if (note !== null) process.stderr.write(note);
