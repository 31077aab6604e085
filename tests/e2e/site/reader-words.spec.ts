import { expect, type Page, test } from "@playwright/test";
import { kazakhMonths, kazakhMonthsAblative, kazakhMonthsDative } from "../../../core/date-time";
import { expirationAfter } from "../../../core/promo-rules";
import { makeCustomer, signInThroughUi, uniqueEmail } from "../../helpers/browser/pages";
import { panelAdminTokens } from "../../helpers/browser/panel-admin";

// What a customer and an operator read, in their own language, on the built site.

type Language = "ru" | "en" | "zh" | "kk";

async function readIn(page: Page, language: Language) {
  await page.addInitScript((lang) => localStorage.setItem("i18nextLng", lang), language);
}

/** An operator's token pair in storage, as the login form leaves it (the form itself is tested elsewhere). */
async function signedInOperator(page: Page, language: Language) {
  await readIn(page, language);
  const tokens = await panelAdminTokens();
  await page.addInitScript((pair) => {
    if (!sessionStorage.getItem("signed-in")) {
      localStorage.setItem("accessToken", pair.accessToken);
      localStorage.setItem("refreshToken", pair.refreshToken);
      sessionStorage.setItem("signed-in", "1");
    }
  }, tokens);
}

const russianMonths = /января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|ноября|декабря/;

test.describe("Kazakh dates", () => {
  test("a date before 'дейін' is in the dative in the cabinet", async ({ page }) => {
    await readIn(page, "kk");
    const made = await makeCustomer(page, {
      email: uniqueEmail("kkuntil"),
      status: "CANCELED",
      language: "kk",
    });
    await signInThroughUi(page, made.email);
    const until = new RegExp(`\\d{4} ж\\. \\d{1,2} (${kazakhMonthsDative.join("|")}) дейін`);
    await expect(page.getByText(/Қолжетімділік .* дейін сақталады және ұзартылмайды/)).toHaveText(until);
    const bare = new RegExp(`(${kazakhMonths.join("|")}) дейін`);
    await expect(page.locator("main")).not.toContainText(bare);
  });

  test("a device's first day, before 'бастап', is in the ablative in the cabinet", async ({ page }) => {
    await readIn(page, "kk");
    const made = await makeCustomer(page, {
      email: uniqueEmail("kksince"),
      status: "ACTIVE",
      devices: 1,
      language: "kk",
    });
    await signInThroughUi(page, made.email);
    const since = new RegExp(`\\d{4} ж\\. \\d{1,2} (${kazakhMonthsAblative.join("|")}) бастап`);
    await expect(page.locator(".devices__item").first()).toContainText(since);
    const bare = new RegExp(`(${kazakhMonths.join("|")}) бастап`);
    await expect(page.locator("main")).not.toContainText(bare);
  });

  test("the panel's customer card writes Kazakh months where the browser has no Kazakh", async ({ page }) => {
    const made = await makeCustomer(page, { email: uniqueEmail("kkcard"), status: "ACTIVE", devices: 1 });
    await signedInOperator(page, "kk");
    // A browser without Kazakh data on a Russian system: Intl writes Russian for "kk".
    await page.addInitScript(() => {
      const Original = Intl.DateTimeFormat;
      const Fallback = function (
        this: unknown,
        locales?: string | string[],
        options?: Intl.DateTimeFormatOptions,
      ) {
        return new Original(locales === "kk" ? "ru" : locales, options);
      } as unknown as typeof Intl.DateTimeFormat;
      Object.assign(Fallback, Original);
      Intl.DateTimeFormat = Fallback;
    });
    await page.goto(`/panel-user?id=${made.userId}`);
    const card = page.locator(".panel-details");
    await expect(card).toContainText(new RegExp(`\\d{4} ж\\. \\d{1,2} (${kazakhMonths.join("|")})`));
    await expect(card).not.toContainText(russianMonths);
  });
});

