/** What the lines and bars mean, in words as well as looks. */
export function Legend() {
  return (
    <ul className="dg-legend" aria-label="Legend">
      <li>
        <svg width="30" height="14" aria-hidden="true">
          <line x1="2" y1="7" x2="21" y2="7" className="dg-key-line" />
          <polygon points="29,7 19,2 19,12" className="dg-key-head" />
        </svg>
        message (sloped by latency)
      </li>
      <li>
        <svg width="30" height="14" aria-hidden="true">
          <line x1="2" y1="7" x2="21" y2="7" className="dg-key-line is-in-flight" />
          <polygon points="29,7 19,2 19,12" className="dg-key-head is-in-flight" />
        </svg>
        in flight
      </li>
      <li>
        <svg width="30" height="14" aria-hidden="true">
          <line x1="2" y1="7" x2="21" y2="7" className="dg-key-line is-bad" />
          <polygon points="29,7 19,2 19,12" className="dg-key-head is-bad" />
        </svg>
        ignored, lost or stream closed
      </li>
      <li>
        <span className="dg-key-bar deadline-idle" aria-hidden="true" />
        idle deadline
      </li>
      <li>
        <span className="dg-key-bar deadline-max" aria-hidden="true" />
        maximum deadline
      </li>
      <li>
        <ReactFlowCredit />
      </li>
    </ul>
  );
}

/**
 * React Flow's attribution, outside the pane where its own panel would cover events (the diagram sets
 * `hideAttribution`): under the lab's diagram in the legend, in the head of a replay (Compare, an
 * exercise's failing ordering). Its class is how React Flow finds it; without a visible one, the dev
 * page logs that the attribution is hidden.
 */
export function ReactFlowCredit() {
  return (
    <span className="dg-credit react-flow__attribution">
      drawn with&nbsp;
      <a href="https://reactflow.dev" rel="noreferrer">
        React Flow
      </a>
    </span>
  );
}
