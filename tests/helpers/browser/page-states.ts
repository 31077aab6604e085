import { readFileSync } from "node:fs";
import { expect, type Page } from "@playwright/test";
import { signCancelToken } from "../../../bff/modules/subscriptions/cancel-token";
import { languageCookieName, languageStorageKey } from "../../../core/languages";
import { e2eJwtSecret } from "../e2e-secrets";
import { drawn } from "./drawn";
import { makeCustomer, panelAdmin, signInThroughUi, uniqueEmail } from "./pages";
import { panelAdminTokens } from "./panel-admin";
import { payingCustomerThroughApi } from "./paying-customer";

/**
 * Every page of the product in its main states, reached as a visitor, customer or
 * operator would reach it, so the accessibility check, the untranslated-words check and
 * the screenshot script look at exactly the same screens.
 */

export const screenLanguages = ["ru", "en", "zh", "kk"] as const;
export type ScreenLanguage = (typeof screenLanguages)[number];

export type Area = "public" | "sign-in" | "cabinet" | "promo" | "cancel" | "panel" | "dev";

export type Screen = {
  area: Area;
  /** Short names for files and messages: `<page>-<state>`. */
  page: string;
  state: string;
  /** Brings the page to the state in `language`; the page is fresh (no storage, no cookies). */
  open(page: Page, language: ScreenLanguage): Promise<void>;
  /**
   * Brings a page that `open` (or this) left on the screen to the same state in another
   * language, in place: the language switched as the product's switchers do, and the page
   * loaded again. What says nothing about the language stays (an operator's sign-in); what
   * does is made again in `language` (a customer, who keeps the language they signed up in).
   */
  switchTo(page: Page, language: ScreenLanguage): Promise<void>;
};

type Status = "NOT_ACTIVE" | "ACTIVE" | "CANCELED" | "CANCELED_OVER" | "EXPIRED";

/** A text of the language files, so a screen is driven by what it shows in any language. */
function text(language: ScreenLanguage, key: string): string {
  const texts = JSON.parse(readFileSync(`core/i18n/${language}.json`, "utf8")) as Record<string, string>;
  const value = texts[key];
  if (value === undefined) throw new Error(`no text ${key} in ${language}.json`);
  return value;
}

/** Session storage's note that this tab's language was chosen, so a later switch outlasts reloads. */
const languageChosen = "qa-language-chosen";

/** The interface language of the pages this tab opens, before any script runs. */
async function setLanguage(page: Page, language: ScreenLanguage) {
  await page.addInitScript(
    ({ lang, key, chosen }) => {
      if (sessionStorage.getItem(chosen)) return;
      localStorage.setItem(key, lang);
      sessionStorage.setItem(chosen, "1");
    },
    { lang: language, key: languageStorageKey, chosen: languageChosen },
  );
}

/**
 * Chooses `language` on the page as it is, the way the product's language switchers do
 * (`persistLanguage`: local storage and the cookie the server reads), for the loads that follow.
 */
export async function switchLanguage(page: Page, language: ScreenLanguage) {
  await page.evaluate(
    ({ lang, key, cookie, chosen }) => {
      localStorage.setItem(key, lang);
      // biome-ignore lint/suspicious/noDocumentCookie: the plain cookie the product's switchers write.
      document.cookie = `${cookie}=${lang}; path=/; max-age=31536000; samesite=lax`;
      sessionStorage.setItem(chosen, "1");
    },
    { lang: language, key: languageStorageKey, cookie: languageCookieName, chosen: languageChosen },
  );
}

/**
 * A screen reached by its address alone: `show` brings the page there in a language chosen
 * before (freshly, or switched in place).
 */
function addressed(
  area: Area,
  page: string,
  state: string,
  show: (page: Page, language: ScreenLanguage) => Promise<void>,
): Screen {
  return {
    area,
    page,
    state,
    async open(browserPage, language) {
      await setLanguage(browserPage, language);
      await show(browserPage, language);
    },
    async switchTo(browserPage, language) {
      await switchLanguage(browserPage, language);
      await show(browserPage, language);
    },
  };
}

/**
 * Waits until the page has drawn what its calls brought: no request in flight (half a
 * second without one), no loading text left, then the page drawn as it now is (`drawn`).
 */
export async function settle(page: Page) {
  await page.waitForLoadState("networkidle").catch(() => undefined);
  await page
    .locator('[aria-busy="true"]')
    .first()
    .waitFor({ state: "detached", timeout: 5_000 })
    .catch(() => undefined);
  await drawn(page);
}

/** Device names as customers' phones report them; Latin model names would read as untranslated. */
const deviceNames = ["Android 15", "Android 14"];

type Made = { uid: string; email: string; userId: number };

