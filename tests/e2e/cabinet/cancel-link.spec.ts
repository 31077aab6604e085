import { type Browser, type BrowserContext, expect, type Page, type Route, test } from "@playwright/test";
import { signCancelToken } from "../../../bff/modules/subscriptions/cancel-token";
import { recordCspViolations } from "../../helpers/browser/csp-violations";
import {
  holdButton,
  makeCustomer,
  signInThroughUi,
  uniqueEmail,
  useLanguage,
} from "../../helpers/browser/pages";
import { serverTime } from "../../helpers/browser/purchase-helpers";
import { e2eJwtSecret } from "../../helpers/e2e-secrets";

// DESIGN §14: the cancel link of a renewal notice, `/cancel?token=…`, opened in a browser
// that never signed in. The test signs the token as the server would for the notice.

const dayMs = 24 * 60 * 60 * 1000;
/** As the screen writes a date in English, in this machine's time zone like the browser's. */
const englishDate = (iso: string) =>
  new Intl.DateTimeFormat("en", { day: "numeric", month: "long", year: "numeric" }).format(new Date(iso));

/** The user id of a customer the demo fixture makes with a subscription in `status`. */
async function fixtureUserId(page: Page, email: string, status: "ACTIVE" | "CANCELED") {
  const response = await page.request.post("/api/dev/fixtures/subscription", { data: { email, status } });
  return ((await response.json()) as { userId: number }).userId;
}

/** The user's cancel-link token, signed at the server's time. */
const cancelToken = async (page: Page, userId: number) =>
  signCancelToken(e2eJwtSecret, userId, await serverTime(page));

/** A browser with no storage and no cookies, whose pages must raise no CSP violation. */
async function freshBrowser(browser: Browser, language: "en" | "ru" = "en") {
  const context = await browser.newContext();
  const violations = await recordCspViolations(context);
  // As `useLanguage` does for a page: the visitor's interface language, before any script runs.
  await context.addInitScript((lang) => {
    if (!localStorage.getItem("i18nextLng")) localStorage.setItem("i18nextLng", lang);
  }, language);
  const page = await context.newPage();
  return { context, page, violations };
}

/** Presses the button named `name` with the mouse for `milliseconds`, then releases it. */
const hold = (page: Page, name: string, milliseconds: number) =>
  holdButton(page, page.getByRole("button", { name }), milliseconds);

/** The address bar and the history entry keep no token. */
async function expectTokenGone(page: Page) {
  await expect(page).toHaveURL(/\/cancel\/?$/);
  expect(await page.evaluate(() => `${location.search}${location.hash}`)).toBe("");
}

async function sessionCookies(context: BrowserContext) {
  return (await context.cookies()).filter((cookie) => cookie.name === "kannt_session");
}

