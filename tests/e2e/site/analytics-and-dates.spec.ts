import { expect, type Page, test } from "@playwright/test";
import { callInPage } from "../../helpers/browser/page-modules";

type DailyCount = { day: string; name: string; count: number };

/** Every day's count of one event; the range is wide because other tests move the server's clock. */
async function totalOf(page: Page, name: string): Promise<number> {
  const response = await page.request.get("/api/dev/events?from=2000-01-01&to=2999-12-31");
  expect(response.status()).toBe(200);
  const rows = (await response.json()) as DailyCount[];
  return rows.filter((row) => row.name === name).reduce((sum, row) => sum + row.count, 0);
}

test("track() on a real page sends its event past the page's CSP, and the server counts it", async ({
  page,
}) => {
  const refused: string[] = [];
  page.on("console", (message) => {
    if (/Content.Security.Policy/i.test(message.text())) refused.push(message.text());
  });
  await page.goto("/");
  const before = await totalOf(page, "purchase_completed");
  const beacon = page.waitForRequest(
    (request) => request.url().endsWith("/api/events") && request.method() === "POST",
  );
  await callInPage(page, "src/lib/analytics.ts", "track", "purchase_completed");
  // sendBeacon's Blob body is not shown to the test, but its type is: JSON, as the server expects.
  expect((await beacon).headers()["content-type"]).toMatch(/^application\/json/);
  await expect.poll(() => totalOf(page, "purchase_completed")).toBeGreaterThanOrEqual(before + 1);
  expect(refused).toEqual([]);
});

const kazakhMonth = /(қаңтар|ақпан|наурыз|сәуір|мамыр|маусым|шілде|тамыз|қыркүйек|қазан|қараша|желтоқсан)/;

test("Chromium, which has no Kazakh month names, still gets Kazakh dates from the helpers", async ({
  page,
}) => {
  await page.goto("/");
  // The browser's own Intl is the reason for the helpers: it writes "2026 M11 23".
  const raw = await page.evaluate(() =>
    new Intl.DateTimeFormat("kk", { dateStyle: "long", timeZone: "Asia/Almaty" }).format(
      Date.UTC(2026, 10, 22, 21, 30),
    ),
  );
  const time = Date.UTC(2026, 10, 22, 21, 30);
  const almaty = { timeZone: "Asia/Almaty" };
  const date = await callInPage<string>(page, "core/date-time.ts", "formatDate", time, "kk", almaty);
  expect(date).toBe("2026 ж. 23 қараша");
  if (/M\d/.test(raw)) expect(await callInPage(page, "core/date-time.ts", "hasMonthNames", "kk")).toBe(false);
  expect(await callInPage(page, "core/date-time.ts", "formatDateTime", time, "kk", almaty)).toBe(
    "2026 ж. 23 қараша, 02:30",
  );
  expect(await callInPage(page, "core/date-time.ts", "formatDayMonth", time, "kk", almaty)).toMatch(
    new RegExp(`^23 ${kazakhMonth.source}$`),
  );
  for (let month = 0; month < 12; month++) {
    const text = await callInPage<string>(
      page,
      "core/date-time.ts",
      "formatDate",
      Date.UTC(2027, month, 10, 12),
      "kk",
      almaty,
    );
    expect(text).toMatch(new RegExp(`^2027 ж\\. 10 ${kazakhMonth.source}$`));
  }
  // The other languages stay with the browser's Intl.
  expect(
    await callInPage(page, "core/date-time.ts", "formatDate", time, "ru", { timeZone: "Europe/Moscow" }),
  ).toBe("23 ноября 2026 г.");
});
