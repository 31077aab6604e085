import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { answer, openCustomerPage, refusal } from "../../helpers/customer-store-browser";
import { endpoints } from "../../helpers/store-api";

// The network (the server and Yandex's info endpoint) and the native app's bridge are
// replaced: these tests are about what /yauth and /yauth-mobile do with Yandex's answer.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({
  providers: (api) => api.identity.providers.get,
  register: (api) => api.register.post,
});

const browser = openCustomerPage("https://kannt.example/yauth");
const yandexInfo = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();
vi.stubGlobal("fetch", yandexInfo);

const settings = {
  google: { clientId: "google-client", isDemo: false },
  yandex: {
    clientId: "yandex-client",
    isDemo: false,
    authorizeUrl: "https://oauth.yandex.ru/authorize",
    infoUrl: "https://login.yandex.ru/info",
  },
};
const owner = { id: "ya-1", default_email: "someone@yandex.ru", is_avatar_empty: true };
const arriving = {
  uid: "ya-1",
  email: "someone@yandex.ru",
  photoURL: "",
  providerId: "yandex",
  credential: "token-1",
};

let store: typeof import("../../../src/stores/yandex-callback");
let customer: typeof import("../../../src/stores/customer");
beforeEach(async () => {
  // Each test is a new page.
  vi.resetModules();
  browser.localStorage.clear();
  browser.sessionStorage.clear();
  browser.location.pathname = "/yauth";
  // No window while the modules load: with one, the interface language would start loading.
  Reflect.deleteProperty(globalThis, "window");
  store = await import("../../../src/stores/yandex-callback");
  customer = await import("../../../src/stores/customer");
  vi.stubGlobal("window", {});
  customer.$email.set("");
  customer.$uid.set("");
  calls.providers.mockReturnValue(answer(settings));
});
afterEach(() => vi.clearAllMocks());

/** Yandex comes back with this fragment, to a tab that started an attempt with `state`. */
function returnWith(fragment: string, state = "state-1") {
  browser.sessionStorage.setItem("yandex_state", state);
  browser.location.hash = fragment;
}

describe("Yandex's return to /yauth", () => {
  test("this tab's answer signs the token's owner in and goes where the sign-in was for", async () => {
    returnWith("#access_token=token-1&state=state-1");
    browser.sessionStorage.setItem("kannt.signInReturn", "/promo");
    yandexInfo.mockResolvedValueOnce(Response.json(owner));
    calls.register.mockReturnValueOnce(
      answer({ success: true, expirationDate: null, subscriptionIsActive: false }),
    );
    await store.handleYandexReturn(false);
    // The token leaves the address bar and the history at once.
    expect(browser.history.replaceState).toHaveBeenCalledWith(null, "", "/yauth");
    expect(store.$yandexCallback.get()).toEqual({ step: "success" });
    expect(browser.localStorage.getItem("yandex_token")).toBe("token-1");
    expect(calls.register).toHaveBeenCalledWith(
      expect.objectContaining({ uid: "ya-1", credential: "token-1" }),
    );
    expect(browser.location.assign).toHaveBeenCalledWith("/promo");
  });

  test("an answer without a token says so", async () => {
    returnWith("#error=access_denied&state=state-1");
    await store.handleYandexReturn(false);
    expect(store.$yandexCallback.get()).toEqual({ step: "no-token" });
    expect(yandexInfo).not.toHaveBeenCalled();
  });

  test("an answer this tab did not ask for is refused without touching storage", async () => {
    returnWith("#access_token=forged-token&state=other-state");
    await store.handleYandexReturn(false);
    expect(store.$yandexCallback.get()).toEqual({ step: "not-this-attempt" });
    expect(browser.localStorage.getItem("yandex_token")).toBeNull();
    expect(yandexInfo).not.toHaveBeenCalled();
    expect(calls.register).not.toHaveBeenCalled();
  });

  test("a token whose owner Yandex does not tell, or a failed ask, ends in info-failed", async () => {
    returnWith("#access_token=token-1&state=state-1");
    yandexInfo.mockResolvedValueOnce(new Response("unauthorized", { status: 401 }));
    await store.handleYandexReturn(false);
    expect(store.$yandexCallback.get()).toEqual({ step: "info-failed" });
    returnWith("#access_token=token-1&state=state-1");
    yandexInfo.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    await store.handleYandexReturn(false);
    expect(store.$yandexCallback.get()).toEqual({ step: "info-failed" });
    expect(browser.localStorage.getItem("yandex_token")).toBeNull();
  });

  test("another account than the one held is asked about first; switching then signs it in", async () => {
    customer.$email.set("held@example.com");
    customer.$uid.set("held-uid");
    returnWith("#access_token=token-1&state=state-1");
    yandexInfo.mockResolvedValueOnce(Response.json(owner));
    await store.handleYandexReturn(false);
    expect(store.$yandexCallback.get()).toEqual({ step: "asking", arriving });
    expect(browser.localStorage.getItem("yandex_token")).toBeNull();
    expect(calls.register).not.toHaveBeenCalled();
    calls.register.mockReturnValueOnce(
      answer({ success: true, expirationDate: null, subscriptionIsActive: false }),
    );
    await store.switchToArrivingAccount();
    expect(calls.register).toHaveBeenCalledOnce();
    expect(customer.$email.get()).toBe("someone@yandex.ru");
    expect(browser.location.assign).toHaveBeenCalledWith("/profile");
  });

  test("a refused sign-in goes home silently (spec §4)", async () => {
    returnWith("#access_token=token-1&state=state-1");
    yandexInfo.mockResolvedValueOnce(Response.json(owner));
    calls.register.mockReturnValueOnce(refusal(401, "credential_invalid", "The sign-in was not accepted."));
    await store.handleYandexReturn(false);
    expect(browser.location.assign).toHaveBeenCalledWith("/");
  });
});

describe("Yandex's return to /yauth-mobile", () => {
  test("inside the native app the identity is handed to the app, whose own state was checked", async () => {
    const postMessage = vi.fn();
    vi.stubGlobal("window", { yAuth: { postMessage } });
    browser.location.pathname = "/yauth-mobile";
    browser.location.hash = "#access_token=token-1&state=app-state";
    yandexInfo.mockResolvedValueOnce(Response.json(owner));
    await store.handleYandexReturn(true);
    expect(store.$yandexCallback.get()).toEqual({ step: "success" });
    expect(JSON.parse(String(postMessage.mock.calls[0]?.[0]))).toEqual(arriving);
    expect(calls.register).not.toHaveBeenCalled();
    expect(browser.location.assign).not.toHaveBeenCalled();
  });

  test("outside the app the mobile callback checks this tab's state like any other", async () => {
    browser.location.pathname = "/yauth-mobile";
    returnWith("#access_token=forged-token&state=other-state");
    await store.handleYandexReturn(true);
    expect(store.$yandexCallback.get()).toEqual({ step: "not-this-attempt" });
  });
});
