import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { endpoints } from "../../helpers/store-api";

// The network is replaced: these tests are about which screen the cancel link's store
// chooses for each answer.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({
  open: (api) => api.subscriptions["cancel-link"].post,
  cancel: (api) => api.subscriptions["cancel-link"].cancel.post,
  profile: (api) => api.profile.post,
  signedInCancel: (api) => api.subscriptions.cancel.post,
});

const assign = vi.fn();
vi.stubGlobal("location", {
  href: "https://kannt.example/cancel?token=signed-token",
  pathname: "/cancel",
  search: "",
  assign,
});
vi.stubGlobal("history", { state: null, replaceState: vi.fn() });
const store = await import("../../../src/stores/cancel-link");
const { $email, $uid } = await import("../../../src/stores/customer");

/** A server that failed without a word of its own, as a proxy in front of it answers (502 page). */
const serverFailure = (status: number) =>
  Promise.resolve({ data: null, error: { status, value: "Bad Gateway" } });
/** Eden's answer for a request that never reached the server. */
const unreachable = () => Promise.resolve({ data: null, error: { value: new TypeError("Failed to fetch") } });

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
    expect(store.$cancelLink.get()).toEqual({ step: "failed", cause: "server" });
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

describe("a cancel screen says whether the server failed or could not be reached", () => {
  test("the link's screen: a 5xx is the server's failure, a dropped connection the connection's", async () => {
    calls.open.mockReturnValueOnce(serverFailure(502));
    await store.openCancelLink();
    expect(store.$cancelLink.get()).toEqual({ step: "failed", cause: "server" });
    calls.open.mockReturnValueOnce(unreachable());
    await store.openCancelLink();
    expect(store.$cancelLink.get()).toEqual({ step: "failed", cause: "network" });
    calls.open.mockReturnValueOnce(Promise.reject(new TypeError("Failed to fetch")));
    await store.openCancelLink();
    expect(store.$cancelLink.get()).toEqual({ step: "failed", cause: "network" });
  });

  test("the link's hold: a 500, with the app's words or none, says the server failed and to try later", async () => {
    calls.cancel.mockReturnValueOnce(serverFailure(500));
    await store.confirmCancelLink();
    expect(store.$cancelLinkError.get()).toBe("cancel.serverFailed");
    calls.cancel.mockReturnValueOnce(refusal(500, "internal", "Something went wrong on our side."));
    await store.confirmCancelLink();
    expect(store.$cancelLinkError.get()).toBe("cancel.serverFailed");
    calls.cancel.mockReturnValueOnce(unreachable());
    await store.confirmCancelLink();
    expect(store.$cancelLinkError.get()).toBe("cancel.linkCancelFailed");
  });

  test("the signed-in screen: loading and the hold tell a failed server from an unreachable one", async () => {
    $email.set("buyer@example.com");
    $uid.set("uid-42");
    calls.profile.mockReturnValueOnce(serverFailure(503));
    await store.openCancelScreen();
    expect(store.$cancelScreen.get()).toEqual({ step: "failed", cause: "server" });
    calls.profile.mockReturnValueOnce(unreachable());
    await store.openCancelScreen();
    expect(store.$cancelScreen.get()).toEqual({ step: "failed", cause: "network" });
    calls.profile.mockReturnValueOnce(
      Promise.resolve({ data: { userInfo: { subscriptionStatus: "ACTIVE" } }, error: null }),
    );
    await store.openCancelScreen();
    expect(store.$cancelScreen.get()).toEqual({ step: "ready" });

    calls.signedInCancel.mockReturnValueOnce(serverFailure(500));
    await store.confirmCancel();
    expect(calls.signedInCancel).toHaveBeenCalledWith({ email: "buyer@example.com", uid: "uid-42" });
    expect(store.$cancelFailed.get()).toBe("cancel.serverFailed");
    calls.signedInCancel.mockReturnValueOnce(Promise.reject(new TypeError("Failed to fetch")));
    await store.confirmCancel();
    expect(store.$cancelFailed.get()).toBe("cancel.linkCancelFailed");
    calls.signedInCancel.mockReturnValueOnce(
      refusal(409, "payment_pending", "A payment is being processed."),
    );
    await store.confirmCancel();
    expect(store.$cancelFailed.get()).toBe("A payment is being processed.");
    expect(assign).not.toHaveBeenCalled();
  });
});
