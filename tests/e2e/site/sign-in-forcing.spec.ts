import { expect, type Page, test } from "@playwright/test";
import {
  buyAnonymously,
  signInThroughUi,
  signInWithDemoProvider,
  uniqueEmail,
  useLanguage,
} from "../../helpers/browser/pages";

type DemoToken = { credential: string; uid: string; email: string; photoURL: string; providerId: string };

/** A token the demo provider issued elsewhere: what a forcing page or link would carry. */
async function tokenFromElsewhere(
  page: Page,
  email: string,
  provider: "google.com" | "yandex",
  nonce?: string,
) {
  const response = await page.request.post("/api/dev/idp/token", { data: { email, provider, nonce } });
  expect(response.status()).toBe(200);
  return (await response.json()) as DemoToken;
}

/** Every /api/register body this page sends, in order. */
function recordRegistrations(page: Page): Record<string, unknown>[] {
  const bodies: Record<string, unknown>[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/register") bodies.push(request.postDataJSON());
  });
  return bodies;
}

const claimsOf = (credential: string) =>
  JSON.parse(Buffer.from(credential.split(".")[1] ?? "", "base64url").toString()) as { nonce?: string };

const stored = (page: Page, key: string) => page.evaluate((name) => localStorage.getItem(name), key);

async function expectSignedOut(page: Page) {
  expect(await stored(page, "email")).toBeNull();
  expect(await stored(page, "yandex_token")).toBeNull();
  const profile = await page.request.post("/api/profile", { data: { email: "nobody@example.com" } });
  expect(profile.status()).toBe(401);
}

test.beforeEach(async ({ page }) => {
  await useLanguage(page, "en");
});

test.describe("Yandex state", () => {
  test("/yauth with a valid token but no state refuses and signs nobody in", async ({ page }) => {
    const registrations = recordRegistrations(page);
    const token = await tokenFromElsewhere(page, uniqueEmail("forced"), "yandex");
    await page.goto(`/yauth#access_token=${token.credential}&token_type=bearer&expires_in=3600`);
    await expect(page.getByRole("alert")).toHaveText(
      "This sign-in was not started in this browser tab, so it was not used.",
    );
    await expect(page.getByRole("link", { name: "Sign in again" })).toHaveAttribute("href", "/login");
    expect(registrations).toEqual([]);
    await expectSignedOut(page);
  });

  test("/yauth-mobile outside the app refuses an answer without state; inside the app it hands it over", async ({
    page,
  }) => {
    const token = await tokenFromElsewhere(page, uniqueEmail("mobile"), "yandex");
    const fragment = `#access_token=${token.credential}&token_type=bearer&expires_in=3600`;
    await page.goto(`/yauth-mobile${fragment}`);
    await expect(page.getByRole("alert")).toHaveText(
      "This sign-in was not started in this browser tab, so it was not used.",
    );
    // The native app starts Yandex itself and checks its own state; its bridge receives the identity.
    await page.addInitScript(() => {
      const messages: string[] = [];
      (window as unknown as { yAuthMessages: string[] }).yAuthMessages = messages;
      (window as unknown as { yAuth: { postMessage(message: string): void } }).yAuth = {
        postMessage: (message) => messages.push(message),
      };
    });
    // A new document (a fragment change alone would not load the page again).
    await page.goto("/login");
    await page.goto(`/yauth-mobile${fragment}`);
    await expect(page.getByRole("status")).toHaveText("You have successfully logged in");
    const messages = await page.evaluate(
      () => (window as unknown as { yAuthMessages: string[] }).yAuthMessages,
    );
    expect(JSON.parse(messages[0] ?? "{}")).toMatchObject({ email: token.email, uid: token.uid });
  });

  test("/yauth with another state than this tab started refuses, and the started state is spent", async ({
    page,
  }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign in with Yandex" }).click();
    await page.waitForURL("**/dev-idp?**");
    expect(await page.evaluate(() => sessionStorage.getItem("yandex_state"))).toMatch(/^[0-9a-f]{32}$/);
    const registrations = recordRegistrations(page);
    const token = await tokenFromElsewhere(page, uniqueEmail("forced"), "yandex");
    await page.goto(`/yauth#access_token=${token.credential}&state=chosen-by-someone-else`);
    await expect(page.getByRole("alert")).toHaveText(/not started in this browser tab/);
    expect(registrations).toEqual([]);
    expect(await page.evaluate(() => sessionStorage.getItem("yandex_state"))).toBeNull();
    await expectSignedOut(page);
  });

  test("the demo provider carries the state there and back, and the sign-in goes through once", async ({
    page,
  }) => {
    const email = uniqueEmail("yandex-state");
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign in with Yandex" }).click();
    await page.waitForURL("**/dev-idp?**");
    const sent = new URL(page.url()).searchParams.get("state");
    expect(sent).toMatch(/^[0-9a-f]{32}$/);
    expect(sent).toBe(await page.evaluate(() => sessionStorage.getItem("yandex_state")));
    const callback = page.waitForURL((url) => url.pathname === "/yauth");
    await page.getByLabel("E-mail").fill(email);
    await page.getByRole("button", { name: "Continue" }).click();
    await callback;
    await page.waitForURL("**/profile");
    await expect(page.getByText(email)).toBeVisible();
    expect(await page.evaluate(() => sessionStorage.getItem("yandex_state"))).toBeNull();
    expect(await stored(page, "isYandexAuth")).toBe("true");
  });
});

