import { expect, type Locator, type Page, test } from "@playwright/test";

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

test("the active language is highlighted in the footer", async ({ page }) => {
  await page.goto("/kk/");
  const footer = page.getByRole("contentinfo");
  await expect(footer.getByRole("link", { name: "KK", exact: true })).toHaveAttribute("aria-current", "true");
  await expect(footer.getByRole("link", { name: "RU", exact: true })).not.toHaveAttribute(
    "aria-current",
    "true",
  );
});

test("an invite link stores its token under promo", async ({ page }) => {
  await page.goto("/?token=abc123");
  await expect.poll(() => page.evaluate(() => localStorage.getItem("promo"))).toBe("abc123");
});

test("the iOS button shows the coming-soon toast, which closes itself after 5 seconds", async ({ page }) => {
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
          if (toast?.textContent?.includes("The iPhone app is coming soon")) shown = true;
          if (shown && !toast) {
            observer.disconnect();
            resolve({ shown, closedAfterMs: performance.now() - started });
          }
        });
        observer.observe(document.body, { childList: true, subtree: true });
        document.querySelector<HTMLButtonElement>("button[data-toast]")?.click();
      }),
  );
  await expect(page.getByRole("status").filter({ hasText: "The iPhone app is coming soon" })).toBeVisible();
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
  await page.getByRole("button", { name: "Download on the App Store" }).click();
  const toast = page.getByRole("status").filter({ hasText: "coming soon" });

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