test("a customer who paid cancels from the link in a browser that never signed in", async ({
  page,
  browser,
}) => {
  await useLanguage(page, "en");
  const email = uniqueEmail("link.buyer");
  await signInThroughUi(page, email);
  const uid = await page.evaluate(() => localStorage.getItem("uid"));
  const order = await page.request.post("/api/shop/order", { data: { uid, email, tariff: 1, period: 30 } });
  expect(order.status(), await order.text()).toBe(200);
  const { invoiceId, accountId } = (await order.json()) as { invoiceId: string; accountId: string };
  const paid = await page.request.post("/api/dev/sandbox/pay", {
    data: { invoiceId, cardNumber: "4242 4242 4242 4242" },
  });
  expect(((await paid.json()) as { success: boolean }).success).toBe(true);
  const profile = async () =>
    (
      (await (await page.request.post("/api/profile", { data: { uid, email } })).json()) as {
        userInfo: { subscriptionStatus: string; expirationDate: string };
      }
    ).userInfo;
  const { expirationDate } = await profile();
  const userId = Number(accountId.replace("customer-", ""));
  const token = await cancelToken(page, userId);

  const visitor = await freshBrowser(browser);
  await visitor.page.goto(`/cancel?token=${token}`);
  await expect(visitor.page.getByText(`Cancelling the subscription of ${email}`)).toBeVisible();
  await expect(visitor.page.getByText(/We are sorry to see you go/)).toBeVisible();
  await expect(
    visitor.page.getByRole("heading", { name: "Are you sure you want to cancel your subscription?" }),
  ).toBeVisible();
  await expectTokenGone(visitor.page);

  // A short press does nothing; the 2-second hold cancels.
  await hold(visitor.page, "Cancel subscription", 800);
  await visitor.page.waitForTimeout(1_500);
  expect((await profile()).subscriptionStatus).toBe("ACTIVE");
  await hold(visitor.page, "Cancel subscription", 2_300);
  await expect(visitor.page.getByRole("heading", { name: "Your subscription is cancelled" })).toBeVisible();
  await expect(visitor.page.getByRole("status")).toHaveText(
    `Access stays open until ${englishDate(expirationDate)}, and nothing more will be charged.`,
  );
  const cabinet = visitor.page.getByRole("link", { name: "Sign in to the personal cabinet" });
  await expect(cabinet).toHaveAttribute("href", "/login");
  await expectTokenGone(visitor.page);

  expect(await profile()).toMatchObject({ subscriptionStatus: "CANCELED", expirationDate });
  expect(await sessionCookies(visitor.context)).toEqual([]);
  expect(
    await visitor.page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage })),
  ).not.toContain(token);

  await cabinet.click();
  await visitor.page.waitForURL("**/login");
  // Going back returns to the cancel screen's entry, which no longer carries the token.
  const visited: string[] = [];
  visitor.page.on("framenavigated", (frame) => {
    if (frame === visitor.page.mainFrame()) visited.push(frame.url());
  });
  await visitor.page.goBack();
  expect(visited[0]).toMatch(/\/cancel\/?$/);
  expect(visitor.violations).toEqual([]);
  await visitor.context.close();
});

test("an expired or garbage link says so, with the way to sign in, and cancels nothing", async ({
  page,
  browser,
}) => {
  const email = uniqueEmail("link.expired");
  const userId = await fixtureUserId(page, email, "ACTIVE");
  const eightDaysAgo = (await serverTime(page)) - 8 * dayMs;
  const visitor = await freshBrowser(browser);
  for (const token of [signCancelToken(e2eJwtSecret, userId, eightDaysAgo), "garbage"]) {
    await visitor.page.goto(`/cancel?token=${token}`);
    await expect(visitor.page.getByRole("heading", { name: "This cancel link does not work" })).toBeVisible();
    await expect(visitor.page.getByRole("alert")).toHaveText(
      "This cancel link is invalid or has expired (a link works for 7 days). Sign in to your personal cabinet to cancel your subscription there.",
    );
    await expect(visitor.page.getByRole("link", { name: "Sign in to the personal cabinet" })).toHaveAttribute(
      "href",
      "/login",
    );
    await expect(visitor.page.getByRole("button", { name: "Cancel subscription" })).toHaveCount(0);
    await expectTokenGone(visitor.page);
  }
  const valid = await cancelToken(page, userId);
  const state = await page.request.post("/api/subscriptions/cancel-link", { data: { token: valid } });
  expect(((await state.json()) as { status: string }).status).toBe("ACTIVE");
  expect(visitor.violations).toEqual([]);
  await visitor.context.close();

  const russian = await freshBrowser(browser, "ru");
  await russian.page.goto("/cancel?token=garbage");
  await expect(russian.page.getByRole("heading", { name: "Ссылка для отмены не работает" })).toBeVisible();
  await expect(russian.page.getByRole("alert")).toContainText("недействительна или устарела");
  await russian.context.close();
});

