import { expect, type Locator, type Page, test } from "@playwright/test";
import {
  expectLabelsOnOneLine,
  expectNoSidewaysScroll,
  expectSwitcherOnOneRow,
  switcherOrder,
} from "../../helpers/browser/public-layout";

const expectedPrices = {
  ru: { first: "1 ₽", month: "150 ₽", year: "1 080 ₽", heading: "Весь интернет. Приватно." },
  en: { first: "1 ₽", month: "150 ₽", year: "1 080 ₽", heading: "The whole internet. Privately." },
  zh: { first: "1 ₽", month: "150 ₽", year: "1 080 ₽", heading: "完整的互联网，私密访问。" },
  kk: { first: "10 ₸", month: "900 ₸", year: "6 400 ₸", heading: "Бүкіл интернет. Құпия түрде." },
} as const;

// Prices are rendered with no-break and narrow no-break spaces; compare by plain spaces.
const plain = (text: string | null) => (text ?? "").replace(/[\u00a0\u202f]/g, " ").trim();

for (const [language, expected] of Object.entries(expectedPrices)) {
  test(`the landing in ${language} shows its texts and currency`, async ({ page }) => {
    await page.goto(`/${language}/`);
    await expect(page.locator("html")).toHaveAttribute("lang", language);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(expected.heading);
    expect(plain(await page.getByTestId("first-payment").textContent())).toBe(expected.first);
    expect(plain(await page.getByTestId("price-1").textContent())).toBe(expected.month);
    expect(plain(await page.getByTestId("price-12").textContent())).toBe(expected.year);
  });
}

test("the unprefixed landing follows the browser language and /tt, /yt are landings too", async ({
  browser,
}) => {
  const context = await browser.newContext({ locale: "kk-KZ" });
  const page = await context.newPage();
  for (const path of ["/", "/tt", "/yt"]) {
    await page.goto(path);
    await expect(page.locator("html")).toHaveAttribute("lang", "kk");
    expect(new URL(page.url()).pathname).toBe(path);
    await expect(page.getByTestId("first-payment")).toContainText("₸");
  }
  await context.close();
});

test("switching the language persists across a reload and on unprefixed pages", async ({ page }) => {
  await page.goto("/en/");
  await page.getByRole("contentinfo").getByRole("link", { name: "ZH", exact: true }).click();
  await expect(page).toHaveURL(/\/zh\/$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh");
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "zh");
  expect(await page.evaluate(() => localStorage.getItem("i18nextLng"))).toBe("zh");
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("lang", "zh");
  const cookies = await page.context().cookies();
  expect(cookies.find((cookie) => cookie.name === "i18next")?.value).toBe("zh");
});

test("local storage corrects an unprefixed page the server served in another language", async ({ page }) => {
  await page.goto("/en/");
  await page.evaluate(() => localStorage.setItem("i18nextLng", "ru"));
  await page.context().clearCookies();
  await page.goto("/offer");
  await expect(page).toHaveURL(/\/ru\/offer$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "ru");
});

test("the active language is highlighted and marked in header and footer, both in one order", async ({
  page,
}) => {
  await page.goto("/kk/");
  for (const region of [page.getByRole("banner"), page.getByRole("contentinfo")]) {
    await expect(region.getByRole("link", { name: "KK", exact: true })).toHaveAttribute(
      "aria-current",
      "true",
    );
    await expect(region.getByRole("link", { name: "RU", exact: true })).not.toHaveAttribute(
      "aria-current",
      "true",
    );
    await expect(region.locator(".languages__link")).toHaveText(switcherOrder);
    await expect(region.locator(".languages__link--active")).toHaveText("KK");
  }
});

test("an invite link stores its token under promo", async ({ page }) => {
  await page.goto("/?token=abc123");
  await expect.poll(() => page.evaluate(() => localStorage.getItem("promo"))).toBe("abc123");
});

test("the iOS button shows how to connect an iPhone in a toast, which closes itself after 5 seconds", async ({
  page,
}) => {
  await page.goto("/en/");
  await page.mouse.move(0, 0);
  // Timed in the page, from the click to the toast's removal, so a busy test runner cannot skew it.
  const timing = page.evaluate(
    () =>
      new Promise<{ shown: boolean; closedAfterMs: number }>((resolve) => {
        let shown = false;
        const started = performance.now();
        const observer = new MutationObserver(() => {
          const toast = document.querySelector(".toast");
          if (toast?.textContent?.includes("On iPhone, install Happ")) shown = true;
          if (shown && !toast) {
            observer.disconnect();
            resolve({ shown, closedAfterMs: performance.now() - started });
          }
        });
        observer.observe(document.body, { childList: true, subtree: true });
        document.querySelector<HTMLButtonElement>("button[data-toast]")?.click();
      }),
  );
  await expect(page.getByRole("status").filter({ hasText: "On iPhone, install Happ" })).toBeVisible();
  const { shown, closedAfterMs } = await timing;
  expect(shown).toBe(true);
  expect(closedAfterMs).toBeGreaterThanOrEqual(4_950);
  expect(closedAfterMs).toBeLessThan(8_000);
});

