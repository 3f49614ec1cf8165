import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { useLabStore } from '../store/labStore';
import { App } from './App';
import './app.css';

const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// First load: list the scenarios in the worker, then run the selected one.
void useLabStore.getState().init();
