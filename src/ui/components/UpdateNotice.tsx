import { switchToNewVersion, useUpdateReady } from '../serviceWorker';

/**
 * Says that a new version of the lab has been downloaded (the service worker installed it beside the
 * running one). It is used on the next visit anyway; the button switches now.
 */
export function UpdateNotice() {
  const ready = useUpdateReady();
  if (!ready) return null;
  return (
    <section className="lab-notice lab-update" role="status" aria-labelledby="update-heading">
      <h2 id="update-heading">A new version of the lab was loaded</h2>
      <p>It is used from your next visit on, or now if you reload with it.</p>
      <button type="button" className="lab-button" onClick={switchToNewVersion}>
        Use the new version now
      </button>
    </section>
  );
}