test("a toast dragged past 80% of its width is dismissed, a shorter drag snaps back", async ({ page }) => {
  // Page time stands still, so the 5 s auto-close cannot hide the toast: only the drag can.
  const start = new Date("2030-01-01T09:00:00Z");
  await page.clock.install({ time: start });
  await page.goto("/en/");
  await page.clock.pauseAt(start.getTime() + 3_600_000);
  await page.getByRole("button", { name: /iPhone/ }).click();
  const toast = page.getByRole("status").filter({ hasText: "On iPhone" });

  const rest = await settledBox(toast);
  await dragBy(page, toast, rest, 0.5);
  await expect(toast).toBeVisible();
  expect((await settledBox(toast)).x).toBeCloseTo(rest.x, 0);

  await dragBy(page, toast, rest, 0.85);
  await expect(toast).toHaveCount(0);
});

/** The toast's box once its entrance animation or snap-back transition has finished. */
async function settledBox(toast: Locator) {
  await toast.evaluate((element) =>
    Promise.allSettled(element.getAnimations().map((animation) => animation.finished)),
  );
  const box = await toast.boundingBox();
  if (!box) throw new Error("toast not rendered");
  return box;
}

/** Presses near the toast's left edge and drags right by a share of its width, checking it follows. */
async function dragBy(
  page: Page,
  toast: Locator,
  rest: { x: number; y: number; width: number; height: number },
  share: number,
) {
  const y = rest.y + rest.height / 2;
  await page.mouse.move(rest.x + 10, y);
  await page.mouse.down();
  await page.mouse.move(rest.x + 10 + rest.width * share, y, { steps: 5 });
  expect((await toast.boundingBox())?.x).toBeCloseTo(rest.x + rest.width * share, 0);
  await page.mouse.up();
}

test("the footer's bot link carries base64 of the stored e-mail", async ({ page }) => {
  await page.goto("/en/");
  const bot = page.getByRole("contentinfo").getByRole("link", { name: "Support bot" });
  await expect(bot).toHaveAttribute("href", /\?start=$/);
  await page.evaluate(() => localStorage.setItem("email", "anna@example.com"));
  await page.reload();
  await expect(bot).toHaveAttribute("href", /\?start=YW5uYUBleGFtcGxlLmNvbQ$/);
});

test("the offer page shows the Russian offer and opens the PDF", async ({ page }) => {
  await page.goto("/en/offer");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Публичная оферта");
  await expect(
    page.getByText("Покупатель вправе отменить подписку в любой момент", { exact: false }),
  ).toBeVisible();
  const popupPromise = page.waitForEvent("popup");
  await page.getByRole("link", { name: "Open PDF" }).click();
  const popup = await popupPromise;
  expect(new URL(popup.url()).pathname).toBe("/api/get/docs/oferta_kannt.pdf");
  const response = await page.request.get("/api/get/docs/oferta_kannt.pdf");
  expect(response.headers()["content-type"]).toBe("application/pdf");
  expect((await response.body()).subarray(0, 5).toString()).toBe("%PDF-");
});

test("Back on the offer returns to the page the visitor came from, else to the landing", async ({ page }) => {
  await page.goto("/ru/tt");
  await page.evaluate(() => {
    location.href = "/ru/offer";
  });
  await expect(page).toHaveURL(/\/ru\/offer$/);
  await page.getByRole("link", { name: "Назад" }).click();
  await expect(page).toHaveURL(/\/ru\/tt$/);

  await page.goto("/ru/offer");
  await page.getByRole("link", { name: "Назад" }).click();
  await expect(page).toHaveURL(/localhost:\d+\/$/);
  await expect(page.getByTestId("first-payment")).toBeVisible();
});

test("the landing loads no framework runtime", async ({ page }) => {
  const scripts: string[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") scripts.push(response.url());
  });
  await page.goto("/en/");
  await page.waitForLoadState("networkidle");
  expect(scripts.length).toBeGreaterThan(0);
  for (const url of scripts) {
    const body = await (await page.request.get(url)).text();
    expect(body, url).not.toContain("react");
  }
});

const languageCodes = ["ru", "en", "zh", "kk"] as const;
const publicPaths = ["/", "/tt", "/yt", "/offer", "/no-such-page"];

