import { usePredictStore } from '../store/predictStore';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { useLabStore } from '../store/labStore';
import { usePanelsStore } from '../store/panels';
import { applyViewLink, VIEW_DEFAULTS } from '../store/panelsStore';
import { readLink, startUrlSync, viewParams } from '../store/url';
import { App } from './App';
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
// Linear time is the lab store's time scale: the worker lays runs out on it, the first one included.
const viewProblems = link?.view === undefined ? [] : applyViewLink(usePanelsStore, link.view, useLabStore.getState());
void useLabStore
  .getState()
  .init(link)
  .then(() => viewProblems.forEach((problem) => useLabStore.getState().notify(problem)));
startUrlSync(useLabStore, window, {
  current: () => viewParams(usePanelsStore.getState(), VIEW_DEFAULTS),
  subscribe: (listener) => usePanelsStore.subscribe(listener),
});

// The built lab keeps working offline after this first visit (the service worker precaches it).
registerServiceWorker();
