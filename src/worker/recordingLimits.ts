/**
 * The largest recording the page opens: the probe's own bound on what it receives (16 MiB), with
 * room for what it sent and the JSON around it. A plain constant, so the page checks a file's size
 * before reading it without loading the worker's schemas.
 */
export const RECORDING_BYTES_MAX = 24 * 1024 * 1024;
