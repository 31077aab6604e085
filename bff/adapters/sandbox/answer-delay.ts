import { randomInteger } from "../../platform/random";

/** How slowly the sandbox bank answers its server API (SANDBOX_LATENCY_MS, SANDBOX_JITTER_MS). */
export type AnswerLatency = Readonly<{ latencyMs: number; jitterMs: number }>;

/**
 * The wait before one answer: the latency ± a uniformly random jitter. None once the server
 * is stopping, so that a clean stop waits for the delays already running and for no new one
 * (a renewal batch finishing its charges after SIGTERM, say).
 */
export function answerDelayMs(
  latency: AnswerLatency,
  stopping: AbortSignal,
  random: (min: number, max: number) => number = randomInteger,
): number {
  if (stopping.aborted) return 0;
  return jitteredMs(latency, random);
}

const jitteredMs = (latency: AnswerLatency, random: (min: number, max: number) => number) =>
  latency.latencyMs === 0 ? 0 : latency.latencyMs + random(-latency.jitterMs, latency.jitterMs);

/**
 * How long after its answer the payer's bank decides an SBP autopay charge, its Pay or Fail
 * then sent: as long again as the bank took to answer (latency ± jitter), so a shop meets
 * a slow bank's notifications as late as its answers. A charge still undecided when the
 * server stops stays Pending in the ledger and is decided after the restart.
 */
export const decisionDelay =
  (latency: AnswerLatency, random: (min: number, max: number) => number = randomInteger) =>
  (): number =>
    jitteredMs(latency, random);

/**
 * Runs one call of the bank's server API and answers it a delay later, as a real bank
 * answers after it charged: the work is done and in the ledger while the caller waits, so
 * a caller that gives up waiting (or dies) finds it by look-up. The delay is chosen when the
 * call arrives: a call that came before the stop is one already running. It waits on a
 * timer, so other calls go on meanwhile; a refusal waits as long as an answer.
 */
export function createSlowAnswers(latency: AnswerLatency, stopping: AbortSignal) {
  return async <Answer>(work: () => Answer | Promise<Answer>): Promise<Answer> => {
    const delayMs = answerDelayMs(latency, stopping);
    try {
      return await work();
    } finally {
      if (delayMs > 0) await Bun.sleep(delayMs);
    }
  };
}
