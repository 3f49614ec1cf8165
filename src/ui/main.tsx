import { usePredictStore } from '../store/predictStore';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { useRunStore } from '../store/runStore';
import { usePanelsStore } from '../store/panels';
import { applyViewLink, VIEW_DEFAULTS } from '../store/panelsStore';
import { startCompareFollow } from '../store/compareFollow';
import { readLink, startUrlSync, viewParams } from '../store/url';
import { App } from './App';
import { predictGate } from './panels/predictGate';
import { startTabFollow } from './panels/tabFollow';
import { registerServiceWorker } from './serviceWorker';
import './app.css';

const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// First load: list the scenarios in the worker, apply the link the page was opened with (the
// worker judges its values), run the selection; from then on the address bar follows the view.
const link = readLink(window.location.search);
// A first visit (no link): a short card says what is about to race and what to press.
usePredictStore.getState().setIntroOpen(link === null);
// The view part of the link (tab, mode, Linear time, sliders) is the page's; the rest goes to the worker.
// Linear time is the run store's time scale: the worker lays runs out on it, the first one included.
const viewProblems = link?.view === undefined ? [] : applyViewLink(usePanelsStore, link.view, useRunStore.getState());
// A first visit opens at step 0 (the card says what is about to race): the run unfolds as the user
// steps or plays, and the answer is not on screen before the question. A link opens where it says
// (its step, or the end of the run when it names none).
const FIRST_VISIT = { params: {}, step: '0' };
void useRunStore
  .getState()
  .init(link ?? FIRST_VISIT)
  .then(() => viewProblems.forEach((problem) => useRunStore.getState().notify(problem)));
// Predict's race point holds every move forward until the room has guessed (or pressed Reveal).
useRunStore.getState().setStepGate(predictGate);
// The top bar follows the tab: a tab whose view belongs to other scenarios selects one of them.
startTabFollow(useRunStore, usePanelsStore);
// Compare opens on the scenario the menu shows, until runs are set by hand, an example, a link or a recording.
startCompareFollow(useRunStore, usePanelsStore);
startUrlSync(useRunStore, window, {
  current: () => viewParams(usePanelsStore.getState(), VIEW_DEFAULTS),
  subscribe: (listener) => usePanelsStore.subscribe(listener),
});

// The built lab keeps working offline after this first visit (the service worker precaches it).
registerServiceWorker();
