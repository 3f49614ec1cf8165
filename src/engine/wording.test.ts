// Every sentence the lab writes about an event reads as prose: no "undefined" or "NaN" leaks from a
// field an event does not have (a malformed notifications/cancelled, which has no requestId,
// was worded "notifications/cancelled #undefined").
import { describe, expect, it } from 'vitest';
import { loadSqlJs } from '../cli/sqlite';
import { runText } from '../cli/runText';
import { scenarios } from '../scenarios/index';
import { describeEvent, describeMessage, formatTimeline, wordEvents } from './describe';
import { summarizeMessage } from './mcp/summary';
import { runScenario, TRANSPORTS, usesSqlite } from './index';

const LEAK = /\bundefined\b|\bNaN\b/;
const sql = await loadSqlJs();

describe('no event of any scenario is worded with "undefined" or "NaN"', () => {
  for (const scenario of scenarios) {
    for (const transport of TRANSPORTS) {
      it(`${scenario.id} on ${transport}`, () => {
        const transcript = runScenario(scenario, {
          transport,
          seed: 1,
          ledger: usesSqlite(scenario) ? { sql } : undefined,
        });
        const wording = wordEvents(transcript.events);
        transcript.events.forEach((event, index) => {
          const w = wording[index];
          const sentences = [
            describeEvent(event),
            describeEvent(event, true),
            w?.text,
            w?.label,
            w?.marker?.text,
            w?.fate,
          ];
          if (event.kind === 'message') sentences.push(describeMessage(event.message), summarizeMessage(event.message));
          for (const sentence of sentences)
            if (sentence !== undefined && sentence !== null)
              expect(sentence, `event ${index} (${event.kind})`).not.toMatch(LEAK);
        });
        expect(formatTimeline(transcript)).not.toMatch(LEAK);
        expect(runText(scenario, transcript)).not.toMatch(LEAK);
      });
    }
  }

  it('a notifications/cancelled without a requestId is worded without one', () => {
    const malformed = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { reason: 'buggy' } } as const;
    expect(describeMessage(malformed)).toBe('notifications/cancelled without a requestId');
    expect(summarizeMessage(malformed)).toBe('notifications/cancelled without a requestId');
    const named = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 41 } } as const;
    expect(describeMessage(named)).toBe('notifications/cancelled requestId=41');
    expect(summarizeMessage(named)).toBe('notifications/cancelled #41');
  });
});

describe("the timeline's settings line names only settings the run's transport reads", () => {
  const scenario = scenarios.find((s) => s.id === 'A');
  if (scenario === undefined) throw new Error('scenario A is missing');
  const header = (transport: 'stdio' | 'http', settings = {}) => {
    const text = formatTimeline(runScenario(scenario, { transport, settings }), scenario.settings);
    return {
      settings: /^settings .*$/m.exec(text)?.[0] ?? '',
      reproduce: /^reproduce: .*$/m.exec(text)?.[0] ?? '',
    };
  };

  it('stdio leaves out the HTTP-only httpCancel; Streamable HTTP shows it', () => {
    expect(header('stdio').settings).not.toContain('httpCancel');
    expect(header('stdio').settings).toContain('cancelAtMs=120 requestId=41');
    expect(header('http').settings).toContain('cancelAtMs=120 httpCancel=close-stream requestId=41');
  });

  it('the reproduce line still names a changed HTTP-only setting, so it reruns the same transcript', () => {
    const stdio = header('stdio', { httpCancel: 'post-notification' });
    expect(stdio.settings).not.toContain('httpCancel');
    expect(stdio.reproduce).toContain('--set httpCancel=post-notification');
  });
});