test.describe("Google nonce", () => {
  test("the popup asks for a nonce, the ID token carries it, and register sends it", async ({ page }) => {
    const registrations = recordRegistrations(page);
    const email = uniqueEmail("google-nonce");
    await page.goto("/login");
    const popupPromise = page.waitForEvent("popup");
    await page.getByRole("button", { name: "Sign in with Google" }).click();
    const popup = await popupPromise;
    const nonce = new URL(popup.url()).searchParams.get("nonce");
    expect(nonce).toMatch(/^[0-9a-f]{32}$/);
    await popup.getByLabel("E-mail").fill(email);
    await popup.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL("**/profile");
    expect(registrations).toHaveLength(1);
    const body = registrations[0] as { nonce?: string; credential: string };
    expect(body.nonce).toBe(nonce);
    expect(claimsOf(body.credential).nonce).toBe(nonce);
    expect(await page.evaluate(() => sessionStorage.getItem("google_nonce"))).toBeNull();
  });

  test("an ID token that answers another attempt is not used", async ({ page }) => {
    const registrations = recordRegistrations(page);
    await page.goto("/login");
    const popupPromise = page.waitForEvent("popup");
    await page.getByRole("button", { name: "Sign in with Google" }).click();
    const popup = await popupPromise;
    const foreign = await tokenFromElsewhere(page, uniqueEmail("foreign"), "google.com", "another-nonce");
    // A message of the same shape the demo popup posts, carrying someone else's token.
    await page.evaluate((credential) => {
      window.postMessage({ type: "kannt-demo-idp", credential }, location.origin);
    }, foreign.credential);
    await expect(page.getByRole("alert")).toHaveText(/was not started on this page, so it was not used/);
    await popup.close();
    expect(registrations).toEqual([]);
    await expectSignedOut(page);
  });
});

/** What the native app opens: the identity in the query, the credential in the fragment. */
const mobileEntryUrl = (page: "/mobileProfile" | "/mobileShop", token: DemoToken) =>
  `${page}?${new URLSearchParams({
    email: token.email,
    uid: token.uid,
    photoURL: token.photoURL,
    providerId: token.providerId,
  })}#credential=${token.credential}`;

