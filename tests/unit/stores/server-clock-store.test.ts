import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { answer, networkFailure, refusal, silenceStoreLogs } from "../../helpers/customer-store-browser";
import { endpoints } from "../../helpers/store-api";

// The network and the browser's clock are replaced: these tests are about the dates the
// purchase screens count from.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({ health: (api) => api.health.get });
silenceStoreLogs();

const browserNow = Date.parse("2026-11-26T10:00:00.000Z");
let store: typeof import("../../../src/stores/server-clock");
beforeEach(async () => {
  // Each test is a new page: the server has not been asked yet.
  vi.resetModules();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(browserNow);
  store = await import("../../../src/stores/server-clock");
});
afterEach(() => {
  vi.clearAllMocks();
  vi.useRealTimers();
});

describe("the server's clock", () => {
  test("a browser whose clock is behind counts the dates from the server's time", async () => {
    calls.health.mockReturnValueOnce(answer({ status: "ok", time: "2026-11-26T10:05:00.000Z" }));
    await store.syncServerClock();
    expect(store.$serverClockOffset.get()).toBe(5 * 60_000);
    expect(new Date(store.serverNow()).toISOString()).toBe("2026-11-26T10:05:00.000Z");
  });

  test("the server is asked once per page, however many screens ask", async () => {
    calls.health.mockReturnValueOnce(answer({ status: "ok", time: "2026-11-25T10:00:00.000Z" }));
    await Promise.all([store.syncServerClock(), store.syncServerClock()]);
    await store.syncServerClock();
    expect(calls.health).toHaveBeenCalledOnce();
    expect(store.$serverClockOffset.get()).toBe(-86_400_000);
  });

  test("without a usable answer the browser's clock stands in", async () => {
    calls.health.mockReturnValueOnce(answer({ status: "ok", time: "not a time" }));
    await store.syncServerClock();
    expect(store.$serverClockOffset.get()).toBe(0);
    expect(store.serverNow()).toBe(browserNow);
  });

  test.each([
    ["a refusal", () => refusal(503)],
    ["a network failure", networkFailure],
    ["a thrown call", () => Promise.reject(new TypeError("Failed to fetch"))],
  ])("after %s the browser's clock stands in and the page goes on", async (_case, failure) => {
    calls.health.mockImplementationOnce(failure);
    await expect(store.syncServerClock()).resolves.toBeUndefined();
    expect(store.$serverClockOffset.get()).toBe(0);
  });
});
