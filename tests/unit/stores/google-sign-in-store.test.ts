import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { installCustomerBrowser, silenceStoreLogs } from "../../helpers/customer-store-browser";

// The popup and its messages are replaced: these tests are about which Google answer a
// sign-in takes. The server checks the token itself; this store calls no server.
const browser = installCustomerBrowser("https://kannt.example/login");
silenceStoreLogs();
const store = await import("../../../src/stores/google-sign-in");

type Listener = (event: { origin: string; data: unknown }) => void;
const listeners = new Set<Listener>();
const popup = { closed: false };
const open = vi.fn((_url: string, _name: string, _features: string): typeof popup | null => popup);
beforeEach(() => {
  browser.sessionStorage.clear();
  listeners.clear();
  popup.closed = false;
  vi.stubGlobal("window", {
    open,
    addEventListener: (_type: string, listener: Listener) => listeners.add(listener),
    removeEventListener: (_type: string, listener: Listener) => listeners.delete(listener),
  });
});
afterEach(() => {
  vi.clearAllMocks();
  vi.useRealTimers();
});

const post = (origin: string, data: unknown) => {
  for (const listener of [...listeners]) listener({ origin, data });
};
/** An ID token as Google signs it; only its payload is read here. */
const idToken = (payload: Record<string, unknown>) =>
  `header.${btoa(JSON.stringify(payload)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}.signature`;

describe("the demo provider's popup", () => {
  test("opens /dev-idp with this attempt's nonce and takes the credential it posts back", async () => {
    const answer = store.demoGooglePopup();
    const url = new URL(String(open.mock.calls[0]?.[0]), "https://kannt.example");
    expect(url.pathname).toBe("/dev-idp");
    expect(url.searchParams.get("provider")).toBe("google.com");
    expect(url.searchParams.get("nonce")).toBe(browser.sessionStorage.getItem("google_nonce"));
    post("https://evil.example", { type: "kannt-demo-idp", credential: "forged" });
    post("https://kannt.example", { type: "something-else", credential: "other" });
    post("https://kannt.example", { type: "kannt-demo-idp", credential: "id.token.signed" });
    expect(await answer).toBe("id.token.signed");
    expect(listeners.size).toBe(0);
  });

  test("a blocked popup is only logged: no sign-in", async () => {
    open.mockReturnValueOnce(null);
    expect(await store.demoGooglePopup()).toBeUndefined();
  });

  test("a popup closed without signing in gives up after a moment for a late answer", async () => {
    vi.useFakeTimers();
    const answer = store.demoGooglePopup();
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(500);
    // The answer may still arrive just after the close is seen.
    post("https://kannt.example", { type: "kannt-demo-idp", credential: "late.token" });
    expect(await answer).toBe("late.token");

    const unanswered = store.demoGooglePopup();
    await vi.advanceTimersByTimeAsync(2000);
    expect(await unanswered).toBeUndefined();
    expect(listeners.size).toBe(0);
  });
});

describe("a Google credential", () => {
  test("is taken when its nonce is this tab's attempt, and the attempt is spent", () => {
    const nonce = store.startGoogleAttempt();
    const credential = idToken({
      sub: "google-uid",
      email: "someone@example.com",
      picture: "https://p/me.png",
      nonce,
    });
    expect(store.acceptGoogleCredential(credential)).toEqual({
      identity: {
        uid: "google-uid",
        email: "someone@example.com",
        photoURL: "https://p/me.png",
        providerId: "google.com",
        credential,
        nonce,
      },
    });
    // The same answer again is not this tab's attempt any more.
    expect(store.acceptGoogleCredential(credential)).toEqual({ problem: "not-this-attempt" });
  });

  test("another attempt's nonce, or none, is refused", () => {
    store.startGoogleAttempt();
    expect(
      store.acceptGoogleCredential(idToken({ sub: "u", email: "e@example.com", nonce: "forged" })),
    ).toEqual({
      problem: "not-this-attempt",
    });
    store.startGoogleAttempt();
    expect(store.acceptGoogleCredential(idToken({ sub: "u", email: "e@example.com" }))).toEqual({
      problem: "not-this-attempt",
    });
    expect(store.acceptGoogleCredential("not-a-token")).toEqual({ problem: "not-this-attempt" });
  });

  test("a token of this attempt without a subject or e-mail is unreadable; a missing picture is no photo", () => {
    let nonce = store.startGoogleAttempt();
    expect(store.acceptGoogleCredential(idToken({ sub: "google-uid", nonce }))).toEqual({
      problem: "unreadable",
    });
    nonce = store.startGoogleAttempt();
    const answer = store.acceptGoogleCredential(
      idToken({ sub: "google-uid", email: "someone@example.com", nonce }),
    );
    expect(answer).toMatchObject({ identity: { photoURL: "" } });
  });
});
