import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { answer, networkFailure, openCustomerPage, refusal } from "../../helpers/customer-store-browser";
import { endpoints } from "../../helpers/store-api";

// The network is replaced: these tests are about what the referral page shows after each answer.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({
  code: (api) => api.profile.getReferralCode.post,
  referrals: (api) => api.profile.referrals.post,
  shop: (api) => api.shop.getShop.post,
});

const browser = openCustomerPage("https://kannt.example/promo");
const { $email, $uid } = await import("../../../src/stores/customer");
const store = await import("../../../src/stores/referral");

const identity = { email: "someone@example.com", uid: "uid-1" };
const invitee = (email: string, counts: boolean) => ({
  email,
  invitedAt: "2026-11-01T12:00:00.000Z",
  counts,
  reason: counts ? "counts" : "not-paid-yet",
});

beforeEach(() => {
  $email.set(identity.email);
  $uid.set(identity.uid);
  store.$referralCode.set({ status: "loading" });
  store.$invitees.set({ status: "loading" });
  store.$referralDiscount.set(undefined);
});
afterEach(() => vi.clearAllMocks());

describe("the customer's referral code", () => {
  test("is asked for, shown and kept under the spec's key", async () => {
    calls.code.mockReturnValueOnce(answer({ success: true, referralCode: "FRIEND-42" }));
    await store.loadReferralCode();
    expect(calls.code).toHaveBeenCalledWith(identity);
    expect(store.$referralCode.get()).toEqual({ status: "ready", code: "FRIEND-42" });
    expect(browser.localStorage.getItem("referral")).toBe("FRIEND-42");
  });

  test("the invite link is the site root with the code as token", () => {
    expect(store.inviteLink("FRIEND 42")).toBe("https://kannt.example/?token=FRIEND%2042");
  });

  test("a refusal shows the server's words; one without words still blames the server", async () => {
    calls.code.mockReturnValueOnce(
      refusal(409, "account_has_no_subscription", "Subscribe to invite friends."),
    );
    await store.loadReferralCode();
    expect(store.$referralCode.get()).toEqual({
      status: "failed",
      cause: "server",
      message: "Subscribe to invite friends.",
    });
    calls.code.mockReturnValueOnce(refusal(500));
    await store.loadReferralCode();
    expect(store.$referralCode.get()).toEqual({ status: "failed", cause: "server" });
    calls.code.mockReturnValueOnce(answer({ success: false }));
    await store.loadReferralCode();
    expect(store.$referralCode.get()).toEqual({ status: "failed", cause: "server" });
  });

  test("a call that never got an answer asks to check the connection, and keeps no code", async () => {
    calls.code.mockReturnValueOnce(networkFailure());
    await store.loadReferralCode();
    expect(store.$referralCode.get()).toEqual({ status: "failed", cause: "network" });
    calls.code.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    await store.loadReferralCode();
    expect(store.$referralCode.get()).toEqual({ status: "failed", cause: "network" });
    expect(browser.location.assign).not.toHaveBeenCalled();
  });

  test("without a stored e-mail, or without a session, the customer signs in and comes back", async () => {
    $email.set("");
    await store.loadReferralCode();
    expect(calls.code).not.toHaveBeenCalled();
    $email.set(identity.email);
    for (const code of ["sign_in_required", "session_ended", "another_account"]) {
      calls.code.mockReturnValueOnce(refusal(401, code, "Sign in again."));
      await store.loadReferralCode();
    }
    expect(browser.location.assign).toHaveBeenCalledTimes(4);
    expect(browser.location.assign).toHaveBeenCalledWith("/login?next=%2Fpromo");
    expect(store.$referralCode.get()).toEqual({ status: "loading" });
  });
});

describe("the invited friends", () => {
  test("are shown with whether each counts, and the discount now in force", async () => {
    const invitees = [invitee("a@example.com", true), invitee("b@example.com", false)];
    calls.referrals.mockReturnValueOnce(answer({ success: true, invitees }));
    calls.shop.mockReturnValueOnce(answer({ referralDiscount: 0.1 }));
    const loading = store.loadInvitees();
    expect(store.$invitees.get()).toEqual({ status: "loading" });
    await loading;
    expect(calls.referrals).toHaveBeenCalledWith(identity);
    expect(store.$invitees.get()).toEqual({ status: "ready", invitees });
    expect(store.$referralDiscount.get()).toBe(0.1);
  });

  test("without the shop data the list still shows; only the discount line is left out", async () => {
    calls.referrals.mockReturnValueOnce(answer({ success: true, invitees: [] }));
    calls.shop.mockReturnValueOnce(networkFailure());
    await store.loadInvitees();
    expect(store.$invitees.get()).toEqual({ status: "ready", invitees: [] });
    expect(store.$referralDiscount.get()).toBeUndefined();
  });

  test("a failed list is never shown as 'no friends invited'", async () => {
    calls.referrals.mockReturnValueOnce(refusal(500, "internal_error", "Something went wrong on our side."));
    calls.shop.mockReturnValueOnce(answer({ referralDiscount: 0.1 }));
    await store.loadInvitees();
    expect(store.$invitees.get()).toEqual({
      status: "failed",
      cause: "server",
      message: "Something went wrong on our side.",
    });
    calls.referrals.mockReturnValueOnce(networkFailure());
    calls.shop.mockReturnValueOnce(networkFailure());
    await store.loadInvitees();
    expect(store.$invitees.get()).toEqual({ status: "failed", cause: "network" });
    calls.referrals.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    calls.shop.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    await store.loadInvitees();
    expect(store.$invitees.get()).toEqual({ status: "failed", cause: "network" });
    // The discount the shop data gave earlier stays.
    expect(store.$referralDiscount.get()).toBe(0.1);
  });

  test.each(["sign_in_required", "session_ended", "another_account"])(
    "without the account's session (%s) the customer signs in and comes back",
    async (code) => {
      calls.referrals.mockReturnValueOnce(refusal(401, code, "Sign in again."));
      calls.shop.mockReturnValueOnce(refusal(401, code, "Sign in again."));
      await store.loadInvitees();
      expect(browser.location.assign).toHaveBeenCalledWith("/login?next=%2Fpromo");
      expect(store.$invitees.get()).toEqual({ status: "loading" });
    },
  );
});
