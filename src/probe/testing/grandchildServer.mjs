// A stdio "server" that never answers and starts a grandchild holding its stdio (issue 37, 2):
// `sleep 40` inherits stdin, stdout and stderr, so the probe's pipes stay open after the server ends.
// It says the grandchild's pid on stderr, for the test to check it is gone. Ends itself after 60 s at most.
import { spawn } from 'node:child_process';

const grandchild = spawn('sleep', ['40'], { stdio: 'inherit' });
process.stderr.write(`grandchild pid ${grandchild.pid}\n`);
setInterval(() => {}, 1000);
setTimeout(() => process.exit(0), 60_000);