test("at 390 px no public page scrolls sideways, the switchers keep one row and no label wraps", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  for (const language of languageCodes) {
    for (const path of publicPaths) {
      const where = `/${language}${path}`;
      await page.goto(where);
      await expectNoSidewaysScroll(page, where);
      await expectSwitcherOnOneRow(page.getByRole("banner").locator(".languages"), language, where);
      await expectSwitcherOnOneRow(page.getByRole("contentinfo").locator(".languages"), language, where);
      await expectLabelsOnOneLine(page.locator(".button, .languages__link, .footer__mail"), where);
    }
  }
  await context.close();
});

test("at 390 px the sign-in page's chrome fits in every language", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  for (const language of languageCodes) {
    const page = await context.newPage();
    await page.addInitScript((lang) => localStorage.setItem("i18nextLng", lang), language);
    await page.goto("/login");
    const footer = page.getByRole("contentinfo");
    await expect(footer).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", language);
    await expectNoSidewaysScroll(page, `/login in ${language}`);
    await expectSwitcherOnOneRow(footer.locator(".languages"), language, `/login in ${language}`);
    await expectLabelsOnOneLine(page.locator(".button, .footer__mail"), `/login in ${language}`);
    await page.close();
  }
  await context.close();
});

test("every link on the public pages leads somewhere real; iPhone and Windows say which apps connect them", async ({
  page,
}) => {
  const externalHosts = new Set(["play.google.com", "t.me"]);
  for (const path of ["/en/", "/en/offer", "/en/no-such-page"]) {
    await page.goto(path);
    const hrefs = await page
      .locator("a[href]")
      .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
    for (const href of new Set(hrefs)) {
      const url = new URL(href);
      const here = new URL(page.url());
      if (url.hash && url.origin === here.origin && url.pathname === here.pathname) continue;
      if (url.protocol === "mailto:") {
        expect(url.pathname).toBe("support@kannt.app");
      } else if (url.origin === here.origin) {
        const response = await page.request.get(url.pathname + url.search);
        expect(response.status(), `${path} links to ${href}`).toBeLessThan(400);
      } else {
        expect(externalHosts.has(url.hostname), `${path} links to ${href}`).toBe(true);
      }
    }
    expect(
      hrefs.some((href) => /apps\.apple\.com|\.exe$/.test(href)),
      path,
    ).toBe(false);
  }
  // iPhone and Windows connect through the subscription link in others' apps: each says which.
  await page.goto("/ru/");
  for (const [name, apps] of [
    ["iPhone", "На iPhone установите Happ, Streisand или Hiddify из App Store"],
    ["Windows", "На Windows установите Hiddify или FlClash"],
  ] as const) {
    const tile = page.getByRole("button", { name, exact: true });
    await tile.click();
    await expect(page.getByRole("status").filter({ hasText: apps })).toHaveCount(1);
    await page.getByRole("button", { name: "Закрыть уведомление" }).first().click();
  }
});

/** "In development" and "for now only Android", as the landing said them before. */
const notOutYet =
  /in development|coming soon|on the way|в разработке|скоро появится|开发中|即将推出|әзірленуде|жақында/i;

for (const [language, works] of [
  ["en", "Kannt works on Android, iPhone, Windows and Mac"],
  ["ru", "Kannt работает на Android, iPhone, Windows и Mac"],
  ["zh", "Kannt 支持 Android、iPhone、Windows 和 Mac"],
  ["kk", "Kannt Android, iPhone, Windows және Mac-та жұмыс істейді"],
] as const) {
  test(`the landing in ${language} says every platform works through the apps the cabinet offers`, async ({
    page,
  }) => {
    await page.goto(`/${language}/`);
    const apps = page.locator("section.apps");
    await expect(apps).toContainText(works);
    for (const app of ["Happ", "Streisand", "FlClash", "Hiddify"]) await expect(apps).toContainText(app);
    await expect(apps).not.toContainText(notOutYet);
    await expect(apps.getByRole("link", { name: /Google Play/ })).toHaveAttribute(
      "href",
      /play\.google\.com/,
    );
    const description = await page.locator('meta[name="description"]').getAttribute("content");
    expect(description).toMatch(/iPhone/);
    expect(description).not.toMatch(notOutYet);
  });
}

test("the copyright runs to the current year, and a page built last year catches up in the browser", async ({
  page,
}) => {
  await page.goto("/en/");
  const year = new Date().getFullYear();
  await expect(page.getByTestId("copyright")).toHaveText(`© 2021–${year} Kannt`);
  await page.clock.install({ time: new Date(`${year + 3}-02-01T10:00:00Z`) });
  await page.goto("/ru/offer");
  await expect(page.getByTestId("copyright")).toHaveText(`© 2021–${year + 3} Kannt`);
  await page.goto("/login");
  await expect(page.getByRole("contentinfo")).toContainText(`© 2021–${year + 3} Kannt`);
});

