import { fail } from '../core/assert';
import type { RequestId } from '../core/jsonrpc';
import type { Side } from '../core/transcript';
import type { RequestCoordinator } from './coordinator';
import type { McpSim } from './deadlines';
import { viewsDiverge } from './wording';

/**
 * RC-8: once both sides have ended, records whether their views differ: the server completed and
 * sent the final response, the client ended otherwise and never uses it. `side` ended just now.
 */
export function noteViews(sim: McpSim, coordinator: RequestCoordinator, requestId: RequestId, side: Side): void {
  if (coordinator.viewsDiverge(requestId) !== true) return;
  const record = coordinator.get(requestId);
  const clientEnd = record?.clientEnd;
  const serverEndedAtMs = record?.serverEndedAtMs;
  if (clientEnd === null || clientEnd === undefined) fail('diverging views have a client ending');
  if (typeof serverEndedAtMs !== 'number') fail('diverging views have a server ending');
  const reason = viewsDiverge(serverEndedAtMs, clientEnd.outcome, clientEnd.atMs);
  sim.record({
    kind: 'views-diverge',
    requestId,
    side,
    serverView: 'completed',
    serverEndedAtMs,
    clientView: clientEnd.outcome,
    clientEndedAtMs: clientEnd.atMs,
    reason,
  });
}
