import { readFileSync } from "node:fs";
import { expect, type Page } from "@playwright/test";
import { signCancelToken } from "../../../bff/modules/subscriptions/cancel-token";
import { e2eJwtSecret } from "../e2e-secrets";
import { makeCustomer, panelAdmin, signInThroughUi, solveCaptcha, uniqueEmail } from "./pages";

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
};

type Status = "NOT_ACTIVE" | "ACTIVE" | "CANCELED" | "CANCELED_OVER" | "EXPIRED";

/** A text of the language files, so a screen is driven by what it shows in any language. */
function text(language: ScreenLanguage, key: string): string {
  const texts = JSON.parse(readFileSync(`core/i18n/${language}.json`, "utf8")) as Record<string, string>;
  const value = texts[key];
  if (value === undefined) throw new Error(`no text ${key} in ${language}.json`);
  return value;
}

/** The interface language of every page this browser opens, before any script runs. */
async function setLanguage(page: Page, language: ScreenLanguage) {
  await page.addInitScript((lang) => localStorage.setItem("i18nextLng", lang), language);
}

/**
 * Waits until the page has drawn what its calls brought: no request in flight, no
 * loading text left, and a moment for the islands to render and fonts to settle.
 */
export async function settle(page: Page) {
  await page.waitForLoadState("networkidle").catch(() => undefined);
  await page
    .locator('[aria-busy="true"]')
    .first()
    .waitFor({ state: "detached", timeout: 5_000 })
    .catch(() => undefined);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForTimeout(400);
}

/** Device names as customers' phones report them; Latin model names would read as untranslated. */
const deviceNames = ["Android 15", "Android 14"];

type Made = { uid: string; email: string; userId: number };

