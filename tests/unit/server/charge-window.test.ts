import { describe, expect, test } from "vitest";
import { ChargeWindow } from "../../../bff/jobs/charge-window";

/** A window on a clock the test moves; a pause resolves by moving the clock, not by waiting. */
function windowOf(most: number) {
  let now = 0;
  const pauses: number[] = [];
  const window = new ChargeWindow(
    most,
    () => now,
    async (ms) => {
      pauses.push(ms);
      now += ms;
    },
  );
  return { window, pauses, advance: (ms: number) => (now += ms) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("the renewal pass's window of calls in flight", () => {
  test("lets `most` calls go at once and the next only when one ends", async () => {
    const { window } = windowOf(3);
    const tickets = await Promise.all([window.take(), window.take(), window.take()]);
    let fourth = false;
    void window.take().then(() => (fourth = true));
    await settle();
    expect(fourth).toBe(false);
    window.give(tickets[0] as never, "answered");
    await settle();
    expect(fourth).toBe(true);
  });

  test("a round of refusals halves it once, and answers grow it back one at a time up to the most", async () => {
    const { window, advance } = windowOf(32);
    const round = await Promise.all(Array.from({ length: 32 }, () => window.take()));
    advance(1);
    for (const ticket of round) window.give(ticket, "silent");
    // 32 calls sent into the same trouble: halved once, not 32 times.
    expect(window.size).toBe(16);
    advance(1);
    const next = await Promise.all(Array.from({ length: 16 }, () => window.take()));
    for (const ticket of next) window.give(ticket, "answered");
    expect(window.size).toBe(17);
    for (let round = 0; round < 1_000; round++) window.give(await window.take(), "answered");
    expect(window.size).toBe(32);
  });

  test("a 429 pauses new calls for the Retry-After the bank gave, or a second", async () => {
    const { window, pauses } = windowOf(4);
    window.give(await window.take(), "busy", 2_500);
    await window.take();
    expect(pauses).toEqual([2_500]);
    const { window: other, pauses: otherPauses } = windowOf(4);
    other.give(await other.take(), "busy");
    await other.take();
    expect(otherPauses).toEqual([1_000]);
  });

  test("a place given back unused changes nothing", async () => {
    const { window } = windowOf(8);
    window.give(await window.take(), "unused");
    expect(window.size).toBe(8);
    const { window: one } = windowOf(1);
    one.give(await one.take(), "silent");
    expect(one.size).toBe(1);
  });
});
