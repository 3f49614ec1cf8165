/**
 * How far a reduction over arrival instants could go in A–D: explores each with the reduction off
 * and prints, beside its states, the floors no sound reduction of the explorer's tree can go under.
 *
 *   npx tsx scripts/arrivalBound.ts [--jitter 150,300]
 *
 * Per row: `states` (runs), `orderings` (complete orderings run), `endings` (distinct endings) and
 * `broken` (distinct broken invariants); `reach` the runs that reaching one ordering of each ending
 * takes (every prefix of its schedule is a run: the fewest a search that keeps every ending must make
 * along those paths); `orders` the distinct orders of events among the complete orderings (each run's
 * events by actor and label, times left out: two arrival instants that give the same order are one
 * class); `no critical points` the states when an arrival is offered only its window's ends and the
 * queued instants in it (what the critical points cost); `one same-instant order` the states when every
 * same-instant choice runs its first event only, with the endings that leaves: what a reduction that
 * pruned every other order of events due at one instant would leave, so no partial-order reduction of
 * same-instant orders, sound or not, explores fewer. Each floor is printed ÷ states.
 */
import { parseArgs } from 'node:util';
import { countEventOrders, Exploration, firstOrderOnly } from '../src/engine';
import { findScenario } from '../src/scenarios/index';

const { values } = parseArgs({ options: { jitter: { type: 'string', default: '150,300' } } });
const jitters = values.jitter.split(',').map(Number);

function explored(id: string, transport: 'stdio' | 'http', jitter: number, criticalArrivals: boolean) {
  const exploration = new Exploration(findScenario(id), {
    transport,
    settings: { latencyJitterMs: jitter },
    reduction: false,
    criticalArrivals,
  });
  while (!exploration.advance(10_000)) {
    // each slice runs up to 10,000 runs, as `explore` does
  }
  return exploration.result();
}

const share = (count: number, states: number): string => `${count} (${(count / states).toFixed(3)})`;
for (const jitter of jitters) {
  for (const id of ['A', 'B', 'C', 'D']) {
    for (const transport of ['stdio', 'http'] as const) {
      const { result, orders: distinctOrders } = countEventOrders(() => explored(id, transport, jitter, true));
      const reach = new Set<string>(['']);
      for (const ending of result.endings) {
        const choices = ending.schedule === '-' ? [] : ending.schedule.split('.');
        for (let length = 1; length <= choices.length; length += 1) reach.add(choices.slice(0, length).join('.'));
      }
      const broken = new Set(result.violations.map((violation) => violation.invariant)).size;
      const bare = explored(id, transport, jitter, false).states;
      const oneOrder = firstOrderOnly(() => explored(id, transport, jitter, true));
      const { states } = result;
      console.log(
        `${`${id} ${transport} latencyJitterMs=${jitter}`.padEnd(30)} states ${String(states).padStart(5)}, orderings ${result.schedules}, endings ${share(result.endings.length, states)}, broken ${broken}, reach ${share(reach.size, states)}, orders ${share(distinctOrders, states)}, no critical points ${share(bare, states)}, one same-instant order ${share(oneOrder.states, states)} with ${oneOrder.endings.length} endings`,
      );
    }
  }
}
