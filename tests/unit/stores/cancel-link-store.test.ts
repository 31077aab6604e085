import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";

// The network is replaced: these tests are about which screen the cancel link's store
// chooses for each answer.
const calls = vi.hoisted(() => ({ open: vi.fn(), cancel: vi.fn() }));
vi.mock("../../../src/lib/api-client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../../src/lib/api-client")>()),
  api: { subscriptions: { "cancel-link": { post: calls.open, cancel: { post: calls.cancel } } } },
}));

vi.stubGlobal("location", { href: "https://kannt.example/cancel?token=signed-token" });
vi.stubGlobal("history", { state: null, replaceState: vi.fn() });
const store = await import("../../../src/stores/cancel-link");

/** A refusal as the server answers it: its status, code and words. */
const refusal = (status: number, code: string, message: string) =>
  Promise.resolve({ data: null, error: { status, value: { success: false, error: { code, message } } } });

beforeAll(() => expect(store.takeCancelToken()).toBe("signed-token"));
afterEach(() => vi.clearAllMocks());

describe("the cancel link's screen", () => {
  test.each([
    ["cancel_link_invalid", 401, "invalid"],
    ["too_many_cancel_links", 429, "later"],
    ["already_cancelled", 409, "nothing-to-cancel"],
    ["account_has_no_subscription", 409, "nothing-to-cancel"],
  ] as const)("%s shows the server's words as %s", async (code, status, reason) => {
    calls.open.mockReturnValueOnce(refusal(status, code, `words of ${code}`));
    await store.openCancelLink();
    expect(calls.open).toHaveBeenCalledWith({ token: "signed-token" });
    expect(store.$cancelLink.get()).toEqual({ step: "refused", reason, message: `words of ${code}` });
  });

  test("the code decides, not the status: an unknown refusal is a failure to try again", async () => {
    calls.open.mockReturnValueOnce(refusal(409, "payment_pending", "A payment is being processed."));
    await store.openCancelLink();
    expect(store.$cancelLink.get()).toEqual({ step: "failed" });
    calls.open.mockReturnValueOnce(refusal(500, "cancel_link_invalid", "The link is invalid."));
    await store.openCancelLink();
    expect(store.$cancelLink.get()).toEqual({
      step: "refused",
      reason: "invalid",
      message: "The link is invalid.",
    });
  });

  test("a cancel refused with nothing to cancel says so; one that got no answer can be held again", async () => {
    calls.cancel.mockReturnValueOnce(refusal(409, "already_cancelled", "Already cancelled."));
    await store.confirmCancelLink();
    expect(store.$cancelLink.get()).toEqual({
      step: "refused",
      reason: "nothing-to-cancel",
      message: "Already cancelled.",
    });
    calls.cancel.mockReturnValueOnce(Promise.reject(new TypeError("Failed to fetch")));
    await store.confirmCancelLink();
    expect(store.$cancelLinkError.get()).toBe("cancel.linkCancelFailed");
  });

  test("a cancel the server refused for another reason says the server's words, not the connection's", async () => {
    calls.cancel.mockReturnValueOnce(refusal(409, "payment_pending", "A payment is being processed."));
    await store.confirmCancelLink();
    expect(store.$cancelLinkError.get()).toBe("A payment is being processed.");
    // Eden's answer for a request that never reached the server: no words of the server's.
    calls.cancel.mockReturnValueOnce(
      Promise.resolve({ data: null, error: { value: new TypeError("offline") } }),
    );
    await store.confirmCancelLink();
    expect(store.$cancelLinkError.get()).toBe("cancel.linkCancelFailed");
  });
});
