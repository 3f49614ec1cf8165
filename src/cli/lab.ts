import { main } from './main';
import { endQuietlyOnClosedPipe } from './safeOutput';

/** Entry point of `npm run lab`: kept apart from main.ts so tests can call main() in-process. */
endQuietlyOnClosedPipe(process.stdout);
process.exitCode = await main(process.argv.slice(2));