test.describe("an entry page with a credential asks in a browser that holds no account", () => {
  test("/mobileProfile asks to continue as the arriving account and signs in only after Continue", async ({
    page,
  }) => {
    const arriving = await tokenFromElsewhere(page, uniqueEmail("link"), "google.com");
    const registrations = recordRegistrations(page);
    await page.goto(mobileEntryUrl("/mobileProfile", arriving));
    await expect(page.getByRole("heading", { name: `Continue as ${arriving.email}?` })).toBeVisible();
    expect(registrations).toEqual([]);
    await expectSignedOut(page);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByTestId("status-dot")).toBeVisible();
    await expect(page.getByText(arriving.email)).toBeVisible();
    expect(registrations).toHaveLength(1);
    expect(registrations[0]).toMatchObject({ email: arriving.email, credential: arriving.credential });
    expect(await stored(page, "email")).toBe(arriving.email);
  });

  test("/mobileShop: Not my account sends and stores nothing and leaves without the credential", async ({
    page,
  }) => {
    const arriving = await tokenFromElsewhere(page, uniqueEmail("declined"), "google.com");
    const registrations = recordRegistrations(page);
    await page.goto("/login");
    await page.goto(mobileEntryUrl("/mobileShop", arriving));
    await expect(page.getByRole("heading", { name: `Continue as ${arriving.email}?` })).toBeVisible();
    await page.getByRole("button", { name: "Not my account" }).click();
    await page.waitForURL((url) => url.pathname === "/" || url.pathname === "/en/");
    expect(page.url()).not.toContain(arriving.credential);
    expect(registrations).toEqual([]);
    await expectSignedOut(page);
    // The address with the credential was replaced, not kept in the history: Back is the page before it.
    await page.goBack();
    await page.waitForURL((url) => url.pathname === "/login");
    expect(page.url()).not.toContain("credential");
  });

  test("inside the native app, recognised by its bridge, it goes straight on", async ({ page }) => {
    await page.addInitScript(() => {
      (window as unknown as { yAuth: { postMessage(message: string): void } }).yAuth = { postMessage() {} };
    });
    const arriving = await tokenFromElsewhere(page, uniqueEmail("in-app"), "google.com");
    const registrations = recordRegistrations(page);
    await page.goto(mobileEntryUrl("/mobileProfile", arriving));
    await expect(page.getByTestId("status-dot")).toBeVisible();
    await expect(page.getByText(arriving.email)).toBeVisible();
    await expect(page.getByRole("heading", { name: /^Continue as/ })).toHaveCount(0);
    expect(registrations).toHaveLength(1);
    expect(await stored(page, "email")).toBe(arriving.email);
  });
});