test("the offer page has the site header and footer", async ({ page }) => {
  await page.goto("/zh/offer");
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "Kannt" })).toHaveAttribute("href", "/zh/");
  await expect(header.getByRole("link", { name: "登录" })).toHaveAttribute("href", "/login");
  await expect(page.getByRole("contentinfo").getByRole("link", { name: "公开要约" })).toBeVisible();
});

const notFoundTitles = {
  ru: "Страница не найдена",
  en: "Page not found",
  zh: "页面未找到",
  kk: "Бет табылмады",
};

test("a missing page answers 404 in the visitor's one language, with a way home", async ({ browser }) => {
  const cases = [
    { path: "/kk/no-such-page", locale: "en-US", cookie: undefined, expected: "kk" },
    { path: "/no-such-page", locale: "en-US", cookie: "zh", expected: "zh" },
    { path: "/no-such-page", locale: "ru-RU", cookie: undefined, expected: "ru" },
    { path: "/no-such-page", locale: "de-DE", cookie: undefined, expected: "en" },
  ] as const;
  for (const { path, locale, cookie, expected } of cases) {
    const context = await browser.newContext({ locale });
    if (cookie) {
      const { origin } = new URL(test.info().project.use.baseURL ?? "");
      await context.addCookies([{ name: "i18next", value: cookie, url: origin }]);
    }
    const page = await context.newPage();
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.locator("html")).toHaveAttribute("lang", expected);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(notFoundTitles[expected]);
    await expect(page).toHaveTitle(`${notFoundTitles[expected]} | Kannt`);
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a visitor reads it.
    const text = await page.locator("body").innerText();
    for (const [other, title] of Object.entries(notFoundTitles)) {
      if (other !== expected) expect(text, `${path} mixes in ${other}`).not.toContain(title);
    }
    await page.getByRole("main").getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/${expected}/$`));
    await context.close();
  }
});

test("the sign-in buttons carry the providers' marks and keep their names", async ({ page }) => {
  await page.goto("/login");
  for (const name of ["Sign in with Google", "Sign in with Yandex"]) {
    const button = page.getByRole("button", { name, exact: true });
    await expect(button.locator("svg[aria-hidden='true']")).toHaveCount(1);
  }
  await page.goto("/ru/");
  for (const name of ["Google", "Яндекс"]) {
    await expect(
      page.getByRole("link", { name, exact: true }).locator("svg[aria-hidden='true']"),
    ).toHaveCount(1);
  }
});

test("each landing price card is a link to sign-in with its period, with a visible focus", async ({
  page,
}) => {
  await page.goto("/en/");
  for (const months of [1, 3, 6, 12]) {
    const card = page.getByTestId(`plan-${months}`);
    await expect(card).toHaveAttribute("href", `/login?j=${months}`);
    await expect(card).toHaveRole("link");
    await expect(card).toHaveCSS("cursor", "pointer");
  }
  await page.getByTestId("plan-3").focus();
  await expect(page.getByTestId("plan-3")).toHaveCSS("outline-style", "solid");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/login\?j=3$/);
});

test("every support link counts a go_support event", async ({ page, context }) => {
  await context.route("https://t.me/**", (route) => route.fulfill({ body: "Telegram" }));
  const events: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/events") events.push(request.postData() ?? "");
  });
  await page.goto("/en/");
  await page.getByRole("main").getByRole("link", { name: "Write to the support bot" }).click();
  await page.getByRole("contentinfo").getByRole("link", { name: "Support bot" }).click();
  await expect.poll(() => events.filter((event) => event.includes('"go_support"')).length).toBe(2);
  await page.goto("/login");
  await page.getByRole("contentinfo").getByRole("link", { name: "Support bot" }).click();
  await expect.poll(() => events.filter((event) => event.includes('"go_support"')).length).toBe(3);
});

/** Names and codes that stay as they are in every language. */
const properNames =
  /Kannt|Google Play|Google|Yandex|Android|iPhone|Windows|Mac|App Store|Happ|Streisand|FlClash|Hiddify|VPN|PDF|Telegram|support@kannt\.app|\b(RU|EN|KK|ZH)\b/g;

test("ru, zh and kk public pages, titles and descriptions have no English but proper names", async ({
  page,
}) => {
  for (const language of ["ru", "zh", "kk"] as const) {
    for (const path of publicPaths) {
      await page.goto(`/${language}${path}`);
      const title = await page.title();
      const description = (await page.locator('meta[name="description"]').getAttribute("content")) ?? "";
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a visitor reads it.
      const body = await page.locator("body").innerText();
      for (const [what, text] of Object.entries({ title, description, body })) {
        const leftovers = text.replace(properNames, "").match(/[A-Za-z]{2,}/g) ?? [];
        expect(leftovers, `${what} of /${language}${path}`).toEqual([]);
      }
    }
  }
});
