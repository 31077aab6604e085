import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { answer, networkFailure, openCustomerPage, refusal } from "../../helpers/customer-store-browser";
import { endpoints } from "../../helpers/store-api";

// The network is replaced: these tests are about what the cabinet's account block does
// with each answer (change account, export, delete).
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({
  logout: (api) => api.session.logout.post,
  exportData: (api) => api.profile.export.post,
  deleteAccount: (api) => api.profile.delete.post,
});

const browser = openCustomerPage("https://kannt.example/profile");
const { $email, $uid } = await import("../../../src/stores/customer");
const store = await import("../../../src/stores/cabinet");

// Stubbed only now: at import, a window would start loading the interface language.
const link = { href: "", download: "", click: vi.fn(), remove: vi.fn() };
const append = vi.fn();
vi.stubGlobal("window", {});
vi.stubGlobal("document", { createElement: () => link, body: { append } });
const createObjectURL = vi.spyOn(URL, "createObjectURL").mockReturnValue("blob:kannt/my-data");

const identity = { email: "someone@example.com", uid: "uid-1" };

beforeEach(() => {
  browser.localStorage.clear();
  browser.sessionStorage.clear();
  $email.set(identity.email);
  $uid.set(identity.uid);
  browser.localStorage.setItem("promo", "FRIEND");
  browser.sessionStorage.setItem("offer_link_visit", "1");
  store.$cabinetState.set("ready");
  vi.stubGlobal("window", {});
});
afterEach(() => vi.clearAllMocks());

describe("changing the account", () => {
  test("the session ends, this browser forgets the customer and the home page opens", async () => {
    calls.logout.mockReturnValueOnce(answer({ success: true }));
    await store.changeAccount();
    expect(calls.logout).toHaveBeenCalledOnce();
    expect(browser.localStorage.getItem("email")).toBeNull();
    expect(browser.localStorage.getItem("promo")).toBeNull();
    // The next customer in this tab gives the consents again.
    expect(browser.sessionStorage.getItem("offer_link_visit")).toBeNull();
    expect(browser.location.assign).toHaveBeenCalledWith("/");
  });

  test("a sign-out the server never heard still signs out here", async () => {
    calls.logout.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    await store.changeAccount();
    expect(browser.localStorage.getItem("email")).toBeNull();
    expect(browser.location.assign).toHaveBeenCalledWith("/");
  });

  test("a paid purchase not attached yet stays for whoever signs in next", async () => {
    browser.localStorage.setItem("payment", "completed");
    browser.localStorage.setItem("userID", "prepaid-token");
    calls.logout.mockReturnValueOnce(answer({ success: true }));
    await store.changeAccount();
    expect(browser.localStorage.getItem("email")).toBeNull();
    expect(browser.localStorage.getItem("payment")).toBe("completed");
    expect(browser.localStorage.getItem("userID")).toBe("prepaid-token");
  });

  test("inside the native app the app forgets the customer: the page leaves storage alone", async () => {
    const postMessage = vi.fn();
    vi.stubGlobal("window", { logout: { postMessage } });
    calls.logout.mockReturnValueOnce(answer({ success: true }));
    await store.changeAccount();
    expect(postMessage).toHaveBeenCalledWith("logout");
    expect(browser.localStorage.getItem("email")).toBe(identity.email);
    expect(browser.location.assign).toHaveBeenCalledWith("/");
  });
});

describe("the account's data", () => {
  test("an export is saved as kannt-my-data.json", async () => {
    calls.exportData.mockReturnValueOnce(answer({ account: { email: identity.email }, payments: [] }));
    expect(await store.exportAccountData()).toBeUndefined();
    expect(calls.exportData).toHaveBeenCalledWith(identity);
    const saved = createObjectURL.mock.calls.at(-1)?.[0] as Blob;
    expect(JSON.parse(await saved.text())).toEqual({ account: { email: identity.email }, payments: [] });
    expect(link).toMatchObject({ href: "blob:kannt/my-data", download: "kannt-my-data.json" });
    expect(link.click).toHaveBeenCalledOnce();
  });

  test("a refused or failed export says so in place and saves nothing", async () => {
    calls.exportData.mockReturnValueOnce(refusal(500));
    expect(await store.exportAccountData()).toBe("cabinet.dataExportFailed");
    calls.exportData.mockReturnValueOnce(networkFailure());
    expect(await store.exportAccountData()).toBe("cabinet.dataExportFailed");
    calls.exportData.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    expect(await store.exportAccountData()).toBe("cabinet.dataExportFailed");
    expect(link.click).not.toHaveBeenCalled();
  });

  test("a deleted account is forgotten on this device and the cabinet confirms it", async () => {
    calls.deleteAccount.mockReturnValueOnce(answer({ success: true, deletedAt: "2026-11-26T10:00:00.000Z" }));
    expect(await store.deleteAccount()).toBeUndefined();
    expect(calls.deleteAccount).toHaveBeenCalledWith({ ...identity, confirm: true });
    expect($email.get()).toBe("");
    expect(browser.localStorage.getItem("uid")).toBeNull();
    expect(store.$cabinetState.get()).toBe("deleted");
    expect(browser.location.assign).not.toHaveBeenCalled();
  });

  test("a payment under way keeps the account, and the customer is told to wait", async () => {
    calls.deleteAccount.mockReturnValueOnce(refusal(409, "payment_pending", "A payment is being processed."));
    expect(await store.deleteAccount()).toBe("cabinet.dataDeletePending");
    expect($email.get()).toBe(identity.email);
    expect(browser.localStorage.getItem("promo")).toBe("FRIEND");
    expect(store.$cabinetState.get()).toBe("ready");
  });

  test("any other refusal or a network failure changes nothing here and asks to try again", async () => {
    calls.deleteAccount.mockReturnValueOnce(refusal(500));
    expect(await store.deleteAccount()).toBe("cabinet.dataDeleteFailed");
    calls.deleteAccount.mockReturnValueOnce(networkFailure());
    expect(await store.deleteAccount()).toBe("cabinet.dataDeleteFailed");
    calls.deleteAccount.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    expect(await store.deleteAccount()).toBe("cabinet.dataDeleteFailed");
    expect($email.get()).toBe(identity.email);
    expect(store.$cabinetState.get()).toBe("ready");
  });

  test.each(["sign_in_required", "session_ended", "another_account"])(
    "without the account's session (%s) export and deletion send the customer to sign in",
    async (code) => {
      calls.exportData.mockReturnValueOnce(refusal(401, code, "Sign in again."));
      expect(await store.exportAccountData()).toBeUndefined();
      calls.deleteAccount.mockReturnValueOnce(refusal(401, code, "Sign in again."));
      expect(await store.deleteAccount()).toBeUndefined();
      expect(browser.location.assign).toHaveBeenCalledTimes(2);
      expect(browser.location.assign).toHaveBeenCalledWith("/login?next=%2Fprofile");
      expect($email.get()).toBe(identity.email);
      expect(link.click).not.toHaveBeenCalled();
    },
  );
});
