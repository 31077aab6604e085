import { describe, expect, test } from "vitest";
import { singleFlight } from "../../../src/stores/panel-single-flight";

describe("single flight", () => {
  test("parallel callers share one run and its answer", async () => {
    let runs = 0;
    let finish: (value: string) => void = () => undefined;
    const refresh = singleFlight(
      () =>
        new Promise<string>((resolve) => {
          runs += 1;
          finish = resolve;
        }),
    );
    const waiting = [refresh(), refresh(), refresh()];
    finish("new pair");
    expect(await Promise.all(waiting)).toEqual(["new pair", "new pair", "new pair"]);
    expect(runs).toBe(1);
  });

  test("a caller after the run finished starts a new one, also after a failure", async () => {
    let runs = 0;
    const refresh = singleFlight(async () => {
      runs += 1;
      if (runs === 1) throw new Error("refused");
      return runs;
    });
    await expect(Promise.all([refresh(), refresh()])).rejects.toThrow("refused");
    expect(runs).toBe(1);
    expect(await refresh()).toBe(2);
    expect(runs).toBe(2);
  });
});
