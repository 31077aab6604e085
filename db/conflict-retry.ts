/**
 * PostgreSQL gives up a transaction that met another (DESIGN §15): SQLSTATE 40001, a
 * serialization failure, or 40P01, a deadlock. Nothing of it was kept, so running it again
 * from the start is the cure, and the only correct answer to the error.
 */
export const conflictCodes: ReadonlySet<string> = new Set(["40001", "40P01"]);

export const isConflict = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && conflictCodes.has(code);
};

export type RetryPolicy = {
  /** Runs in all, the first included, before the conflict is given up as an error. */
  maxAttempts: number;
  /** The ceiling of the wait after the first conflict; it doubles after each further one. */
  firstDelayMs: number;
  /** No wait is longer than this. */
  maxDelayMs: number;
};

/**
 * 30 runs, waits of up to 2, 4, 8 … ms capped at 250 ms, each a random part of its ceiling.
 * A burst of first payments of new customers reads and writes the same right-most index
 * pages, so under SERIALIZABLE nearly every pair of them conflicts and most runs lose;
 * twelve runs with waits of a few milliseconds (the earlier policy) sent the losers back
 * into the same crowd each time, and a few in a hundred gave up. Doubling waits spread them
 * until they pass; at most about 6 s of waiting in all before a run is given up.
 */
export const defaultRetryPolicy: RetryPolicy = { maxAttempts: 30, firstDelayMs: 2, maxDelayMs: 250 };

/** The wait before run `attempt + 1`: a random part of a ceiling that doubles ("full jitter"). */
export function retryDelayMs(attempt: number, policy: RetryPolicy, random = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.min(attempt - 1, 30));
  return random() * ceiling;
}

/** Runs `run` until it ends without a conflict, or `policy.maxAttempts` runs have met one. */
export async function retryOnConflict<T>(
  run: (attempt: number) => Promise<T>,
  policy: RetryPolicy = defaultRetryPolicy,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run(attempt);
    } catch (error) {
      if (!isConflict(error) || attempt >= policy.maxAttempts) throw error;
      await Bun.sleep(retryDelayMs(attempt, policy));
    }
  }
}
