/**
 * Wraps an async task so calls never overlap: a call while it runs asks for exactly one more run after it, however
 * many calls came in meanwhile (wake-ups from NOTIFY, polls and finished work collapse into one pass).
 */
export function serialized(task: () => Promise<void>): () => void {
  let running = false;
  let again = false;
  const run = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    void task().finally(() => {
      running = false;
      if (again) {
        again = false;
        run();
      }
    });
  };
  return run;
}
