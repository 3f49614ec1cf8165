// Proves every JSON-RPC message the engine puts on the wire is a valid MCP 2026-07-28 message, and that the validator itself rejects invalid ones.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { scenarios } from '../scenarios/index';
import { runScenario } from '../engine';
import { seededChooser } from '../engine';
import { SeededRandom } from '../engine';
import { callToolRequest, cancelledNotification, progressNotification } from '../engine';
import { validateMessage, validateTranscriptMessages } from './mcpSchema';
import { loadSqlJs } from '../cli/sqlite';

const official = fileURLToPath(new URL('../../../shared/mcp-schema/2026-07-28/schema.json', import.meta.url));
const vendored = fileURLToPath(new URL('../schema/mcp-2026-07-28.schema.json', import.meta.url));

describe('the schema the tests use', () => {
  it('is byte-identical to the official copy in ../shared when that is present', () => {
    if (!existsSync(official)) {
      // A clone without ../shared beside it: the vendored copy is what there is; say so in the output.
      console.warn(`../shared/mcp-schema not found at ${official}; validating against the vendored copy only`);
      expect(existsSync(vendored)).toBe(true);
      return;
    }
    expect(readFileSync(vendored, 'utf8')).toBe(readFileSync(official, 'utf8'));
  });

  it('rejects messages that break the schema (so a passing check means something)', () => {
    const request = callToolRequest(7, 'x', {}, 'tok');
    delete (request.params?._meta as Record<string, unknown>)['io.modelcontextprotocol/protocolVersion'];
    expect(validateMessage('CallToolRequest', request)).toMatch(/protocolVersion/);
    expect(
      validateMessage('CancelledNotification', { jsonrpc: '2.0', method: 'notifications/cancelled', params: {} }),
    ).toMatch(/requestId/);
    expect(
      validateMessage('ProgressNotification', {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 1.5, progress: 1 },
      }),
    ).not.toBeNull();
    expect(validateMessage('CallToolResultResponse', { jsonrpc: '2.0', id: 1, result: { content: [] } })).toMatch(
      /resultType/,
    );
  });

  it('accepts the docs/requirements.md RC-5 stdio cancellation verbatim', () => {
    expect(validateMessage('CancelledNotification', cancelledNotification(41, 'User closed the operation'))).toBeNull();
    expect(validateMessage('ProgressNotification', progressNotification('progress-41', 1, 2, 'half'))).toBeNull();
  });
});

describe('every message of every scenario validates', () => {
  for (const scenario of scenarios) {
    for (const transport of ['stdio', 'http'] as const) {
      it(`${scenario.id} over ${transport}`, async () => {
        const { checked, problems } = validateTranscriptMessages(
          runScenario(scenario, { transport, ledger: { sql: await loadSqlJs() } }),
        );
        expect(problems).toEqual([]);
        expect(checked).toBeGreaterThan(1);
      });
    }
  }

  it('request races under random settings, seeds and same-instant orders', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...scenarios.filter((s) => s.kind === 'request-race')),
        fc.constantFrom('stdio' as const, 'http' as const),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.record({
          latencyMs: fc.integer({ min: 0, max: 50 }),
          latencyJitterMs: fc.integer({ min: 0, max: 20 }),
          cancelAtMs: fc.option(fc.integer({ min: 0, max: 600 })),
          httpCancel: fc.constantFrom('close-stream', 'post-notification'),
          clientProfile: fc.constantFrom('spec', 'ts-sdk-1.x'),
          afterCancel: fc.constantFrom('suppress', 'respond'),
        }),
        (scenario, transport, seed, settings) => {
          const transcript = runScenario(scenario, {
            transport,
            seed,
            settings,
            chooser: seededChooser(new SeededRandom(seed)),
          });
          expect(validateTranscriptMessages(transcript).problems).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
