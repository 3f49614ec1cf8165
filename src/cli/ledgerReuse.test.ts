// Proves a --ledger file can be used again and again by the task scenarios, alone and mixed with each other:
// each run adds its own durable task, keeps every earlier one, and ends as it does on a new file.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LedgerFile } from '../engine';
import { lab } from './captured';
import { loadSqlJs } from './sqlite';

async function taskIds(path: string): Promise<string[]> {
  const file = LedgerFile.open(await loadSqlJs(), new Uint8Array(readFileSync(path)));
  try {
    return file.query('SELECT task_id FROM tasks ORDER BY rowid').map((row) => String(row.task_id));
  } finally {
    file.close();
  }
}

describe('task scenarios on the same ledger file', () => {
  it('run twice, then across scenarios: every run completes and keeps the tasks before it', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'lab-tasks-')), 't.sqlite');
    const outcomes: unknown[] = [];
    for (const id of ['task-cancel-ack', 'task-cancel-ack', 'task-cancel-too-late', 'task-http-close']) {
      const r = await lab('run', id, '--ledger', path, '--json');
      expect(r, `${id}: ${r.err}`).toMatchObject({ code: 0, err: '' });
      outcomes.push((JSON.parse(r.out) as { outcome: { taskStatus: string } }).outcome.taskStatus);
    }
    expect(await taskIds(path)).toEqual(['task-7f3a', 'task-7f3a-2', 'task-7f3a-3', 'task-7f3a-4']);
    const fresh = await lab('run', 'task-cancel-ack', '--json');
    expect(outcomes[1]).toBe((JSON.parse(fresh.out) as { outcome: { taskStatus: string } }).outcome.taskStatus);
  });
});