test.describe("an entry page with another account asks before switching", () => {
  const mobileProfileUrl = (token: DemoToken) => mobileEntryUrl("/mobileProfile", token);

  test("/mobileProfile: keeping the current account changes nothing", async ({ page }) => {
    const current = uniqueEmail("current");
    await signInThroughUi(page, current);
    const other = await tokenFromElsewhere(page, uniqueEmail("other"), "google.com");
    const registrations = recordRegistrations(page);
    await page.goto(mobileProfileUrl(other));
    await expect(page.getByRole("heading", { name: "Switch account?" })).toBeVisible();
    await expect(page.getByText(`You are signed in as ${current}. Switch to ${other.email}?`)).toBeVisible();
    expect(await stored(page, "email")).toBe(current);
    await page.getByRole("button", { name: "Keep current account" }).click();
    await page.waitForURL("**/profile");
    await expect(page.getByText(current)).toBeVisible();
    expect(registrations).toEqual([]);
    expect(await stored(page, "email")).toBe(current);
  });

  test("/mobileProfile: switching signs the arriving account in, and it is not asked about again", async ({
    page,
  }) => {
    await signInThroughUi(page, uniqueEmail("before"));
    const other = await tokenFromElsewhere(page, uniqueEmail("after"), "google.com");
    await page.goto(mobileProfileUrl(other));
    await page.getByRole("button", { name: "Switch account" }).click();
    await expect(page.getByText(other.email)).toBeVisible();
    await expect(page.getByTestId("status-dot")).toBeVisible();
    expect(await stored(page, "email")).toBe(other.email);
    // The account now held arriving again is not a switch: no question.
    await page.goto(mobileProfileUrl(other));
    await expect(page.getByTestId("status-dot")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Switch account?" })).toHaveCount(0);
  });

  test("/yauth with another Yandex account asks, and keeping it leaves the current one", async ({ page }) => {
    const current = uniqueEmail("held");
    await signInThroughUi(page, current);
    // The cabinet's own calls finish first: with the cookie gone they would go to sign-in.
    await expect(page.getByTestId("status-dot")).toBeVisible();
    // /login sends a signed-in visitor on to the cabinet; with the session gone (this
    // browser still holds the account), it offers the buttons, and Yandex comes back.
    await page.context().clearCookies();
    const registrations = recordRegistrations(page);
    const arriving = uniqueEmail("arriving");
    await signInWithDemoProvider(page, arriving, "yandex");
    await expect(page.getByText(`You are signed in as ${current}. Switch to ${arriving}?`)).toBeVisible();
    expect(registrations).toEqual([]);
    expect(await stored(page, "yandex_token")).toBeNull();
    await page.getByRole("button", { name: "Keep current account" }).click();
    // The kept account's session has ended, so the cabinet asks it to sign in again.
    await page.waitForURL("**/login?next=%2Fprofile");
    expect(registrations).toEqual([]);
    expect(await stored(page, "email")).toBe(current);
  });
});

test.describe("a prepaid purchase is bound only after the customer confirms", () => {
  test("nothing is sent before Attach; Attach binds it and clears the stored purchase", async ({ page }) => {
    await buyAnonymously(page);
    const paymentId = await stored(page, "userID");
    const registrations = recordRegistrations(page);
    const email = uniqueEmail("attach");
    await signInWithDemoProvider(page, email, "google.com", "/instantLogin");
    const question = page.getByRole("dialog", { name: "Attach your purchase" });
    await expect(question).toContainText(`Attach this purchase to ${email}?`);
    expect(registrations).toHaveLength(1);
    expect(registrations[0]?.prepaidToken).toBeUndefined();
    const profile = await page.request.post("/api/profile", { data: { email } });
    expect(((await profile.json()) as { userInfo: { subscriptionStatus: string } }).userInfo).toMatchObject({
      subscriptionStatus: "NOT_ACTIVE",
    });
    await question.getByRole("button", { name: "Attach" }).click();
    await page.waitForURL("**/profile");
    expect(registrations).toHaveLength(2);
    expect(registrations[1]?.prepaidToken).toBe(paymentId);
    await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "green");
    await expect(page.getByRole("status").filter({ hasText: `attached to ${email}` })).toBeVisible();
    expect([await stored(page, "payment"), await stored(page, "userID")]).toEqual([null, null]);
  });

  test("Not now keeps the purchase stored and unbound", async ({ page }) => {
    await buyAnonymously(page);
    const paymentId = await stored(page, "userID");
    const registrations = recordRegistrations(page);
    await signInWithDemoProvider(page, uniqueEmail("decline"), "google.com", "/instantLogin");
    await page.getByRole("button", { name: "Not now" }).click();
    await page.waitForURL("**/profile");
    await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "red");
    expect(registrations.map((body) => body.prepaidToken)).toEqual([undefined]);
    expect([await stored(page, "payment"), await stored(page, "userID")]).toEqual(["completed", paymentId]);
  });

  test("a refused binding explains itself on screen", async ({ page }) => {
    await buyAnonymously(page);
    const paymentId = (await stored(page, "userID")) ?? "";
    await signInWithDemoProvider(page, uniqueEmail("first-owner"), "google.com", "/instantLogin");
    await page.getByRole("button", { name: "Attach" }).click();
    await page.waitForURL("**/profile");
    // The same purchase offered again to another account in this browser.
    await page.getByRole("button", { name: "Change account" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/profile"));
    await page.evaluate((id) => {
      localStorage.setItem("payment", "completed");
      localStorage.setItem("userID", id);
    }, paymentId);
    const secondOwner = uniqueEmail("second-owner");
    await signInWithDemoProvider(page, secondOwner);
    // The preview already says it cannot be attached: the refusal alone, no question to attach.
    const refusal = page.getByRole("dialog", { name: "This purchase cannot be attached" });
    await expect(refusal).toContainText(
      `It cannot be attached to ${secondOwner}: This purchase is already attached to another account. Sign in with that account to use it.`,
    );
    await expect(refusal.getByRole("button", { name: "Attach" })).toHaveCount(0);
    expect(page.url()).toContain("/login");
    await refusal.getByRole("button", { name: "Not now" }).click();
    await page.waitForURL("**/profile");
    await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "red");
  });
});
