import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { answer, networkFailure, openCustomerPage, refusal } from "../../helpers/customer-store-browser";
import { endpoints } from "../../helpers/store-api";

// The network is replaced: these tests are about what signing in sends and keeps.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({
  providers: (api) => api.identity.providers.get,
  register: (api) => api.register.post,
});

const browser = openCustomerPage("https://kannt.example/promo?tab=friends");
const customer = await import("../../../src/stores/customer");
const auth = await import("../../../src/stores/auth");

const google = {
  uid: "google-uid",
  email: "someone@example.com",
  photoURL: "https://example.com/me.png",
  providerId: "google.com",
  credential: "id.token.signed",
  nonce: "nonce-1",
};
const settings = {
  google: { clientId: "google-client", isDemo: true },
  yandex: { clientId: "yandex-client", isDemo: true },
};

// The atoms keep their values in memory between reads, as in a page: each is reset by setting it.
beforeEach(() => {
  for (const stored of [
    customer.$promo,
    customer.$period,
    customer.$tariff,
    customer.$expirationDate,
    customer.$subscriptionIsActive,
  ])
    stored.set("");
});
afterEach(() => vi.clearAllMocks());

describe("signing in", () => {
  test("a page that needs a session sends the customer to sign in and back to where they were", () => {
    auth.goToSignIn();
    expect(browser.location.assign).toHaveBeenCalledWith("/login?next=%2Fpromo%3Ftab%3Dfriends");
  });

  test("only the server's session codes mean 'sign in'; a 401 without one never does", async () => {
    const errorOf = async (answered: ReturnType<typeof refusal>) => (await answered).error;
    expect(auth.needsSignIn(await errorOf(refusal(401, "sign_in_required")))).toBe(true);
    expect(auth.needsSignIn(await errorOf(refusal(401, "session_ended")))).toBe(true);
    expect(auth.needsSignIn(await errorOf(refusal(403, "another_account")))).toBe(true);
    expect(auth.needsSignIn(await errorOf(refusal(401)))).toBe(false);
    expect(auth.needsSignIn(await errorOf(refusal(401, "sign_in_expired")))).toBe(false);
    expect(auth.needsSignIn((await networkFailure()).error)).toBe(false);
    expect(auth.needsSignIn(null)).toBe(false);
  });

  test("the providers' settings are asked for once; a failed ask is asked again next time", async () => {
    calls.providers.mockReturnValueOnce(refusal(500));
    await expect(auth.providerSettings()).rejects.toThrow("provider settings unavailable");
    calls.providers.mockReturnValueOnce(answer(settings));
    expect(await auth.providerSettings()).toEqual(settings);
    expect(await auth.providerSettings()).toEqual(settings);
    expect(calls.providers).toHaveBeenCalledTimes(2);
  });

  test("registration sends the spec's body with the stored choices and keeps the answer's access", async () => {
    customer.$promo.set("FRIEND");
    customer.$period.set("7");
    customer.$tariff.set("6");
    calls.register.mockReturnValueOnce(
      answer({ success: true, expirationDate: "2026-12-21T12:00:00.000Z", subscriptionIsActive: true }),
    );
    expect(await auth.postRegister(google)).toEqual({ outcome: "signed-in" });
    expect(calls.register).toHaveBeenCalledWith({
      uid: "google-uid",
      email: "someone@example.com",
      photoURL: "https://example.com/me.png",
      providerId: "google.com",
      referralCode: "FRIEND",
      period: 7,
      tariff: 6,
      credential: "id.token.signed",
      nonce: "nonce-1",
      prepaidToken: undefined,
    });
    expect(customer.$email.get()).toBe("someone@example.com");
    expect(customer.$uid.get()).toBe("google-uid");
    expect(customer.$isYandexAuth.get()).toBe("false");
    expect(customer.$expirationDate.get()).toBe("2026-12-21T12:00:00.000Z");
    expect(customer.$subscriptionIsActive.get()).toBe("true");
  });

  test("without stored choices the trial and tariff are one (spec §5), and no referral code goes", async () => {
    calls.register.mockReturnValueOnce(
      answer({ success: true, expirationDate: null, subscriptionIsActive: false }),
    );
    expect(await auth.registerCustomer(google)).toBe("signed-in");
    expect(calls.register).toHaveBeenCalledWith(
      expect.objectContaining({ referralCode: "", period: 1, tariff: 1 }),
    );
    expect(customer.$expirationDate.get()).toBe("");
    expect(customer.$subscriptionIsActive.get()).toBe("false");
  });

  test("a refusal answers the server's words and keeps no access", async () => {
    calls.register.mockReturnValueOnce(refusal(401, "credential_invalid", "The sign-in was not accepted."));
    expect(await auth.postRegister(google)).toEqual({
      outcome: "refused",
      message: "The sign-in was not accepted.",
    });
    expect(customer.$subscriptionIsActive.get()).toBe("");
  });

  test("a registration that never reached the server is a network failure, told apart from a refusal", async () => {
    calls.register.mockReturnValueOnce(networkFailure());
    expect(await auth.postRegister(google)).toEqual({ outcome: "network-failure" });
    calls.register.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    expect(await auth.registerCustomer(google)).toBe("network-failure");
    expect(customer.$expirationDate.get()).toBe("");
  });

  test("a purchase sent along but not attached is a refusal with the server's reason, never silent", async () => {
    calls.register.mockReturnValueOnce(
      answer({
        success: true,
        expirationDate: null,
        subscriptionIsActive: false,
        prepaid: { bound: false, reason: "This purchase is already attached to another account." },
      }),
    );
    expect(await auth.postRegister(google, "prepaid-token")).toEqual({
      outcome: "refused",
      message: "This purchase is already attached to another account.",
    });
    expect(calls.register).toHaveBeenCalledWith(expect.objectContaining({ prepaidToken: "prepaid-token" }));
    calls.register.mockReturnValueOnce(
      answer({
        success: true,
        expirationDate: "2027-01-21T12:00:00.000Z",
        subscriptionIsActive: true,
        prepaid: { bound: true },
      }),
    );
    expect(await auth.postRegister(google, "prepaid-token")).toEqual({ outcome: "signed-in" });
    expect(customer.$expirationDate.get()).toBe("2027-01-21T12:00:00.000Z");
  });
});
