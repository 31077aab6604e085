import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { installCustomerBrowser } from "../../helpers/customer-store-browser";

// The address bar and the native app's bridge are replaced: these tests are about what an
// entry page asks before another account replaces the one this browser holds. It calls no server.
const browser = installCustomerBrowser("https://kannt.example/mobileShop?email=other@example.com");
const { $email, $uid } = await import("../../../src/stores/customer");
const store = await import("../../../src/stores/account-switch");

const held = { email: "someone@example.com", uid: "uid-1" };
const other = { email: "other@example.com", uid: "uid-2" };

beforeEach(() => {
  $email.set(held.email);
  $uid.set(held.uid);
  vi.stubGlobal("window", {});
});
afterEach(() => vi.clearAllMocks());

describe("switching accounts at an entry page", () => {
  test("the held account is the stored e-mail and uid", () => {
    expect(store.heldAccount()).toEqual(held);
  });

  test("another account arriving must be asked about; the same one, in any letter case, need not", () => {
    expect(store.mustAskBeforeSwitching(other)).toBe(true);
    expect(store.mustAskBeforeSwitching({ email: "SOMEONE@example.com ", uid: "uid-1" })).toBe(false);
    expect(store.mustAskBeforeSwitching({ email: "someone@example.com", uid: "uid-9" })).toBe(true);
    $email.set("");
    $uid.set("");
    expect(store.mustAskBeforeSwitching(other)).toBe(false);
  });

  test("a browser is asked 'switch?' for another account and 'continue as?' when it holds none", () => {
    expect(store.entryQuestionFor(other, true)).toBe("switch");
    expect(store.entryQuestionFor(held, true)).toBe("none");
    $email.set("");
    $uid.set("");
    expect(store.entryQuestionFor(other, true)).toBe("continue");
    expect(store.entryQuestionFor(other, false)).toBe("none");
  });

  test("inside the native app its own account goes straight on; another one is still asked about", () => {
    vi.stubGlobal("window", { yAuth: { postMessage: vi.fn() } });
    $email.set("");
    $uid.set("");
    expect(store.entryQuestionFor(other, true)).toBe("none");
    $email.set(held.email);
    $uid.set(held.uid);
    expect(store.entryQuestionFor(other, true)).toBe("switch");
  });

  test("'not me' leaves without keeping the link (and its credential) in the history, storing nothing", () => {
    store.declineArrivingAccount();
    expect(browser.location.replace).toHaveBeenCalledWith("/");
    expect(browser.location.assign).not.toHaveBeenCalled();
    expect(store.heldAccount()).toEqual(held);
  });

  test("keeping the current account goes back to its cabinet, nothing stored changed", () => {
    store.keepCurrentAccount();
    expect(browser.location.assign).toHaveBeenCalledWith("/profile");
    expect(browser.localStorage.getItem("email")).toBe(held.email);
  });
});
