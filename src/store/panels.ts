import unsafeCharge from '../lesson/examples/unsafe-charge.json';
import type { ToolsClient } from '../worker/toolsClient';
import { createPanelsStore } from './panelsStore';

/**
 * The tools worker's client, loaded with the first panel that asks the worker something (the panels
 * load when their tab opens): the first load of the page carries none of it. A Stop that comes while
 * the client still loads ends the worker the call is about to start, so no stopped work runs on. A
 * load that fails (its chunk does not arrive, e.g. offline) fails the calls that waited for it and is
 * forgotten, so the next call loads again.
 */
export function toolsClientOnFirstUse(
  load: () => Promise<ToolsClient> = () => import('../worker/toolsClient').then((module) => module.createToolsClient()),
): ToolsClient {
  let loading: Promise<ToolsClient> | null = null;
  let loaded: ToolsClient | null = null;
  return {
    async call(call, hooks) {
      if (loading === null) {
        const attempt = load().then((client) => (loaded = client));
        loading = attempt;
        // Registered before any caller awaits, so the next call after the failure already loads afresh.
        void attempt.catch(() => loading === attempt && (loading = null));
      }
      return (await loading).call(call, hooks);
    },
    stop() {
      if (loaded !== null) loaded.stop?.();
      // The pending call's continuation was queued first: its request is sent, then this Stop ends it.
      // A load that fails has nothing to stop; the waiting call already reports the failure.
      else
        void loading?.then(
          (client) => client.stop?.(),
          () => undefined,
        );
    },
  };
}

/**
 * The page's panels store, on the tools worker, with the reviewer prefilled with the unsafe example.
 * Compare has a tools worker of its own: a long comparison never keeps the Reviewer or a panel waiting,
 * and its Stop ends that worker alone. So has the checklist (about 1,200 runs, seconds of work): its
 * Stop ends its own worker, never a panel's view or a comparison. So has the evidence export (the
 * checklist's runs and the artifacts'): Stop exporting ends it alone.
 */
export const usePanelsStore = createPanelsStore(
  toolsClientOnFirstUse(),
  `${JSON.stringify(unsafeCharge, null, 2)}\n`,
  toolsClientOnFirstUse(),
  toolsClientOnFirstUse(),
  toolsClientOnFirstUse(),
);
