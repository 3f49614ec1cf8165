// Proves the diagram credits React Flow where React Flow looks for its attribution: the diagram hides
// React Flow's own panel (it would cover events), and with no visible `.react-flow__attribution` left on
// the page, React Flow's dev build logs that the attribution is hidden.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Legend, ReactFlowCredit } from './Legend';

describe("the diagram's React Flow credit", () => {
  it('the legend under the lab diagram holds it, as a link to React Flow carrying its attribution class', () => {
    const html = renderToStaticMarkup(createElement(Legend));
    expect(html).toMatch(
      /<span class="dg-credit react-flow__attribution">drawn with.<a href="https:\/\/reactflow\.dev"[^>]*>React Flow<\/a><\/span>/,
    );
  });

  it('a replay (Compare, an exercise) shows the same credit in its head', () => {
    expect(renderToStaticMarkup(createElement(ReactFlowCredit))).toContain('class="dg-credit react-flow__attribution"');
  });
});