test("an already cancelled subscription says until when access runs", async ({ page, browser }) => {
  const email = uniqueEmail("link.cancelled");
  const userId = await fixtureUserId(page, email, "CANCELED");
  const token = await cancelToken(page, userId);
  const account = await page.request.post("/api/subscriptions/cancel-link", { data: { token } });
  const { endDate } = (await account.json()) as { endDate: string };
  const visitor = await freshBrowser(browser);
  await visitor.page.goto(`/cancel?token=${token}`);
  await expect(
    visitor.page.getByRole("heading", { name: `The subscription of ${email} is already cancelled` }),
  ).toBeVisible();
  await expect(visitor.page.getByRole("status")).toHaveText(
    `Access stays open until ${englishDate(endDate)}, and nothing more will be charged.`,
  );
  await expect(visitor.page.getByRole("button", { name: "Cancel subscription" })).toHaveCount(0);
  expect(visitor.violations).toEqual([]);
  await visitor.context.close();
});

test("a failed load is said and can be retried with the token kept in memory only", async ({
  page,
  browser,
}) => {
  const email = uniqueEmail("link.retry");
  const userId = await fixtureUserId(page, email, "ACTIVE");
  const visitor = await freshBrowser(browser);
  await visitor.page.route("**/api/subscriptions/cancel-link", (route) => route.abort());
  await visitor.page.goto(`/cancel?token=${await cancelToken(page, userId)}`);
  await expect(visitor.page.getByRole("heading", { name: "Could not open the cancel link" })).toBeVisible();
  await expect(visitor.page.getByRole("alert")).toHaveText(
    "The server could not be reached. Check your connection and try again.",
  );
  await expectTokenGone(visitor.page);
  await visitor.page.unroute("**/api/subscriptions/cancel-link");
  await visitor.page.getByRole("button", { name: "Try again" }).click();
  await expect(visitor.page.getByText(`Cancelling the subscription of ${email}`)).toBeVisible();
  expect(visitor.violations).toEqual([]);
  await visitor.context.close();
});

test("by the link, a server that failed is said to have failed, not to be out of reach", async ({
  page,
  browser,
}) => {
  const email = uniqueEmail("link.server");
  const userId = await fixtureUserId(page, email, "ACTIVE");
  const visitor = await freshBrowser(browser);
  const failing = (route: Route) =>
    route.fulfill({ status: 502, contentType: "text/html", body: "<h1>Bad Gateway</h1>" });
  await visitor.page.route("**/api/subscriptions/cancel-link", failing);
  await visitor.page.goto(`/cancel?token=${await cancelToken(page, userId)}`);
  await expect(visitor.page.getByRole("heading", { name: "Could not open the cancel link" })).toBeVisible();
  await expect(visitor.page.getByRole("alert")).toHaveText(
    "Something went wrong on our server. Please try again later.",
  );
  await visitor.page.unroute("**/api/subscriptions/cancel-link");
  await visitor.page.getByRole("button", { name: "Try again" }).click();
  await expect(visitor.page.getByText(`Cancelling the subscription of ${email}`)).toBeVisible();

  await visitor.page.route("**/api/subscriptions/cancel-link/cancel", (route) =>
    route.fulfill({ status: 500, json: { success: false, error: { code: "internal", message: "Oops." } } }),
  );
  await hold(visitor.page, "Cancel subscription", 2600);
  await expect(visitor.page.getByRole("alert")).toHaveText(
    "The subscription was not cancelled: something went wrong on our server. Nothing has changed; please try again later.",
  );
  await visitor.page.unroute("**/api/subscriptions/cancel-link/cancel");
  await visitor.page.route("**/api/subscriptions/cancel-link/cancel", (route) =>
    route.abort("connectionreset"),
  );
  await hold(visitor.page, "Cancel subscription", 2600);
  await expect(visitor.page.getByRole("alert")).toContainText("the server could not be reached");
  expect(visitor.violations).toEqual([]);
  await visitor.context.close();
});

test("without a token the screen is the cabinet's, as before: no active subscription goes to /profile", async ({
  page,
}) => {
  await useLanguage(page, "en");
  await signInThroughUi(page, uniqueEmail("link.none"));
  await page.goto("/cancel");
  await page.waitForURL("**/profile");
});

