import { useRunStore } from '../../store/runStore';

/** What the page could not use from the link it was opened with; it shows defaults instead and says so. */
export function Notices() {
  const notices = useRunStore((state) => state.notices);
  const dismiss = useRunStore((state) => state.dismissNotices);
  if (notices.length === 0) return null;
  return (
    <section className="lab-notice" role="status" aria-labelledby="notice-heading">
      <h2 id="notice-heading">This link had values the lab could not use</h2>
      <ul>
        {notices.map((notice) => (
          <li key={notice.id}>{notice.text}</li>
        ))}
      </ul>
      <button type="button" className="lab-button" onClick={dismiss}>
        Dismiss
      </button>
    </section>
  );
}
