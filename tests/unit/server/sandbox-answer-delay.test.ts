import { describe, expect, test } from "vitest";
import { answerDelayMs, createSlowAnswers, decisionDelay } from "../../../bff/adapters/sandbox/answer-delay";

// The sandbox bank's wait before an answer (SANDBOX_LATENCY_MS ± SANDBOX_JITTER_MS): chosen
// when a call arrives, none once the server is stopping, and always after the work.

const running = new AbortController().signal;
const stopped = AbortSignal.abort();

describe("answerDelayMs: latency ± a uniformly random jitter", () => {
  test("the jitter's random draw spans minus to plus the jitter, both ends included", () => {
    const draws: [number, number][] = [];
    const draw = (min: number, max: number) => {
      draws.push([min, max]);
      return max;
    };
    expect(answerDelayMs({ latencyMs: 300, jitterMs: 50 }, running, draw)).toBe(350);
    expect(answerDelayMs({ latencyMs: 300, jitterMs: 50 }, running, (min) => min)).toBe(250);
    expect(draws).toEqual([[-50, 50]]);
  });

  test("the platform's randomness gives whole milliseconds, every one of the range and none beyond it", () => {
    const seen = new Set<number>();
    // 4,000 draws of 21 values: any value missing by chance has odds under 1 in 10^80.
    for (let draw = 0; draw < 4000; draw++)
      seen.add(answerDelayMs({ latencyMs: 100, jitterMs: 10 }, running));
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 21 }, (_, index) => 90 + index));
  });

  test("no latency, or a server that is stopping, means no wait", () => {
    expect(answerDelayMs({ latencyMs: 0, jitterMs: 0 }, running)).toBe(0);
    expect(answerDelayMs({ latencyMs: 300, jitterMs: 50 }, stopped)).toBe(0);
  });
});

describe("decisionDelay: the payer's bank decides an SBP autopay charge as slowly as it answers", () => {
  test("a delay of its own for each charge, latency ± jitter; none without a latency", () => {
    const draws = [50, -50, 7];
    const delay = decisionDelay({ latencyMs: 300, jitterMs: 50 }, () => draws.shift() ?? 0);
    expect([delay(), delay(), delay()]).toEqual([350, 250, 307]);
    expect(decisionDelay({ latencyMs: 0, jitterMs: 0 })()).toBe(0);
  });
});

describe("createSlowAnswers: the work first, the answer a delay later", () => {
  test("the work is done at once; its answer, or its refusal, comes no sooner than the latency", async () => {
    const slowly = createSlowAnswers({ latencyMs: 60, jitterMs: 0 }, running);
    const events: string[] = [];
    const startedAt = performance.now();
    const answer = slowly(() => {
      events.push("work");
      return "charged";
    }).then((value) => events.push(`answer: ${value}`));
    await Promise.resolve();
    expect(events).toEqual(["work"]);
    await answer;
    expect(events).toEqual(["work", "answer: charged"]);
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(60);

    const refusedAt = performance.now();
    await expect(
      slowly(() => {
        throw new Error("Token not found");
      }),
    ).rejects.toThrow("Token not found");
    expect(performance.now() - refusedAt).toBeGreaterThanOrEqual(60);
  });

  test("a call that arrives once the server is stopping is answered before one that was already waiting", async () => {
    const stopping = new AbortController();
    const slowly = createSlowAnswers({ latencyMs: 60, jitterMs: 0 }, stopping.signal);
    const answered: string[] = [];
    const waiting = slowly(() => "before the stop").then((value) => answered.push(value));
    stopping.abort();
    await slowly(() => "after the stop").then((value) => answered.push(value));
    await waiting;
    expect(answered).toEqual(["after the stop", "before the stop"]);
  });
});