const zoneHeaders: [Language, string, string][] = [
  ["ru", "Europe/Moscow", "Дата и время (московское время)"],
  ["en", "Europe/Moscow", "Date and time (Moscow time)"],
  ["zh", "Europe/Moscow", "日期和时间（莫斯科时间）"],
  ["kk", "Asia/Almaty", "Күні мен уақыты (Алматы уақыты)"],
];
for (const [language, timezoneId, header] of zoneHeaders) {
  test.describe(`receipts read in ${language} in ${timezoneId}`, () => {
    test.use({ timezoneId });
    test("name the time zone in the reader's words, not its IANA id", async ({ page }) => {
      const made = await makeCustomer(page, { email: uniqueEmail(`zone${language}`), status: "ACTIVE" });
      await signedInOperator(page, language);
      await page.goto(`/panel-receipts?id=${made.userId}`);
      await expect(page.getByRole("columnheader").first()).toHaveText(header);
      await expect(page.locator("main")).not.toContainText(timezoneId);
    });
  });
}

test.describe("the panel in the reader's language", () => {
  for (const [language, words] of [
    ["ru", "Загрузка…"],
    ["zh", "加载中…"],
    ["kk", "Жүктелуде…"],
  ] as const) {
    test(`a list that is still loading says so in ${language}`, async ({ page }) => {
      const made = await makeCustomer(page, { email: uniqueEmail(`loading${language}`), status: "ACTIVE" });
      await signedInOperator(page, language);
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route("**/api/panel/checks**", async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`/panel-receipts?id=${made.userId}`);
      const loading = page.locator("main").getByRole("status");
      await expect(loading).toHaveText(words);
      await expect(page.locator("main")).not.toContainText("Loading");
      release();
      await expect(loading).toHaveCount(0);
    });
  }

  test("customer pages without a sign-in go to the login", async ({ page }) => {
    await readIn(page, "en");
    for (const path of ["/panel-user", "/panel-receipts", "/panel-user?id=1", "/panel-receipts?id=1"]) {
      await page.goto(path);
      await page.waitForURL("**/panel-login");
    }
  });

  test("a refused promo code says the server's reason; validity counts from the server's date", async ({
    page,
  }) => {
    await signedInOperator(page, "ru");
    // The server's clock, as a demo whose test clock has moved 45 days on would answer it.
    const serverNow = Date.now() + 45 * 24 * 60 * 60 * 1000;
    await page.route("**/api/panel/clock", (route) =>
      route.fulfill({ json: { now: new Date(serverNow).toISOString() } }),
    );
    const sent = page.waitForRequest("**/api/panel/promos/generatePromo");
    await page.goto("/panel-promo");
    await page.getByLabel("Код", { exact: true }).fill("SERVERDATE");
    await page.getByRole("button", { name: "Создать" }).click();
    const body = (await sent).postDataJSON() as { expirationDate: string };
    expect(body.expirationDate).toBe(expirationAfter(1, serverNow));
    // This server's own clock has not moved, so it refuses; the panel says why, in Russian.
    await expect(page.locator("form").getByRole("alert")).toHaveText(
      "срок действия должен быть от 1 до 12 месяцев",
    );
  });
});

test.describe("/promo", () => {
  test("a server that answered is not blamed on the connection", async ({ page }) => {
    await readIn(page, "en");
    const made = await makeCustomer(page, { email: uniqueEmail("promofail"), status: "ACTIVE" });
    await signInThroughUi(page, made.email);
    await page.route("**/api/profile/getReferralCode", (route) =>
      route.fulfill({
        status: 429,
        json: { error: { code: "TOO_MANY_REQUESTS", message: "Too many requests: try again in a minute." } },
      }),
    );
    await page.goto("/promo");
    const alert = page.locator("main").getByRole("alert");
    await expect(alert).toHaveText("Too many requests: try again in a minute.");
    await page.unroute("**/api/profile/getReferralCode");
    await page.route("**/api/profile/getReferralCode", (route) => route.fulfill({ status: 500, body: "" }));
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(alert).toHaveText(/Something went wrong on our side/);
    await expect(page.locator("main")).not.toContainText(/connection/i);
    // A request that never got an answer still says to check the connection.
    await page.unroute("**/api/profile/getReferralCode");
    await page.route("**/api/profile/getReferralCode", (route) => route.abort("connectionreset"));
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(alert).toHaveText(/Check your connection/);
  });
});

test.describe("the landing after the production build", () => {
  test("the feature list fades with the scroll in Chromium", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await page.goto("/en/");
    const item = page.locator(".features__item").first();
    const animation = await item.evaluate((element) => {
      const style = getComputedStyle(element);
      return {
        name: style.animationName,
        timeline: style.getPropertyValue("animation-timeline"),
        running: element.getAnimations().length,
      };
    });
    expect(animation).toEqual({ name: "fade-through", timeline: "view()", running: 1 });
  });
});
