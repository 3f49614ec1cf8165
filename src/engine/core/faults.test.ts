// Proves message faults: each kind does what it names to exactly the message its seq names,
// the transcript records them (on the run and on the message), the same faults replay the same bytes, and
// a fault that names no message, or is malformed, is refused with LAB023. A crash after COMMIT loses the response
// and restarts the server from its SQLite file: a retry with the same key gets the stored result.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../../cli/sqlite';
import { findScenario } from '../../scenarios/index';
import {
  formatFaults,
  parseFaults,
  runScenario,
  withFault,
  type MessageEvent,
  type SqlModule,
  type Transcript,
} from '../index';

const C = findScenario('C');
/** In C on stdio, message 7 is the first progress notification (sent at 405 ms, arriving at 410 ms). */
const PROGRESS = 7;

const messages = (t: Transcript) => t.events.filter((event): event is MessageEvent => event.kind === 'message');

describe('message faults', () => {
  it('drop: the message is lost, nothing else is', () => {
    const t = runScenario(C, { faults: parseFaults(`drop:${PROGRESS}`) });
    const lost = messages(t).filter((m) => m.lost === true);
    expect(lost.map((m) => m.seq)).toEqual([PROGRESS]);
    expect(lost[0]?.fault).toBe(`drop:${PROGRESS}`);
    expect(t.faults).toBe(`drop:${PROGRESS}`);
    // Without its progress the idle deadline wins.
    expect(t.kind === 'request-race' && t.outcome.terminalState).toBe('timeout-idle');
  });
  it('delay: it arrives that much later and its channel stays in order', () => {
    const plain = runScenario(C);
    const delayed = runScenario(C, { faults: parseFaults(`delay:${PROGRESS}:300`) });
    const before = messages(plain).find((m) => m.seq === PROGRESS);
    const after = messages(delayed).find((m) => m.seq === PROGRESS);
    expect(after?.arrivesAtMs).toBe((before?.arrivesAtMs ?? 0) + 300);
  });
  it('duplicate: a second copy follows on the same channel, marked as the network’s', () => {
    const t = runScenario(C, { faults: parseFaults(`duplicate:${PROGRESS}`) });
    const copy = messages(t).find((m) => m.duplicateOf === PROGRESS);
    expect(copy?.seq).toBe(PROGRESS + 1);
    expect(copy?.channel).toBe('stdio');
    expect(copy?.message).toEqual(messages(t).find((m) => m.seq === PROGRESS)?.message);
    expect(
      t.events.filter(
        (event) => event.kind === 'delivered' && (event.messageSeq === PROGRESS || event.messageSeq === copy?.seq),
      ),
    ).toHaveLength(2);
  });
  it('stream-drop: the message and everything after it on its channel is lost', () => {
    const t = runScenario(C, { faults: parseFaults(`stream-drop:${PROGRESS}`) });
    const fromServer = messages(t).filter((m) => m.from === 'server');
    expect(fromServer.length).toBeGreaterThan(0);
    expect(fromServer.every((m) => m.lost === true)).toBe(true);
    expect(messages(t).filter((m) => m.from === 'client' && m.lost === true)).toEqual([]);
  });
  it('the same faults replay byte for byte; without faults the transcript has no faults field', () => {
    // A fault names its message in the run with the faults before it applied: after duplicate:1 (the server
    // ignores the copy of tools/call), the first progress is 9.
    const options = { faults: parseFaults(`duplicate:1,delay:9:300`) };
    expect(messages(runScenario(C, options)).find((m) => m.seq === 9)?.fault).toBe('delay:9:300');
    expect(JSON.stringify(runScenario(C, options))).toBe(JSON.stringify(runScenario(C, options)));
    expect('faults' in runScenario(C)).toBe(false);
  });
  it('refuses a fault that names no message, and a malformed one (LAB023)', () => {
    expect(() => runScenario(C, { faults: parseFaults('drop:8') })).toThrow(
      /LAB023.*drop:8: no message of this run has that seq/,
    );
    expect(() => parseFaults('drop')).toThrow(/LAB023/);
    expect(() => parseFaults('delay:3')).toThrow(/LAB023/);
    expect(() => parseFaults('drop:3,duplicate:3')).toThrow(/one fault per message/);
    expect(parseFaults('duplicate:9,delay:4:10')).toEqual([
      { kind: 'delay', seq: 4, ms: 10 },
      { kind: 'duplicate', seq: 9 },
    ]);
  });
  it('one grammar both ways: format gives back what parse read, in seq order, and a new fault replaces the one on its message', () => {
    const text = 'crash:2,delay:4:10,duplicate:9,stream-drop:11';
    expect(formatFaults(parseFaults(text))).toBe(text);
    expect(formatFaults(parseFaults(' duplicate:9 , delay:4:10'))).toBe('delay:4:10,duplicate:9');
    expect(formatFaults(withFault(parseFaults('drop:3,duplicate:9'), { kind: 'delay', seq: 3, ms: 500 }))).toBe(
      'delay:3:500,duplicate:9',
    );
    expect(formatFaults(withFault(parseFaults('duplicate:9'), { kind: 'drop', seq: 1 }))).toBe('drop:1,duplicate:9');
    expect(formatFaults([])).toBe('');
  });
});

describe('crash after COMMIT (ledger)', () => {
  let sql: SqlModule;
  beforeAll(async () => {
    sql = await loadSqlJs();
  });
  const ledgerRun = (settings: Record<string, unknown>) =>
    runScenario(findScenario('ledger-keyed-retry'), {
      settings: { loseFirstResponse: false, ...settings },
      faults: parseFaults('crash:10'),
      ledger: { sql },
    });

  it('the response is lost, the server restarts from its SQLite file, and the retry with the same key gets the stored result', () => {
    const t = ledgerRun({});
    expect(t.faults).toBe('crash:10');
    const response = t.events[10] as MessageEvent;
    expect(response.kind === 'message' && response.lost).toBe(true);
    expect(response.reason).toMatch(/crashed after COMMIT/);
    expect(
      t.events.some(
        (event) => event.kind === 'ledger' && event.action === 'reopened' && /survived the crash/.test(event.detail),
      ),
    ).toBe(true);
    expect(t.kind === 'ledger' && [t.outcome.executions, t.outcome.replayed]).toEqual([1, 1]);
  });
  it('a per-replica in-memory ledger forgets the commit: the retry charges again', () => {
    const t = ledgerRun({ ledgerStore: 'per-replica-memory' });
    expect(t.kind === 'ledger' && [t.outcome.executions, t.outcome.replayed]).toEqual([2, 0]);
  });
  it('is refused where the server keeps no file, and on a message that is not a response (LAB023)', () => {
    expect(() => runScenario(findScenario('B'), { faults: parseFaults('crash:13') })).toThrow(
      /LAB023.*keeps no SQLite file/,
    );
    expect(() =>
      runScenario(findScenario('ledger-keyed-retry'), {
        settings: { loseFirstResponse: false },
        faults: parseFaults('crash:1'),
        ledger: { sql },
      }),
    ).toThrow(/LAB023.*a crash names a response/);
  });
});