/**
 * A signed-in customer in `status` (or only trial-paid), on /profile in `language`. In place,
 * the customer signed in before is signed out first, as the cabinet's change of account does:
 * a customer keeps the language they signed up in (their currency, the server's words to them),
 * so each language has a customer of its own.
 */
async function signedInCustomer(
  page: Page,
  language: ScreenLanguage,
  status: Status,
  extra: Record<string, unknown> = {},
  inPlace = false,
): Promise<Made> {
  if (inPlace) {
    await changeAccount(page);
    await switchLanguage(page, language);
  } else await setLanguage(page, language);
  const made = await makeCustomer(page, {
    email: uniqueEmail(status.toLowerCase()),
    status,
    language,
    deviceNames,
    ...extra,
  });
  await signInThroughUi(page, made.email);
  return made;
}

/** The cabinet's change of account (stores/cabinet.ts): the session ended, the stored customer forgotten. */
async function changeAccount(page: Page) {
  await page.evaluate(async () => {
    await fetch("/api/session/logout", { method: "POST" });
    localStorage.clear();
  });
}

/**
 * An operator session as the login form leaves it (the token pair in storage), made
 * through the login call itself so each screen does not wait for the captcha in the page.
 */
async function signedInOperator(page: Page, language: ScreenLanguage) {
  await setLanguage(page, language);
  const tokens = await panelAdminTokens();
  await page.addInitScript((pair) => {
    if (!sessionStorage.getItem("qa-signed-in")) {
      localStorage.setItem("accessToken", pair.accessToken);
      localStorage.setItem("refreshToken", pair.refreshToken);
      sessionStorage.setItem("qa-signed-in", "1");
    }
  }, tokens);
}

/**
 * The panel's chosen customer, as picking one in the search leaves it: before the first page
 * loads, or in place on the page as it is (a later choice then outlasts reloads).
 */
async function choosePerson(page: Page, person: Made, inPlace = false) {
  const choose = ({ chosen, once }: { chosen: Made; once: boolean }) => {
    if (once && sessionStorage.getItem("qa-person-chosen")) return;
    localStorage.setItem("selected_person", String(chosen.userId));
    localStorage.setItem("selected_person_email", chosen.email);
    localStorage.setItem("selected_person_uid", chosen.uid);
    sessionStorage.setItem("qa-person-chosen", "1");
  };
  const argument = { chosen: person, once: !inPlace };
  if (inPlace) await page.evaluate(choose, argument);
  else await page.addInitScript(choose, argument);
}

async function visit(page: Page, path: string) {
  await page.goto(path);
  await settle(page);
}

const publicPages = [
  { page: "landing", path: "" },
  { page: "offer", path: "offer" },
  { page: "tt", path: "tt" },
  { page: "yt", path: "yt" },
];

const cabinetStates: { state: string; status: Status; extra?: Record<string, unknown> }[] = [
  { state: "new", status: "NOT_ACTIVE" },
  { state: "trial", status: "ACTIVE", extra: { paid: "trial", devices: 1 } },
  { state: "active", status: "ACTIVE", extra: { devices: 2, inactiveDevices: 1 } },
  { state: "cancelled", status: "CANCELED", extra: { devices: 1 } },
  { state: "expired", status: "EXPIRED" },
  { state: "cancelled-over", status: "CANCELED_OVER" },
];

const panelPages = [
  "panel",
  "panel-search",
  "panel-user",
  "panel-subscription",
  "panel-receipts",
  "panel-invited",
  "panel-promo",
  "panel-logs",
  "panel-audit",
  "panel-staff",
  "panel-dashboard",
  "panel-nodes",
  "panel-payments",
  "panel-security",
];

/**
 * A customer's screen: `show` brings the cabinet there once a customer of `language` in
 * `status` has signed in, freshly or after the previous language's customer changed account.
 */
function customerScreen(
  area: Area,
  state: string,
  customer: { status: Status; extra?: Record<string, unknown> },
  show: (page: Page, language: ScreenLanguage) => Promise<void>,
  page = "profile",
): Screen {
  return {
    area,
    page,
    state,
    async open(browserPage, language) {
      await signedInCustomer(browserPage, language, customer.status, customer.extra);
      await show(browserPage, language);
    },
    async switchTo(browserPage, language) {
      // What the last language's state faked (a failing call) must not meet the next sign-in.
      await browserPage.unrouteAll();
      await signedInCustomer(browserPage, language, customer.status, customer.extra, true);
      await show(browserPage, language);
    },
  };
}

/**
 * A panel screen with a customer of `language` chosen, for an operator signed in once: the
 * operator's session says nothing about the language and stays when it is switched.
 */
