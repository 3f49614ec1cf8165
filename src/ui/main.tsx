import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { useLabStore } from '../store/labStore';
import { readLink, startUrlSync } from '../store/url';
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
void useLabStore.getState().init(readLink(window.location.search));
startUrlSync(useLabStore, window);

// The built lab keeps working offline after this first visit (the service worker precaches it).
registerServiceWorker();
