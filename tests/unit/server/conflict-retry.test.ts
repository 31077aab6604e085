import { describe, expect, test } from "vitest";
import { defaultRetryPolicy, isConflict, retryDelayMs, retryOnConflict } from "../../../db/conflict-retry";

const failure = (code: string) => Object.assign(new Error(`SQLSTATE ${code}`), { code });
const quick = { maxAttempts: 4, firstDelayMs: 1, maxDelayMs: 1 };

describe("a transaction PostgreSQL gave up for a conflict", () => {
  test("is run again after a serialization failure (40001) or a deadlock (40P01), until it passes", async () => {
    const codes = ["40001", "40P01"];
    let runs = 0;
    const result = await retryOnConflict(async () => {
      const code = codes[runs++];
      if (code) throw failure(code);
      return "committed";
    }, quick);
    expect(result).toBe("committed");
    expect(runs).toBe(3);
  });

  test("is given up with the database's error after the last attempt", async () => {
    let runs = 0;
    const run = retryOnConflict(async () => {
      runs++;
      throw failure("40001");
    }, quick);
    await expect(run).rejects.toMatchObject({ code: "40001" });
    expect(runs).toBe(quick.maxAttempts);
  });

  test("any other error (a unique violation, a bug) ends it at once", async () => {
    let runs = 0;
    const run = retryOnConflict(async () => {
      runs++;
      throw failure("23505");
    }, quick);
    await expect(run).rejects.toMatchObject({ code: "23505" });
    expect(runs).toBe(1);
    expect(isConflict(new Error("no code"))).toBe(false);
    expect(isConflict(null)).toBe(false);
  });

  test("waits a random part of a ceiling that doubles from 2 ms to 250 ms, for 30 runs in all", () => {
    const ceilings = Array.from({ length: 10 }, (_, index) =>
      retryDelayMs(index + 1, defaultRetryPolicy, () => 1),
    );
    expect(ceilings).toEqual([2, 4, 8, 16, 32, 64, 128, 250, 250, 250]);
    expect(retryDelayMs(5, defaultRetryPolicy, () => 0.5)).toBe(16);
    expect(defaultRetryPolicy.maxAttempts).toBe(30);
  });
});
