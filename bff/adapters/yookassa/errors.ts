/**
 * How a YooKassa call can end without an answer to read. Each says what the caller may do:
 * send it again later (busy), look it up (unavailable: the outcome is unknown), or take
 * YooKassa's refusal (refused: nothing was done).
 */

/** HTTP 429: turned away before anything was done, so the same call may go again once it allows. */
export class YooKassaBusyError extends Error {
  constructor(
    path: string,
    readonly retryAfterMs: number | undefined,
  ) {
    super(`YooKassa ${path} answered HTTP 429`);
    this.name = "YooKassaBusyError";
  }
}

/**
 * A 5xx, a 202 that never turned into an answer, a timeout or a dropped connection on every
 * try: whether YooKassa did it is unknown, so it must be looked up (or sent again under the
 * same idempotence key), never sent afresh.
 */
export class YooKassaUnavailableError extends Error {
  constructor(path: string, lastProblem: string) {
    super(`YooKassa ${path} gave no answer: ${lastProblem}`);
    this.name = "YooKassaUnavailableError";
  }
}

/** A 4xx other than 429: YooKassa refused the request and did nothing. */
export class YooKassaRefusedError extends Error {
  constructor(
    path: string,
    readonly status: number,
    readonly code: string,
    readonly description: string | undefined,
  ) {
    super(
      `YooKassa ${path} refused the request (HTTP ${status} ${code}): ${description ?? "no description"}`,
    );
    this.name = "YooKassaRefusedError";
  }
}