test.describe("the signed-in /cancel", () => {
  test("a signed-out visit goes to sign-in and says where to come back", async ({ page }) => {
    await useLanguage(page, "en");
    await page.goto("/cancel");
    await page.waitForURL(/\/login\?next=%2Fcancel$/);
  });

  test("a failed profile call shows an error with a retry, never 'nothing to cancel'", async ({ page }) => {
    await useLanguage(page, "en");
    const email = uniqueEmail("cancel.fails");
    await makeCustomer(page, { email, status: "ACTIVE" });
    await signInThroughUi(page, email);
    await page.route("**/api/profile", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"success":false}' }),
    );
    await page.goto("/cancel");
    await expect(page.getByRole("heading", { name: "Could not load your subscription" })).toBeVisible();
    await expect(page.getByRole("alert")).toContainText("Nothing has changed in your subscription");
    // The server answered that it failed: not the connection's fault.
    await expect(page.getByRole("alert")).toContainText("Something went wrong on our server");
    await expect(page.getByRole("alert")).not.toContainText("could not be reached");
    await expect(page).toHaveURL(/\/cancel$/);
    await expect(page).toHaveTitle("Cancel subscription | Kannt");
    await page.unroute("**/api/profile");
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(
      page.getByRole("heading", { name: "Are you sure you want to cancel your subscription?" }),
    ).toBeVisible();
  });

  test("a cancel that fails keeps the screen and says so; one that works confirms the end of access", async ({
    page,
  }) => {
    await useLanguage(page, "en");
    const email = uniqueEmail("cancel.retry");
    await makeCustomer(page, { email, status: "ACTIVE" });
    await signInThroughUi(page, email);
    await page.goto("/cancel");
    await expect(
      page.getByRole("heading", { name: "Are you sure you want to cancel your subscription?" }),
    ).toBeVisible();
    await page.route("**/api/subscriptions/cancel", (route) => route.abort("connectionreset"));
    await hold(page, "Cancel subscription", 2600);
    await expect(page.getByRole("alert")).toHaveText(
      "The subscription was not cancelled: the server could not be reached. Check your connection and hold the button again.",
    );
    await expect(page).toHaveURL(/\/cancel$/);

    // A server that failed (a proxy's 500 page, no words of the app's): said so, try later.
    await page.unroute("**/api/subscriptions/cancel");
    await page.route("**/api/subscriptions/cancel", (route) =>
      route.fulfill({ status: 500, contentType: "text/html", body: "<h1>Internal Server Error</h1>" }),
    );
    await hold(page, "Cancel subscription", 2600);
    await expect(page.getByRole("alert")).toHaveText(
      "The subscription was not cancelled: something went wrong on our server. Nothing has changed; please try again later.",
    );
    await expect(page).toHaveURL(/\/cancel$/);

    // A server that answered is not blamed on the connection: its own words are shown.
    await page.unroute("**/api/subscriptions/cancel");
    const words = "A payment is being processed; try again in a minute.";
    await page.route("**/api/subscriptions/cancel", (route) =>
      route.fulfill({
        status: 409,
        json: { success: false, error: { code: "payment_pending", message: words } },
      }),
    );
    await hold(page, "Cancel subscription", 2600);
    await expect(page.getByRole("alert")).toHaveText(words);

    await page.unroute("**/api/subscriptions/cancel");
    await hold(page, "Cancel subscription", 2600);
    await page.waitForURL("**/profile");
    await expect(page.getByRole("status").filter({ hasText: "Subscription cancelled" })).toContainText(
      /access stays open until (\d{1,2} [A-Z][a-z]+ \d{4}|[A-Z][a-z]+ \d{1,2}, \d{4})/,
    );
  });

  test("in Kazakh the screen and its tab title read in Kazakh", async ({ page }) => {
    await useLanguage(page, "kk");
    const email = uniqueEmail("cancel.kk");
    await makeCustomer(page, { email, status: "ACTIVE" });
    await signInThroughUi(page, email);
    await page.goto("/cancel");
    await expect(page).toHaveTitle("Жазылымды тоқтату | Kannt");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/[әғқңөұүһі]/);
  });
});