function operatorScreen(
  page: string,
  state: string,
  customer: {
    name: string;
    status: Status;
    extra?: Record<string, unknown>;
    /** A customer who paid the trial in the sandbox, signed up in this language: its first mails are queued in it. */
    paidInLanguage?: ScreenLanguage;
  },
  path: (person: Made) => string,
): Screen {
  const makePerson = (browserPage: Page, language: ScreenLanguage) =>
    customer.paidInLanguage
      ? payingCustomerThroughApi(browserPage, uniqueEmail(customer.name), customer.paidInLanguage)
      : makeCustomer(browserPage, {
          email: uniqueEmail(customer.name),
          status: customer.status,
          language,
          ...customer.extra,
        });
  return {
    area: "panel",
    page,
    state,
    async open(browserPage, language) {
      const person = await makePerson(browserPage, language);
      await signedInOperator(browserPage, language);
      await choosePerson(browserPage, person);
      await visit(browserPage, path(person));
    },
    async switchTo(browserPage, language) {
      const person = await makePerson(browserPage, language);
      await switchLanguage(browserPage, language);
      await choosePerson(browserPage, person, true);
      await visit(browserPage, path(person));
    },
  };
}

export const screens: Screen[] = [
  ...publicPages.map(({ page, path }) =>
    addressed("public", page, "default", (browserPage, language) =>
      visit(browserPage, `/${language}/${path}`),
    ),
  ),
  addressed("public", "root", "default", (page) => visit(page, "/")),
  // A visitor who chose a language on the site (kept in local storage and the cookie the
  // server reads for a 404) then followed a broken link.
  addressed("public", "404", "default", async (page) => {
    await visit(page, "/");
    await visit(page, "/no-such-page");
  }),
  ...["login", "instantLogin", "instantPay", "mobileShop", "mobileProfile"].map((name) =>
    addressed("sign-in", name, "signed-out", (page) => visit(page, `/${name}`)),
  ),
  // A link with someone's credential, opened in a browser that holds no account.
  addressed("sign-in", "mobileProfile", "continue-as", async (page, language) => {
    const email = uniqueEmail("continue-as");
    const response = await page.request.post("/api/dev/idp/token", {
      data: { email, provider: "google.com" },
    });
    const { credential, ...fields } = (await response.json()) as Record<string, string>;
    await visit(page, `/mobileProfile?${new URLSearchParams(fields)}#credential=${credential}`);
    const title = text(language, "continueAs.title").replace("{{email}}", email);
    await expect(page.getByRole("heading", { name: title })).toBeVisible();
  }),
  addressed("sign-in", "login", "plan-link", (page) => visit(page, "/login?j=6")),
  addressed("cabinet", "profile", "signed-out", (page) => visit(page, "/profile")),
  ...cabinetStates.map(({ state, status, extra }) =>
    customerScreen("cabinet", state, { status, extra }, (page) => settle(page)),
  ),
  customerScreen("cabinet", "profile-error", { status: "ACTIVE" }, async (page) => {
    await page.route("**/api/profile", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"error":"INTERNAL"}' }),
    );
    await visit(page, "/profile");
  }),
  customerScreen("cabinet", "promo-refused", { status: "NOT_ACTIVE" }, async (page, language) => {
    await settle(page);
    await page.getByLabel(text(language, "purchase.promoLabel")).fill("NOSUCHCODE");
    await page.getByRole("button", { name: text(language, "purchase.promoApply") }).click();
    await expect(page.getByRole("alert").first()).toBeVisible();
    await settle(page);
  }),
  customerScreen("cabinet", "promo-offline", { status: "NOT_ACTIVE" }, async (page, language) => {
    await settle(page);
    await page.route("**/api/shop/applyPromo", (route) => route.abort("internetdisconnected"));
    await page.getByLabel(text(language, "purchase.promoLabel")).fill("NOSUCHCODE");
    await page.getByRole("button", { name: text(language, "purchase.promoApply") }).click();
    await expect(page.getByRole("alert").first()).toBeVisible();
    await settle(page);
  }),
  // A device's Connect panel open over the cabinet: its QR code, link, apps and reset.
  customerScreen(
    "cabinet",
    "connect",
    { status: "ACTIVE", extra: { devices: 1 } },
    async (page, language) => {
      await settle(page);
      await page.getByRole("button", { name: text(language, "cabinet.connect"), exact: true }).click();
      await expect(page.getByRole("img", { name: text(language, "cabinet.connectQrAlt") })).toBeVisible();
      await settle(page);
    },
  ),
  // The customer deleted their account: the confirmation that says so.
  customerScreen("cabinet", "deleted", { status: "ACTIVE" }, async (page, language) => {
    await settle(page);
    // Held from the keyboard: Space for 2 seconds, as the hold-to-confirm button takes it.
    await page.getByRole("button", { name: text(language, "cabinet.dataDelete") }).focus();
    await page.keyboard.down("Space");
    await page.waitForTimeout(2_300);
    await page.keyboard.up("Space");
    await expect(page.getByRole("heading", { name: text(language, "cabinet.deletedTitle") })).toBeVisible();
    await settle(page);
  }),
  customerScreen("promo", "active", { status: "ACTIVE" }, (page) => visit(page, "/promo"), "promo"),
  addressed("promo", "promo", "signed-out", (page) => visit(page, "/promo")),
  customerScreen("cancel", "signed-in", { status: "ACTIVE" }, (page) => visit(page, "/cancel"), "cancel"),
  addressed("cancel", "cancel", "link", async (page, language) => {
    const made = await makeCustomer(page, { email: uniqueEmail("link"), status: "ACTIVE", language });
    const time = Date.parse(
      ((await (await page.request.get("/api/health")).json()) as { time: string }).time,
    );
    await visit(page, `/cancel?token=${signCancelToken(e2eJwtSecret, made.userId, time)}`);
  }),
  addressed("cancel", "cancel", "bad-link", (page) => visit(page, "/cancel?token=not-a-token")),
  addressed("panel", "panel-login", "signed-out", (page) => visit(page, "/panel-login")),
  addressed("panel", "panel-login", "no-captcha", async (page, language) => {
    await visit(page, "/panel-login");
    await page.getByLabel(text(language, "panel.login")).fill(panelAdmin.username);
    await page.getByLabel(text(language, "panel.password"), { exact: true }).fill("not the password");
    await page.getByRole("button", { name: text(language, "panel.submit"), exact: true }).click();
    await expect(page.getByRole("alert").first()).toBeVisible();
    await settle(page);
  }),
  ...panelPages.map((name) =>
    operatorScreen(
      name,
      "signed-in",
      { name: "panel", status: "ACTIVE", extra: { devices: 2, deviceNames } },
      (person) => `/${name}?id=${person.userId}`,
    ),
  ),
  // The Payments screen while its call fails: the failure in the operator's words with Try
  // again, never an empty list of routes. The failing call stays faked on this page only.
  {
    area: "panel",
    page: "panel-payments",
    state: "failing",
    async open(page, language) {
      await signedInOperator(page, language);
      await page.route("**/api/panel/payments/routes", (route) =>
        route.fulfill({ status: 500, contentType: "application/json", body: '{"error":"INTERNAL"}' }),
      );
      await visit(page, "/panel-payments");
    },
    async switchTo(page, language) {
      await switchLanguage(page, language);
      await visit(page, "/panel-payments");
    },
  },
  // A Russian-speaking customer's mails, which name dates, read in any language: the panel
  // words each subject in the operator's language (a kk operator reads no Russian month).
  operatorScreen(
    "panel-user",
    "mail-of-a-russian-customer",
    { name: "panel.mail", status: "ACTIVE", paidInLanguage: "ru" },
    (person) => `/panel-user?id=${person.userId}`,
  ),
  // A refund refused by the server: its Message, worded by the server in the operator's language.
  operatorScreen(
    "panel-subscription",
    "nothing-to-refund",
    { name: "panel.expired", status: "EXPIRED" },
    (person) => `/panel-subscription?id=${person.userId}`,
  ),
  addressed("dev", "dev-idp", "google", (page) => visit(page, "/dev-idp?provider=google")),
  addressed("dev", "dev-mail", "default", (page) => visit(page, "/dev-mail")),
  // The sandbox bank's page for an anonymous purchase's SBP QR that asks to allow autopay.
  // SBP takes roubles only: the purchase is a Russian buyer's, whatever language the page is read in.
  // The panel's Payments test switches CloudPayments' SBP off on the shared server for a few
  // seconds before it puts it back: an order refused meanwhile is asked again.
  addressed("dev", "dev-sbp", "autopay-asked", async (page) => {
    let answer: { sbp?: { qrUrl: string } } = {};
    await expect
      .poll(
        async () => {
          const prepaidToken = `sbp${crypto.randomUUID().replaceAll("-", "")}_30_1`;
          const order = await page.request.post("/api/shop/order", {
            headers: { cookie: "i18next=ru" },
            data: { prepaidToken, tariff: 1, period: 30, method: "sbp", saveMethod: true },
          });
          answer = (await order.json()) as typeof answer;
          return answer.sbp ? "an SBP order" : `${order.status()} ${JSON.stringify(answer)}`;
        },
        { timeout: 30_000 },
      )
      .toBe("an SBP order");
    if (!answer.sbp) throw new Error("no SBP order");
    const qrUrl = new URL(answer.sbp.qrUrl);
    await visit(page, `${qrUrl.pathname}${qrUrl.search}`);
  }),
  addressed("dev", "yauth", "no-token", (page) => visit(page, "/yauth")),
  addressed("dev", "yauth-mobile", "no-token", (page) => visit(page, "/yauth-mobile")),
];

/** `<page>-<state>`, the name a screen goes by in messages and file names. */
export const screenName = (screen: Screen) => `${screen.page}-${screen.state}`;
