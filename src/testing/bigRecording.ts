import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A big `lab probe --json` transcript for the bench, the tests and the end-to-end test: the real
 * recording e2e/fixtures/probe-everything-stdio.json with short notes added before it (at 0 ms, a
 * probe "x" of their own) until it holds `events` events, compact, one event a line, as the probe
 * writes them: about 60 bytes an added event, so 400,000 events take 24.3 MB, under the page's 24 MiB.
 */
const FIXTURE = fileURLToPath(new URL('../../e2e/fixtures/probe-everything-stdio.json', import.meta.url));

export function bigRecordingText(events: number): string {
  const base = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { events: Array<Record<string, unknown>> };
  const added = Math.max(0, events - base.events.length);
  const lines: string[] = [];
  for (let i = 0; i < added; i++) lines.push(JSON.stringify({ seq: i, atMs: 0, probe: 'x', kind: 'note', text: '' }));
  for (const event of base.events) lines.push(JSON.stringify({ ...event, seq: lines.length }));
  const { events: _events, ...rest } = base;
  return JSON.stringify(rest).replace(/}$/, `,"events":[\n${lines.join(',\n')}\n]}`);
}

export function bigRecordingBytes(events: number): Uint8Array {
  return new TextEncoder().encode(bigRecordingText(events));
}
