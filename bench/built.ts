/**
 * `tsx bench/built.ts bench/<script>.ts`: runs a bench script on the engine as the page's build ships
 * it. Vite bundles the script the way `npm run build` bundles the engine's Web Worker (Rolldown, target
 * es2022, minified, names not kept), into node_modules/.cache/lab-bench/, and plain Node runs the
 * result; the script's own imports from node_modules stay imports.
 *
 * Why: tsx, which `lab` and the other bench scripts run under, compiles with esbuild's `keepNames`, so
 * every named function or class made at run time also calls a `__name` helper, and every module's
 * exports are read through a namespace. The student's explorer runs in the page's worker, built without
 * either: timed under tsx, the explorer read about a fifth slower than the code the page runs.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { build } from 'vite';

const script = process.argv[2];
if (script === undefined) {
  console.error('usage: tsx bench/built.ts bench/<script>.ts');
  process.exit(2);
}
const outDir = resolve('node_modules/.cache/lab-bench');
mkdirSync(outDir, { recursive: true });
const name = basename(script).replace(/\.ts$/, '');
await build({
  configFile: false,
  logLevel: 'warn',
  publicDir: false,
  build: {
    ssr: resolve(script),
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    rolldownOptions: { output: { format: 'es', entryFileNames: '[name].mjs' } },
  },
});
console.log(`${script}: built by Vite as the page's engine worker is (minified, es2022), run by Node`);
const run = spawnSync(process.execPath, [join(outDir, `${name}.mjs`)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
