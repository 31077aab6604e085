import { describe, expect, test, vi } from "vitest";
import { type Answer, panelQuery } from "../../../src/stores/panel-query";

/** A load whose answers the test hands out one by one, in any order. */
function controlledLoad<T>() {
  const pending: { query: unknown; finish: (answer: Answer<T>) => void; fail: (error: Error) => void }[] = [];
  const load = vi.fn(
    (query: unknown) =>
      new Promise<Answer<T>>((resolve, reject) => {
        pending.push({ query, finish: resolve, fail: reject });
      }),
  );
  return { load, pending };
}
const ok = <T>(data: T): Answer<T> => ({ data, error: null });
const refused = (status: number): Answer<never> => ({ data: null, error: { status, value: undefined } });

describe("a panel read", () => {
  test("shows loading, then the answer", async () => {
    const { load, pending } = controlledLoad<string>();
    const read = panelQuery({ page: 0 }, load);
    const asked = read.ask({ page: 0 });
    expect(read.$loaded.get()).toEqual({ state: "loading" });
    pending[0]?.finish(ok("first page"));
    await asked;
    expect(read.$loaded.get()).toEqual({ state: "ready", data: "first page" });
    expect(load).toHaveBeenCalledWith({ page: 0 });
  });

  test("a refusal keeps its status, and a call that never reached the server has none", async () => {
    const { load, pending } = controlledLoad<string>();
    const read = panelQuery({ page: 0 }, load);
    const refusedCall = read.ask({ page: 0 });
    pending[0]?.finish(refused(403));
    await refusedCall;
    expect(read.$loaded.get()).toEqual({ state: "failed", status: 403 });
    const lostCall = read.retry();
    pending[1]?.fail(new TypeError("Failed to fetch"));
    await lostCall;
    expect(read.$loaded.get()).toEqual({ state: "failed", status: undefined });
  });

  test("the question already asked is not asked again; a retry is, showing loading meanwhile", async () => {
    const { load, pending } = controlledLoad<string>();
    const read = panelQuery({ page: 0 }, load);
    const first = read.ask({ page: 0 });
    pending[0]?.finish(ok("page 1"));
    await first;
    await read.ask({ page: 0 });
    expect(load).toHaveBeenCalledOnce();
    const again = read.retry();
    expect(read.$loaded.get()).toEqual({ state: "loading" });
    pending[1]?.finish(ok("page 1, again"));
    await again;
    expect(load).toHaveBeenCalledTimes(2);
    expect(read.$loaded.get()).toEqual({ state: "ready", data: "page 1, again" });
  });

  test("a new question keeps the last answer on screen until its own arrives", async () => {
    const { load, pending } = controlledLoad<string>();
    const read = panelQuery({ page: 0 }, load);
    const first = read.ask({ page: 0 });
    pending[0]?.finish(ok("page 1"));
    await first;
    const second = read.ask({ page: 1 });
    expect(read.$query.get()).toEqual({ page: 1 });
    expect(read.$loaded.get()).toEqual({ state: "ready", data: "page 1" });
    pending[1]?.finish(ok("page 2"));
    await second;
    expect(read.$loaded.get()).toEqual({ state: "ready", data: "page 2" });
  });

  test("an answer to an older question is dropped, and so is its onReady", async () => {
    const { load, pending } = controlledLoad<string>();
    const onReady = vi.fn();
    const read = panelQuery({ page: 0 }, load, { onReady });
    const slow = read.ask({ page: 0 });
    const fast = read.ask({ page: 1 });
    pending[1]?.finish(ok("page 2"));
    await fast;
    pending[0]?.finish(ok("page 1, late"));
    await slow;
    expect(read.$loaded.get()).toEqual({ state: "ready", data: "page 2" });
    expect(onReady.mock.calls).toEqual([["page 2"]]);
  });

  test("onReady runs before the screen shows the answer", async () => {
    const { load, pending } = controlledLoad<string>();
    const seen: string[] = [];
    const read = panelQuery("only", load, { onReady: () => seen.push(read.$loaded.get().state) });
    const asked = read.ask("only");
    pending[0]?.finish(ok("data"));
    await asked;
    expect(seen).toEqual(["loading"]);
  });
});
