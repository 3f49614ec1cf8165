/**
 * The largest recording the page opens: the probe's own bound on what it receives (16 MiB), with
 * room for what it sent and the JSON around it. A plain constant, so the page checks a file's size
 * before reading it without loading the worker's schemas.
 */
export const RECORDING_BYTES_MAX = 24 * 1024 * 1024;

/**
 * The most events a recording the page opens may hold. A probe run records far fewer: at most 5,000
 * messages from the server, each answered or followed by a handful of events of the probe's own; the
 * probe stops (LAB045) before it records more than this, so every transcript it writes opens.
 */
export const RECORDING_EVENTS_MAX = 50_000;
