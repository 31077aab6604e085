import { expect, type Page, test } from "@playwright/test";
import { makeCustomer, signInToPanel, uniqueEmail, useLanguage } from "../../helpers/browser/pages";

type Day = {
  day: string;
  activeSubscriptions: number;
  failedPayments: number;
  supportClicks: number;
};
type Dashboard = {
  from: string;
  to: string;
  days: Day[];
  months: { month: string; revenue: { RUB: number; KZT: number } }[];
  trialToPaid: { trials: number; converted: number; rate: number | null };
  churn: { activeAtStart: number; ended: number; rate: number | null };
};

const isDashboardCall = (url: string) => new URL(url).pathname === "/api/panel/dashboard";
const sum = (days: Day[], pick: (day: Day) => number) => days.reduce((total, day) => total + pick(day), 0);
const count = (value: number) => new Intl.NumberFormat("en").format(value);
const hasNoSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

/** The answer the screen is about to draw, read as the browser receives it. */
async function nextAnswer(page: Page, action: () => Promise<unknown>) {
  const answer = page.waitForResponse((response) => isDashboardCall(response.url()));
  await action();
  const response = await answer;
  expect(response.status()).toBe(200);
  return { url: new URL(response.url()), body: (await response.json()) as Dashboard };
}

/** The tiles say exactly what the server answered (other tests share the database, so no fixed numbers). */
async function expectTilesOf(page: Page, body: Dashboard) {
  const last = body.days.at(-1);
  await expect(page.getByTestId("tile-active").locator(".panel-tile__value")).toHaveText(
    count(last?.activeSubscriptions ?? 0),
  );
  await expect(page.getByTestId("tile-failed").locator(".panel-tile__value")).toHaveText(
    count(sum(body.days, (day) => day.failedPayments)),
  );
  await expect(page.getByTestId("tile-support").locator(".panel-tile__value")).toHaveText(
    count(sum(body.days, (day) => day.supportClicks)),
  );
  const trials = body.trialToPaid.trials;
  await expect(page.getByTestId("tile-trial-to-paid")).toContainText(
    trials === 0 ? "No trial was paid in this range" : `${body.trialToPaid.converted} of ${trials} trials`,
  );
}

test.describe("the dashboard", () => {
  test.beforeEach(async ({ page }) => {
    await useLanguage(page, "en");
  });

  test("shows the server's figures as tiles and charts, over the range the administrator picks", async ({
    page,
  }) => {
    // Something to count today: a paying customer and a click on the support link.
    await makeCustomer(page, { email: uniqueEmail("dashboard"), status: "ACTIVE" });
    expect((await page.request.post("/api/events", { data: { name: "go_support" } })).status()).toBe(200);
    await signInToPanel(page);
    await page.waitForURL("**/panel-search");

    const first = await nextAnswer(page, () =>
      page.getByRole("link", { name: "Dashboard", exact: true }).click(),
    );
    await expect(page).toHaveURL(/\/panel-dashboard$/);
    expect(first.body.days).toHaveLength(30);
    expect(first.body.days.at(-1)?.activeSubscriptions).toBeGreaterThan(0);
    expect(sum(first.body.days, (day) => day.supportClicks)).toBeGreaterThan(0);
    await expectTilesOf(page, first.body);
    await expect(page.getByRole("button", { name: "30 days", exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    // Six charts, each drawn, each with its figures in a table for reading exact values.
    await expect(page.locator(".panel-chart")).toHaveCount(6);
    await expect(page.locator(".panel-chart svg")).toHaveCount(6);
    const active = page.getByRole("figure", { name: "Active subscriptions per day" });
    await active.getByText("Show the figures").click();
    await expect(active.getByRole("row")).toHaveCount(31);
    await expect(active.locator("svg .ct-line")).toHaveCount(1);

    // A preset: the last 7 days, in the address so a reload keeps it.
    const week = await nextAnswer(page, () =>
      page.getByRole("button", { name: "7 days", exact: true }).click(),
    );
    expect(week.url.searchParams.get("to")).toBe(first.body.to);
    expect(week.body.days).toHaveLength(7);
    await expect(page).toHaveURL(/\?days=7$/);
    await expectTilesOf(page, week.body);

    // Two chosen days in the wrong order are refused in place, and nothing is asked.
    let asked = 0;
    page.on("request", (request) => {
      if (isDashboardCall(request.url())) asked++;
    });
    await page.getByLabel("From").fill("2026-11-10");
    await page.getByLabel("To").fill("2026-11-01");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page.getByRole("alert")).toHaveText("The start must not be after the end.");
    expect(asked).toBe(0);

    const chosen = await nextAnswer(page, async () => {
      await page.getByLabel("From").fill("2026-10-01");
      await page.getByLabel("To").fill("2026-11-15");
      await page.getByRole("button", { name: "Show" }).click();
    });
    expect(chosen.body.days).toHaveLength(46);
    expect(chosen.body.months.map((month) => month.month)).toEqual(["2026-10", "2026-11"]);
    await expect(page.getByTestId("dashboard-range")).toHaveText("October 1, 2026 – November 15, 2026 (UTC)");
    await expect(page.getByRole("alert")).toHaveCount(0);
    const reloaded = await nextAnswer(page, () => page.reload());
    expect(reloaded.url.searchParams.get("from")).toBe("2026-10-01");
    await expect(
      page.getByRole("figure", { name: /Revenue per month in roubles/ }).locator(".ct-bar"),
    ).toHaveCount(2);

    // A phone: the charts stack and nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.locator(".panel-chart svg")).toHaveCount(6);
    expect(await hasNoSidewaysScroll(page)).toBe(true);
  });

  test("a failed call says so and asks again; the answer then fills the screen", async ({ page }) => {
    await signInToPanel(page);
    await page.waitForURL("**/panel-search");
    let failures = 1;
    await page.route("**/api/panel/dashboard?**", (route) =>
      failures-- > 0 ? route.fulfill({ status: 500, body: "{}" }) : route.continue(),
    );
    await page.goto("/panel-dashboard");
    await expect(page.getByRole("alert")).toContainText("An error occurred while executing the request");
    const retried = await nextAnswer(page, () => page.getByRole("button", { name: "Try again" }).click());
    await expectTilesOf(page, retried.body);
  });
});
