/**
 * One run of `task` at a time: callers arriving while it runs share its promise, so
 * parallel panel calls that all met a 401 spend the refresh token once, not once each.
 */
export function singleFlight<T>(task: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= task().finally(() => {
      running = undefined;
    });
    return running;
  };
}
