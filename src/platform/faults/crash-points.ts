/**
 * Named points where a test may have this process die at once (SIGKILL: no cleanup, no finally), to prove that
 * what it was doing recovers. Only the points listed in TESSERA_CRASH_AT (comma-separated) fire, and only in a
 * process started with it; nothing else reads it.
 */
const armed = new Set(
  (process.env.TESSERA_CRASH_AT ?? '')
    .split(',')
    .map((point) => point.trim())
    .filter(Boolean),
);

export function crashPoint(name: string): void {
  if (armed.size > 0 && armed.has(name)) process.kill(process.pid, 'SIGKILL');
}

export function isArmed(name: string): boolean {
  return armed.has(name);
}
