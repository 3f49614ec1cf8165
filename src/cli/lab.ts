import { main } from './main';

/** Entry point of `npm run lab`: kept apart from main.ts so tests can call main() in-process. */
process.exitCode = await main(process.argv.slice(2));
