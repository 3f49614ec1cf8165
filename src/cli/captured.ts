import { main } from './main';

/**
 * Runs the command line in-process with its output captured: what the CLI tests call. A throw out of
 * main() is what would reach a user as a raw stack trace, so it is reported as exit -1 with THREW.
 */
export async function lab(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  let code: number;
  try {
    code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
  } catch (error) {
    code = -1;
    err += `THREW ${String(error)}`;
  }
  return { code, out, err };
}
