import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { answer, networkFailure, openCustomerPage, refusal } from "../../helpers/customer-store-browser";
import { endpoints } from "../../helpers/store-api";

// The network is replaced: these tests are about what /login and /instantLogin show and keep
// when they open.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({ profile: (api) => api.profile.post });

const browser = openCustomerPage("https://kannt.example/login");
const customer = await import("../../../src/stores/customer");
const { returnPath } = await import("../../../src/stores/sign-in-flow");
const { isConsentSkippedThisVisit } = await import("../../../src/lib/consent-skip");
const store = await import("../../../src/stores/login-page");

const identity = { email: "someone@example.com", uid: "uid-1" };
const profile = { success: true, userInfo: { subscriptionIsActive: true, subscriptionStatus: "ACTIVE" } };

beforeEach(() => {
  browser.sessionStorage.clear();
  for (const stored of [
    customer.$promo,
    customer.$rawPeriod,
    customer.$rawTariff,
    customer.$period,
    customer.$tariff,
  ])
    stored.set("");
  browser.localStorage.removeItem("i");
  browser.localStorage.removeItem("j");
  customer.$email.set(identity.email);
  customer.$uid.set(identity.uid);
  store.$loginPage.set(undefined);
});
afterEach(() => vi.clearAllMocks());

/** /login opened with this query. */
const openAt = (search: string) => {
  browser.location.search = search;
};

describe("opening /login", () => {
  test("a stored e-mail shows the check, not the buttons, from the first paint", () => {
    openAt("?next=%2Fpromo");
    expect(store.openingLoginPage("login")).toEqual({ isChecking: true, target: "/promo" });
    customer.$email.set("");
    expect(store.openingLoginPage("login")).toEqual({ isChecking: false, target: "/promo" });
  });

  test("a visitor already signed in goes to `next` at once", async () => {
    openAt("?next=%2Fpromo");
    calls.profile.mockReturnValueOnce(answer(profile));
    const opening = store.openLoginPage("login");
    expect(store.$loginPage.get()).toEqual({ isChecking: true, target: "/promo" });
    await opening;
    expect(calls.profile).toHaveBeenCalledWith(identity);
    expect(browser.location.assign).toHaveBeenCalledWith("/promo");
    // The check stays on screen while the next page loads.
    expect(store.$loginPage.get()).toEqual({ isChecking: true, target: "/promo" });
  });

  test.each([
    ["refused", () => refusal(401, "session_ended", "Sign in again.")],
    ["never answered", networkFailure],
    ["thrown", () => Promise.reject(new TypeError("Failed to fetch"))],
  ])("a session check %s shows the sign-in buttons, leading to `next`", async (_case, result) => {
    openAt("?next=%2Fpromo");
    calls.profile.mockImplementationOnce(result);
    await store.openLoginPage("login");
    expect(store.$loginPage.get()).toEqual({ isChecking: false, target: "/promo" });
    expect(browser.location.assign).not.toHaveBeenCalled();
  });

  test("without a stored e-mail nobody is checked: the buttons show at once", async () => {
    customer.$email.set("");
    openAt("");
    await store.openLoginPage("login");
    expect(calls.profile).not.toHaveBeenCalled();
    expect(store.$loginPage.get()).toEqual({ isChecking: false, target: "/profile" });
  });

  test("a `next` off this site leads to the cabinet instead", async () => {
    customer.$email.set("");
    openAt("?next=%2F%2Fevil.example%2Fsteal");
    await store.openLoginPage("login");
    expect(store.$loginPage.get()).toEqual({ isChecking: false, target: "/profile" });
    expect(returnPath()).toBe("/profile");
  });

  test("the offer link's token, i and j are kept for the sign-up, and the target for a Yandex return", async () => {
    customer.$email.set("");
    openAt("?token=FRIEND&i=7&j=6&next=%2Fpromo");
    await store.openLoginPage("login");
    expect(customer.$promo.get()).toBe("FRIEND");
    expect(customer.$rawPeriod.get()).toBe("7");
    expect(customer.$rawTariff.get()).toBe("6");
    expect(customer.$period.get()).toBe("7");
    expect(customer.$tariff.get()).toBe("6");
    expect(isConsentSkippedThisVisit()).toBe(true);
    expect(returnPath()).toBe("/promo");
  });

  test("i and j outside the spec's values are kept raw and used as one; without both, the consents are asked", async () => {
    customer.$email.set("");
    openAt("?i=45&j=5");
    await store.openLoginPage("login");
    expect(customer.$rawPeriod.get()).toBe("45");
    expect(customer.$rawTariff.get()).toBe("5");
    expect(customer.$period.get()).toBe("1");
    expect(customer.$tariff.get()).toBe("1");
    // Spec §5: an i that is not a number is stored as 5, and then means 5 days.
    openAt("?i=abc&j=6");
    await store.openLoginPage("login");
    expect(customer.$rawPeriod.get()).toBe("5");
    expect(customer.$period.get()).toBe("5");
    openAt("?i=7");
    await store.openLoginPage("login");
    expect(customer.$promo.get()).toBe("");
    expect(isConsentSkippedThisVisit()).toBe(false);
  });
});

describe("opening /instantLogin", () => {
  test("it always offers the buttons, leading to the cabinet, and keeps nothing from the query", async () => {
    openAt("?token=FRIEND&i=7&j=6&next=%2Fpromo");
    expect(store.openingLoginPage("instantLogin")).toEqual({ isChecking: false, target: "/profile" });
    await store.openLoginPage("instantLogin");
    expect(store.$loginPage.get()).toEqual({ isChecking: false, target: "/profile" });
    expect(calls.profile).not.toHaveBeenCalled();
    expect(customer.$promo.get()).toBe("");
    expect(returnPath()).toBe("/profile");
  });
});