/** A signed-in customer in `status` (or only trial-paid), on /profile in `language`. */
async function signedInCustomer(
  page: Page,
  language: ScreenLanguage,
  status: Status,
  extra: Record<string, unknown> = {},
): Promise<Made> {
  await setLanguage(page, language);
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

/**
 * An operator session as the login form leaves it (the token pair in storage), made
 * through the login call itself so each screen does not wait for the captcha in the page.
 */
async function signedInOperator(page: Page, language: ScreenLanguage) {
  await setLanguage(page, language);
  const response = await page.request.post("/api/auth/login", {
    data: { ...panelAdmin, captcha: await solveCaptcha(page) },
  });
  expect(response.status(), await response.text()).toBe(200);
  const tokens = (await response.json()) as { accessToken: string; refreshToken: string };
  await page.addInitScript((pair) => {
    if (!sessionStorage.getItem("qa-signed-in")) {
      localStorage.setItem("accessToken", pair.accessToken);
      localStorage.setItem("refreshToken", pair.refreshToken);
      sessionStorage.setItem("qa-signed-in", "1");
    }
  }, tokens);
}

/** The panel's chosen customer, as picking one in the search leaves it. */
async function choosePerson(page: Page, person: Made) {
  await page.addInitScript((chosen) => {
    localStorage.setItem("selected_person", String(chosen.userId));
    localStorage.setItem("selected_person_email", chosen.email);
    localStorage.setItem("selected_person_uid", chosen.uid);
  }, person);
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
];

export const screens: Screen[] = [
  ...publicPages.map(
    ({ page, path }): Screen => ({
      area: "public",
      page,
      state: "default",
      async open(browserPage, language) {
        await setLanguage(browserPage, language);
        await visit(browserPage, `/${language}/${path}`);
      },
    }),
  ),
  {
    area: "public",
    page: "root",
    state: "default",
    async open(page, language) {
      await setLanguage(page, language);
      await visit(page, "/");
    },
  },
  {
    area: "public",
    page: "404",
    state: "default",
    async open(page, language) {
      // A visitor who chose a language on the site (kept in local storage and the cookie
      // the server reads for a 404) then followed a broken link.
      await setLanguage(page, language);
      await visit(page, "/");
      await visit(page, "/no-such-page");
    },
  },
  ...["login", "instantLogin", "instantPay", "mobileShop", "mobileProfile"].map(
    (name): Screen => ({
      area: "sign-in",
      page: name,
      state: "signed-out",
      async open(page, language) {
        await setLanguage(page, language);
        await visit(page, `/${name}`);
      },
    }),
  ),
  {
    area: "sign-in",
    page: "mobileProfile",
    state: "continue-as",
    async open(page, language) {
      // A link with someone's credential, opened in a browser that holds no account.
      await setLanguage(page, language);
      const email = uniqueEmail("continue-as");
      const response = await page.request.post("/api/dev/idp/token", {
        data: { email, provider: "google.com" },
      });
      const { credential, ...fields } = (await response.json()) as Record<string, string>;
      await visit(page, `/mobileProfile?${new URLSearchParams(fields)}#credential=${credential}`);
      const title = text(language, "continueAs.title").replace("{{email}}", email);
      await expect(page.getByRole("heading", { name: title })).toBeVisible();
    },
  },
  {
    area: "sign-in",
    page: "login",
    state: "plan-link",
    async open(page, language) {
      await setLanguage(page, language);
      await visit(page, "/login?j=6");
    },
  },
  {
    area: "cabinet",
    page: "profile",
    state: "signed-out",
    async open(page, language) {
      await setLanguage(page, language);
      await visit(page, "/profile");
    },
  },
  ...cabinetStates.map(
    ({ state, status, extra }): Screen => ({
      area: "cabinet",
      page: "profile",
      state,
      async open(page, language) {
        await signedInCustomer(page, language, status, extra);
        await settle(page);
      },
    }),
  ),
  {
    area: "cabinet",
    page: "profile",
    state: "profile-error",
    async open(page, language) {
      await signedInCustomer(page, language, "ACTIVE");
      await page.route("**/api/profile", (route) =>
        route.fulfill({ status: 500, contentType: "application/json", body: '{"error":"INTERNAL"}' }),
      );
      await visit(page, "/profile");
    },
  },
  {
    area: "cabinet",
    page: "profile",
    state: "promo-refused",
    async open(page, language) {
      await signedInCustomer(page, language, "NOT_ACTIVE");
      await settle(page);
      await page.getByLabel(text(language, "purchase.promoLabel")).fill("NOSUCHCODE");
      await page.getByRole("button", { name: text(language, "purchase.promoApply") }).click();
      await expect(page.getByRole("alert").first()).toBeVisible();
      await settle(page);
    },
  },
  {
    area: "cabinet",
    page: "profile",
    state: "promo-offline",
    async open(page, language) {
      await signedInCustomer(page, language, "NOT_ACTIVE");
      await settle(page);
      await page.route("**/api/shop/applyPromo", (route) => route.abort("internetdisconnected"));
      await page.getByLabel(text(language, "purchase.promoLabel")).fill("NOSUCHCODE");
      await page.getByRole("button", { name: text(language, "purchase.promoApply") }).click();
      await expect(page.getByRole("alert").first()).toBeVisible();
      await settle(page);
    },
  },
  {
    // A device's Connect panel open over the cabinet: its QR code, link, apps and reset.
    area: "cabinet",
    page: "profile",
    state: "connect",
    async open(page, language) {
      await signedInCustomer(page, language, "ACTIVE", { devices: 1 });
      await settle(page);
      await page.getByRole("button", { name: text(language, "cabinet.connect"), exact: true }).click();
      await expect(page.getByRole("img", { name: text(language, "cabinet.connectQrAlt") })).toBeVisible();
      await settle(page);
    },
  },
  {
    // The customer deleted their account: the confirmation that says so.
    area: "cabinet",
    page: "profile",
    state: "deleted",
    async open(page, language) {
      await signedInCustomer(page, language, "ACTIVE");
      await settle(page);
      // Held from the keyboard: Space for 2 seconds, as the hold-to-confirm button takes it.
      await page.getByRole("button", { name: text(language, "cabinet.dataDelete") }).focus();
      await page.keyboard.down("Space");
      await page.waitForTimeout(2_300);
      await page.keyboard.up("Space");
      await expect(page.getByRole("heading", { name: text(language, "cabinet.deletedTitle") })).toBeVisible();
      await settle(page);
    },
  },
  {
    area: "promo",
    page: "promo",
    state: "active",
    async open(page, language) {
      await signedInCustomer(page, language, "ACTIVE");
      await visit(page, "/promo");
    },
  },
  {
    area: "promo",
    page: "promo",
    state: "signed-out",
    async open(page, language) {
      await setLanguage(page, language);
      await visit(page, "/promo");
    },
  },
  {
    area: "cancel",
    page: "cancel",
    state: "signed-in",
    async open(page, language) {
      await signedInCustomer(page, language, "ACTIVE");
      await visit(page, "/cancel");
    },
  },
  {
    area: "cancel",
    page: "cancel",
    state: "link",
    async open(page, language) {
      await setLanguage(page, language);
      const made = await makeCustomer(page, { email: uniqueEmail("link"), status: "ACTIVE", language });
      const time = Date.parse(
        ((await (await page.request.get("/api/health")).json()) as { time: string }).time,
      );
      await visit(page, `/cancel?token=${signCancelToken(e2eJwtSecret, made.userId, time)}`);
    },
  },
  {
    area: "cancel",
    page: "cancel",
    state: "bad-link",
    async open(page, language) {
      await setLanguage(page, language);
      await visit(page, "/cancel?token=not-a-token");
    },
  },
  {
    area: "panel",
    page: "panel-login",
    state: "signed-out",
    async open(page, language) {
      await setLanguage(page, language);
      await visit(page, "/panel-login");
    },
  },
  {
    area: "panel",
    page: "panel-login",
    state: "no-captcha",
    async open(page, language) {
      await setLanguage(page, language);
      await visit(page, "/panel-login");
      await page.getByLabel(text(language, "panel.login")).fill(panelAdmin.username);
      await page.getByLabel(text(language, "panel.password"), { exact: true }).fill("not the password");
      await page.getByRole("button", { name: text(language, "panel.submit") }).click();
      await expect(page.getByRole("alert").first()).toBeVisible();
      await settle(page);
    },
  },
  ...panelPages.map(
    (name): Screen => ({
      area: "panel",
      page: name,
      state: "signed-in",
      async open(page, language) {
        const person = await makeCustomer(page, {
          email: uniqueEmail("panel"),
          status: "ACTIVE",
          devices: 2,
          deviceNames,
          language,
        });
        await signedInOperator(page, language);
        await choosePerson(page, person);
        await visit(page, `/${name}?id=${person.userId}`);
      },
    }),
  ),
  {
    // A refund refused by the server: its Message, worded by the server in the operator's language.
    area: "panel",
    page: "panel-subscription",
    state: "nothing-to-refund",
    async open(page, language) {
      const person = await makeCustomer(page, {
        email: uniqueEmail("panel.expired"),
        status: "EXPIRED",
        language,
      });
      await signedInOperator(page, language);
      await choosePerson(page, person);
      await visit(page, `/panel-subscription?id=${person.userId}`);
    },
  },
  {
    area: "dev",
    page: "dev-idp",
    state: "google",
    async open(page, language) {
      await setLanguage(page, language);
      await visit(page, "/dev-idp?provider=google");
    },
  },
  {
    area: "dev",
    page: "dev-mail",
    state: "default",
    async open(page, language) {
      await setLanguage(page, language);
      await visit(page, "/dev-mail");
    },
  },
  {
    area: "dev",
    page: "yauth",
    state: "no-token",
    async open(page, language) {
      await setLanguage(page, language);
      await visit(page, "/yauth");
    },
  },
  {
    area: "dev",
    page: "yauth-mobile",
    state: "no-token",
    async open(page, language) {
      await setLanguage(page, language);
      await visit(page, "/yauth-mobile");
    },
  },
];

/** `<page>-<state>`, the name a screen goes by in messages and file names. */
export const screenName = (screen: Screen) => `${screen.page}-${screen.state}`;
