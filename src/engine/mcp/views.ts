import { fail } from '../core/assert';
import type { RequestId } from '../core/jsonrpc';
import type { Side } from '../core/transcript';
import type { RequestCoordinator } from './coordinator';
import type { McpSim } from './deadlines';
import type { ClientOutcome } from './events';

const CLIENT_WORDS: Record<ClientOutcome, string> = {
  completed: 'used the response',
  cancelled: 'cancelled it',
  'timeout-idle': 'gave up on its idle deadline',
  'timeout-max': 'gave up on its maximum deadline',
};

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
  const reason =
    `the server completed at ${serverEndedAtMs} ms and sent its final response; the client ended ${clientEnd.outcome} at ${clientEnd.atMs} ms ` +
    `(it ${CLIENT_WORDS[clientEnd.outcome]}) and will discard that response. Neither side can know what the other saw first: the server records completed, the client never uses the result`;
  sim.record({ kind: 'views-diverge', requestId, side, serverView: 'completed', serverEndedAtMs, clientView: clientEnd.outcome, clientEndedAtMs: clientEnd.atMs, reason });
}
