import { beforeEach, describe, expect, test, vi } from "vitest";
import { endpoint, panelStorage } from "../../helpers/store-api";

// Browser storage, the address bar and the refresh call are replaced: these tests are about
// when a panel call renews its access token and when it gives up for the login page.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const refresh = endpoint((api) => api.auth.refreshToken.post);
const stored = panelStorage();
const assign = vi.fn();
vi.stubGlobal("location", { assign });
vi.stubGlobal("sessionStorage", {
  getItem: () => null,
  setItem: () => undefined,
  removeItem: () => undefined,
});

const { panelCall } = await import("../../../src/stores/panel-session");

/** A refusal as the server answers it: its status, code and words. */
const refused = (status: number, code: string) => ({
  data: null,
  error: { status, value: { success: false, error: { code, message: code } } },
});
const done = { data: { ok: true }, error: null };

beforeEach(() => {
  vi.clearAllMocks();
  stored.clear();
  stored.set("accessToken", "old-access");
  stored.set("refreshToken", "old-refresh");
});

describe("a panel call", () => {
  test.each(["panel_session_expired", "panel_session_closed", "panel_sign_in_required", "operator_inactive"])(
    "refused for its access token (%s) renews it once and asks again",
    async (code) => {
      refresh.mockResolvedValueOnce({ data: { accessToken: "new-access", refreshToken: "new-refresh" } });
      const call = vi.fn().mockResolvedValueOnce(refused(401, code)).mockResolvedValueOnce(done);
      expect(await panelCall(call)).toEqual(done);
      expect(call).toHaveBeenLastCalledWith({ authorization: "Bearer new-access" });
      expect(refresh).toHaveBeenCalledWith({ refreshToken: "old-refresh" });
      expect(assign).not.toHaveBeenCalled();
    },
  );

  test("decides by the code, not the status: any other refusal is the screen's to show", async () => {
    const other = refused(401, "wrong_credentials");
    const call = vi.fn().mockResolvedValueOnce(other);
    expect(await panelCall(call)).toEqual(other);
    const forbidden = refused(403, "admin_only");
    call.mockResolvedValueOnce(forbidden);
    expect(await panelCall(call)).toEqual(forbidden);
    expect(refresh).not.toHaveBeenCalled();
    expect(assign).not.toHaveBeenCalled();
  });

  test("refused again after the renewal, it goes to the login page", async () => {
    refresh.mockResolvedValueOnce({ data: { accessToken: "new-access", refreshToken: "new-refresh" } });
    const call = vi.fn().mockResolvedValue(refused(401, "operator_inactive"));
    await expect(panelCall(call)).rejects.toThrow(/redirecting/);
    expect(assign).toHaveBeenCalledWith("/panel-login");
  });

  test("refused until a second factor is enrolled, it goes to the Security screen, keeping the sign-in", async () => {
    const call = vi.fn().mockResolvedValueOnce(refused(403, "second_factor_enrolment_required"));
    await expect(panelCall(call)).rejects.toThrow(/enrolment/);
    expect(assign).toHaveBeenCalledWith("/panel-security");
    expect(refresh).not.toHaveBeenCalled();
    expect(stored.get("accessToken")).toBe("old-access");
  });

  test("refused so after a renewal, it goes to the Security screen too", async () => {
    refresh.mockResolvedValueOnce({ data: { accessToken: "new-access", refreshToken: "new-refresh" } });
    const call = vi
      .fn()
      .mockResolvedValueOnce(refused(401, "panel_session_expired"))
      .mockResolvedValueOnce(refused(403, "second_factor_enrolment_required"));
    await expect(panelCall(call)).rejects.toThrow(/enrolment/);
    expect(assign).toHaveBeenCalledWith("/panel-security");
  });
});

describe("a failed panel read", () => {
  test("keeps the refusal's code, which the screen words it by", async () => {
    const { panelQuery } = await import("../../../src/stores/panel-query");
    const read = panelQuery(0, async () => refused(404, "customer_not_found"));
    await read.ask(1);
    expect(read.$loaded.get()).toEqual({ state: "failed", status: 404, code: "customer_not_found" });
    const dropped = panelQuery(0, () => Promise.reject(new TypeError("Failed to fetch")));
    await dropped.ask(1);
    expect(dropped.$loaded.get()).toEqual({ state: "failed", status: undefined });
  });
});
