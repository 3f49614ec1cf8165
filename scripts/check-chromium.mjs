// Before the end-to-end tests: find the Chromium that Playwright will drive, or say exactly how to get one.
// Playwright cannot download its own browser on this network, so the lab uses the system's Chromium.
import { accessSync, constants } from 'node:fs';

// The same lookup playwright.config.ts uses: $CHROMIUM_PATH, else Debian's /usr/bin/chromium.
const candidates = [process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'];
const found = candidates.find((path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
});

if (found === undefined) {
  console.error(`No Chromium found (looked at: ${candidates.join(', ')}).
The end-to-end tests drive a system Chromium. Get one with either:
  sudo apt-get update && sudo apt-get install -y chromium      (Debian/Ubuntu)
  export CHROMIUM_PATH=/path/to/chromium-or-chrome             (any other install)
then run npm test again.`);
  process.exit(1);
}
console.log(`e2e: using Chromium at ${found}`);
