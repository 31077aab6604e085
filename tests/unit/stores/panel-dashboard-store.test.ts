import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { endpoints, panelStorage, pending } from "../../helpers/store-api";

// The network and the address bar are replaced: these tests are about the dashboard's range
// rules and what its store asks and keeps.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({ health: (api) => api.health.get, dashboard: (api) => api.panel.dashboard.get });
const stored = panelStorage();
const address = { pathname: "/panel-dashboard", search: "" };
const replaceState = vi.fn();
vi.stubGlobal("location", address);
vi.stubGlobal("history", { replaceState });

let store: typeof import("../../../src/stores/panel-dashboard");
/** The store as a page opened at `search` finds it. */
async function openedAt(search: string) {
  vi.resetModules();
  address.search = search;
  store = await import("../../../src/stores/panel-dashboard");
}
beforeEach(async () => {
  stored.clear();
  stored.set("accessToken", "operator.token");
  // The server's today, which a preset range ends on whatever this browser's clock says.
  calls.health.mockReturnValue(Promise.resolve({ data: { time: "2027-03-10T12:00:00.000Z" }, error: null }));
  await openedAt("");
});
afterEach(() => vi.clearAllMocks());

const figures = (from: string, to: string) => ({ from, to, days: [], months: [] });
const answer = (data: unknown) => Promise.resolve({ data, error: null });
const lastAsked = () => calls.dashboard.mock.lastCall?.[0];

describe("the dashboard's store", () => {
  test("without a range in the address it shows the last 30 days up to the server's today", async () => {
    calls.dashboard.mockReturnValueOnce(answer(figures("2027-02-09", "2027-03-10")));
    await store.openDashboard();
    expect(lastAsked()).toEqual({
      headers: { authorization: "Bearer operator.token" },
      query: { from: "2027-02-09", to: "2027-03-10" },
    });
    expect(store.$dashboardFigures.get()).toEqual({
      state: "ready",
      data: { ...figures("2027-02-09", "2027-03-10"), key: "?days=30" },
    });
    expect(store.$isDashboardStale.get()).toBe(false);
  });

  test("the range in the address is the one shown when the page opens", async () => {
    await openedAt("?from=2026-10-01&to=2026-11-15");
    expect(store.$dashboardRange.get()).toEqual({ kind: "custom", from: "2026-10-01", to: "2026-11-15" });
    calls.dashboard.mockReturnValueOnce(answer(figures("2026-10-01", "2026-11-15")));
    await store.openDashboard();
    expect(lastAsked()?.query).toEqual({ from: "2026-10-01", to: "2026-11-15" });
    expect(replaceState).not.toHaveBeenCalled();
  });

  test("a preset goes into the address and is asked; the old figures stay, marked stale, until it arrives", async () => {
    calls.dashboard.mockReturnValueOnce(answer(figures("2027-02-09", "2027-03-10")));
    await store.openDashboard();
    const { promise: later, finish } = pending();
    calls.dashboard.mockReturnValueOnce(later);
    const choosing = store.choosePreset(7);
    expect(replaceState).toHaveBeenCalledWith(null, "", "/panel-dashboard?days=7");
    expect(store.$dashboardFigures.get()).toMatchObject({ state: "ready", data: { key: "?days=30" } });
    expect(store.$isDashboardStale.get()).toBe(true);
    finish({ data: figures("2027-03-04", "2027-03-10"), error: null });
    await choosing;
    expect(lastAsked()?.query).toEqual({ from: "2027-03-04", to: "2027-03-10" });
    expect(store.$isDashboardStale.get()).toBe(false);
  });

  test("the range on screen chosen again asks nothing", async () => {
    calls.dashboard.mockReturnValue(answer(figures("2027-02-09", "2027-03-10")));
    await store.openDashboard();
    await store.choosePreset(30);
    expect(calls.dashboard).toHaveBeenCalledOnce();
  });

  test("two days that are not a range are refused in place and nothing is asked", async () => {
    await store.chooseDays("2026-11-10", "2026-11-01");
    expect(store.$rangeProblem.get()).toBe("order");
    await store.chooseDays("2025-01-01", "2026-11-01");
    expect(store.$rangeProblem.get()).toBe("length");
    await store.chooseDays("2026-02-30", "2026-03-01");
    expect(store.$rangeProblem.get()).toBe("dates");
    expect(calls.dashboard).not.toHaveBeenCalled();
    expect(replaceState).not.toHaveBeenCalled();
  });

  test("two good days are asked as they are, and clear the problem; so does a preset", async () => {
    calls.dashboard.mockReturnValue(answer(figures("2026-10-01", "2026-11-15")));
    await store.chooseDays("2026-11-10", "2026-11-01");
    await store.chooseDays("2026-10-01", "2026-11-15");
    expect(store.$rangeProblem.get()).toBeUndefined();
    expect(replaceState).toHaveBeenLastCalledWith(null, "", "/panel-dashboard?from=2026-10-01&to=2026-11-15");
    expect(lastAsked()?.query).toEqual({ from: "2026-10-01", to: "2026-11-15" });
    await store.chooseDays("2026-11-10", "2026-11-01");
    await store.choosePreset(90);
    expect(store.$rangeProblem.get()).toBeUndefined();
  });

  test("a failed call says how; a retry asks the same range again", async () => {
    calls.dashboard.mockReturnValueOnce(Promise.resolve({ data: null, error: { status: 500, value: {} } }));
    await store.openDashboard();
    expect(store.$dashboardFigures.get()).toEqual({ state: "failed", status: 500 });
    calls.dashboard.mockReturnValueOnce(answer(figures("2027-02-09", "2027-03-10")));
    await store.retryDashboard();
    expect(calls.dashboard).toHaveBeenCalledTimes(2);
    expect(store.$dashboardFigures.get()).toMatchObject({ state: "ready" });
  });
});
