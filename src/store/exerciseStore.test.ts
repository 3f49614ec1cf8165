// Proves the Exercises tab's store: it opens the remembered exercise with the code kept for it (the
// starter when none was), keeps every edit, refuses a file that is not a module without touching the
// code, resets to the starter with an Undo, and asks the worker to replay a broken statement's ordering
// with the code that was checked (not what the editor holds since).
import { describe, expect, it } from 'vitest';
import type { CheckReport } from '../exercise/types';
import type { ToolCall, ToolsClient } from '../worker/toolsClient';
import {
  codeKey,
  createExerciseStore,
  readStudentFile,
  SELECTED_KEY,
  type CodeStorage,
  type ExerciseListing,
} from './exerciseStore';

const LISTING: ExerciseListing[] = [
  {
    id: 'first',
    title: 'First',
    summary: 'one',
    exports: ['make'],
    statements: [{ id: 'ok', text: 'It is fine.', requirements: ['R-1'] }],
    starter: '// first starter\n',
  },
  {
    id: 'second',
    title: 'Second',
    summary: 'two',
    exports: ['make'],
    statements: [{ id: 'bounded', text: 'It is bounded.', requirements: ['R-2'] }],
    starter: '// second starter\n',
  },
];

const REPORT: CheckReport = {
  exercise: 'second',
  statements: [
    {
      id: 'bounded',
      holds: false,
      explanation: 'too many',
      failing: {
        scenario: 'buffer-overload',
        transport: 'http',
        settings: { capacity: 1 },
        schedule: '0.1',
        step: 6,
        atMs: 10,
        events: 7,
      },
      calls: [{ atMs: 10, call: 'offer(1)', returned: '"queued"' }],
    },
  ],
  orderings: 12,
  states: 30,
  elapsedMs: 40,
  complete: true,
  passed: false,
};

function fakes(stored: Record<string, string> = {}, report: CheckReport = REPORT) {
  const calls: ToolCall[] = [];
  const kept = new Map(Object.entries(stored));
  const storage: CodeStorage = {
    load: (key) => Promise.resolve(kept.get(key) ?? null),
    save: (key, value) => {
      kept.set(key, value);
      return Promise.resolve();
    },
  };
  const client = {
    call(call: ToolCall) {
      calls.push(call);
      if (call.type === 'exercises')
        return Promise.resolve({ type: 'exercise-list', requestId: 1, exercises: LISTING });
      if (call.type === 'exercise-check') return Promise.resolve({ type: 'exercise-report', requestId: 2, report });
      if (call.type === 'exercise-run')
        return Promise.resolve({
          type: 'exercise-transcript',
          requestId: 3,
          transcript: null,
          wording: [],
          calls: [],
          failure: 'offer() threw',
        });
      return Promise.reject(new Error(`unexpected ${call.type}`));
    },
  } as ToolsClient;
  return { calls, kept, store: createExerciseStore(client, storage) };
}

const file = (name: string, bytes: Uint8Array) => ({
  name,
  size: bytes.length,
  arrayBuffer: () => Promise.resolve(bytes.slice().buffer),
});

describe('the Exercises store', () => {
  it('opens the remembered exercise with its kept code, and the starter for one never edited', async () => {
    const { store } = fakes({ [SELECTED_KEY]: 'second', [codeKey('second')]: '// mine\n' });
    await store.getState().load();
    expect(store.getState().selected).toBe('second');
    expect(store.getState().code.second).toBe('// mine\n');
    await store.getState().select('first');
    expect(store.getState().code.first).toBe('// first starter\n');
  });

  it('keeps every edit, refuses a binary upload with the code kept, and resets with an Undo', async () => {
    const { store, kept } = fakes();
    await store.getState().load();
    store.getState().setCode('// edited\n');
    expect(kept.get(codeKey('first'))).toBe('// edited\n');
    await store.getState().upload(file('photo.png', new Uint8Array([0x89, 0x50, 0xff, 0xfe, 0x00])));
    expect(store.getState().uploadError).toMatch(/photo\.png is not a text file.*unchanged/);
    expect(store.getState().code.first).toBe('// edited\n');
    await store.getState().upload(file('mine.js', new TextEncoder().encode('\uFEFFexport function make() {}\n')));
    expect(store.getState().code.first).toBe('export function make() {}\n');
    expect(store.getState().uploadError).toBeNull();
    store.getState().resetToStarter();
    expect(store.getState().code.first).toBe('// first starter\n');
    expect(kept.get(codeKey('first'))).toBe('// first starter\n');
    store.getState().undoReset();
    expect(store.getState().code.first).toBe('export function make() {}\n');
    expect(store.getState().beforeReset).toBeNull();
  });

  it('replays a broken statement with the code that was checked, and shows why the run stopped', async () => {
    const { store, calls } = fakes({ [SELECTED_KEY]: 'second' });
    await store.getState().load();
    store.getState().setCode('// checked\n');
    await store.getState().runCheck();
    expect(store.getState().check).toMatchObject({ status: 'done', value: { passed: false } });
    expect(store.getState().checksSettled).toBe(1);
    store.getState().setCode('// typed after the check\n');
    await store.getState().openFailing('bounded');
    const replay = calls.find((call) => call.type === 'exercise-run');
    expect(replay).toMatchObject({
      exercise: 'second',
      code: '// checked\n',
      run: { scenario: 'buffer-overload', schedule: '0.1', settings: { capacity: 1 } },
    });
    expect(store.getState().opened).toMatchObject({
      statement: 'bounded',
      calls: [{ call: 'offer(1)' }],
      run: { status: 'done', value: { failure: 'offer() threw' } },
    });
  });

  it('opens the first broken statement’s failing ordering as the Check answers, and none when the code failed or all hold', async () => {
    const held = { ...REPORT.statements[0]!, id: 'held', holds: true, failing: undefined, explanation: undefined };
    const second = { ...REPORT.statements[0]!, id: 'second-broken' };
    const { store, calls } = fakes(
      { [SELECTED_KEY]: 'second' },
      { ...REPORT, statements: [held, REPORT.statements[0]!, second] },
    );
    await store.getState().load();
    store.getState().setCode('// checked\n');
    await store.getState().runCheck();
    expect(store.getState().opened).toMatchObject({ statement: 'bounded', run: { status: 'done' } });
    expect(calls.filter((call) => call.type === 'exercise-run')).toMatchObject([{ code: '// checked\n' }]);

    const failed = fakes(
      { [SELECTED_KEY]: 'second' },
      { ...REPORT, error: { kind: 'budget', message: 'over budget' } },
    );
    await failed.store.getState().load();
    await failed.store.getState().runCheck();
    expect(failed.store.getState().check).toMatchObject({ status: 'done' });
    expect(failed.store.getState().opened).toBeNull();

    const passed = fakes({ [SELECTED_KEY]: 'second' }, { ...REPORT, passed: true, statements: [held] });
    await passed.store.getState().load();
    await passed.store.getState().runCheck();
    expect(passed.store.getState().opened).toBeNull();
    expect(passed.calls.some((call) => call.type === 'exercise-run')).toBe(false);
  });

  it('reads a file as a module only when it is UTF-8 text within the size', () => {
    expect(readStudentFile('a.js', new TextEncoder().encode('export function f() {}'))).toEqual({
      ok: true,
      text: 'export function f() {}',
    });
    expect(readStudentFile('empty.js', new TextEncoder().encode('  \n'))).toMatchObject({
      ok: false,
      problem: 'empty.js is empty',
    });
    expect(readStudentFile('big.js', new Uint8Array(1_000_000).fill(0x61))).toMatchObject({ ok: false });
  });
});
