import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { answer, installCustomerBrowser, networkFailure } from "../../helpers/customer-store-browser";
import { endpoints } from "../../helpers/store-api";

// The network (the server's settings and Yandex's info endpoint) is replaced: these tests
// are about where a Yandex sign-in goes and whose answer it takes.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({ providers: (api) => api.identity.providers.get });

const browser = installCustomerBrowser("https://kannt.example/login");
const yandexInfo = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();
vi.stubGlobal("fetch", yandexInfo);

const settings = (isDemo: boolean) => ({
  google: { clientId: "google-client", isDemo },
  yandex: {
    clientId: "yandex-client",
    isDemo,
    authorizeUrl: "https://oauth.yandex.ru/authorize",
    infoUrl: "https://login.yandex.ru/info",
  },
});

let store: typeof import("../../../src/stores/yandex-sign-in");
beforeEach(async () => {
  // Each test is a new page: the provider settings have not been asked for yet.
  vi.resetModules();
  browser.sessionStorage.clear();
  store = await import("../../../src/stores/yandex-sign-in");
});
afterEach(() => vi.clearAllMocks());

const opened = () => new URL(String(browser.location.assign.mock.calls.at(-1)?.[0]));

describe("starting a Yandex sign-in", () => {
  test("goes to Yandex for a token, with a fresh state this tab keeps, back to /yauth", async () => {
    calls.providers.mockReturnValueOnce(answer(settings(false)));
    await store.startYandexSignIn();
    const url = opened();
    expect(url.origin + url.pathname).toBe("https://oauth.yandex.ru/authorize");
    expect(url.searchParams.get("response_type")).toBe("token");
    expect(url.searchParams.get("client_id")).toBe("yandex-client");
    expect(url.searchParams.get("redirect_uri")).toBe("https://kannt.example/yauth");
    expect(url.searchParams.get("state")).toMatch(/^[0-9a-f]{32}$/);
    expect(url.searchParams.get("state")).toBe(browser.sessionStorage.getItem("yandex_state"));
    expect(url.searchParams.has("provider")).toBe(false);
  });

  test("the mobile callback and the demo provider are named in the request", async () => {
    calls.providers.mockReturnValueOnce(answer(settings(true)));
    await store.startYandexSignIn("/yauth-mobile");
    expect(opened().searchParams.get("redirect_uri")).toBe("https://kannt.example/yauth-mobile");
    expect(opened().searchParams.get("provider")).toBe("yandex");
  });

  test("without the provider settings nothing opens, and the next press asks again", async () => {
    calls.providers.mockReturnValueOnce(networkFailure());
    await expect(store.startYandexSignIn()).rejects.toThrow();
    expect(browser.location.assign).not.toHaveBeenCalled();
    calls.providers.mockReturnValueOnce(answer(settings(false)));
    await store.startYandexSignIn();
    expect(browser.location.assign).toHaveBeenCalledOnce();
  });
});

describe("Yandex's answer", () => {
  test("is this tab's attempt only with the state it started with, which is spent either way", () => {
    browser.sessionStorage.setItem("yandex_state", "state-1");
    expect(store.readYandexAnswer("#access_token=token-1&state=state-1")).toEqual({
      token: "token-1",
      isThisAttempt: true,
    });
    expect(store.readYandexAnswer("#access_token=token-1&state=state-1")).toEqual({
      token: "token-1",
      isThisAttempt: false,
    });
    browser.sessionStorage.setItem("yandex_state", "state-2");
    expect(store.readYandexAnswer("#access_token=token-2&state=forged").isThisAttempt).toBe(false);
    expect(browser.sessionStorage.getItem("yandex_state")).toBeNull();
    expect(store.readYandexAnswer("#error=access_denied")).toEqual({ token: null, isThisAttempt: false });
  });

  test("the token's owner is read from Yandex's info endpoint, with the token as credential", async () => {
    calls.providers.mockReturnValueOnce(answer(settings(false)));
    yandexInfo.mockResolvedValueOnce(
      Response.json({ id: "ya-1", default_email: "someone@yandex.ru", default_avatar_id: "avatar-9" }),
    );
    expect(await store.identityFromYandexToken("token-1")).toEqual({
      uid: "ya-1",
      email: "someone@yandex.ru",
      photoURL: "https://avatars.yandex.net/get-yapic/avatar-9/islands-200",
      providerId: "yandex",
      credential: "token-1",
    });
    expect(yandexInfo).toHaveBeenCalledWith("https://login.yandex.ru/info?format=json", {
      headers: { Authorization: "Bearer token-1" },
    });
  });

  test("an empty avatar is no photo", async () => {
    calls.providers.mockReturnValueOnce(answer(settings(false)));
    yandexInfo.mockResolvedValueOnce(
      Response.json({
        id: "ya-1",
        default_email: "someone@yandex.ru",
        default_avatar_id: "0",
        is_avatar_empty: true,
      }),
    );
    expect((await store.identityFromYandexToken("token-1"))?.photoURL).toBe("");
  });

  test("a refused token or an answer without id or e-mail is no identity", async () => {
    calls.providers.mockReturnValueOnce(answer(settings(false)));
    yandexInfo.mockResolvedValueOnce(new Response("unauthorized", { status: 401 }));
    expect(await store.identityFromYandexToken("token-1")).toBeUndefined();
    yandexInfo.mockResolvedValueOnce(Response.json({ id: "ya-1" }));
    expect(await store.identityFromYandexToken("token-1")).toBeUndefined();
  });
});
