import { expect, type Page, test } from "@playwright/test";
import { signInToPanel, uniqueEmail, useLanguage } from "../../helpers/browser/pages";

/** A customer made through the demo fixtures; its id is what the panel's URLs carry. */
async function customer(page: Page, body: Record<string, unknown>): Promise<number> {
  const response = await page.request.post("/api/dev/fixtures/subscription", { data: body });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { userId: number }).userId;
}

const hasNoSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

test.describe("the panel in daily use", () => {
  test.beforeEach(async ({ page }) => {
    await useLanguage(page, "en");
  });

  test("per-customer URLs open in a new tab; bad and unknown ids lead back to the search", async ({
    page,
    context,
  }) => {
    const email = uniqueEmail("byurl");
    const id = await customer(page, { email, status: "ACTIVE", extraDevices: 1 });
    await signInToPanel(page);
    await page.waitForURL("**/panel-search");
    await page.getByLabel("Part of an e-mail").fill(email);
    await page.getByRole("button", { name: "Search" }).click();
    const result = page.getByRole("link", { name: new RegExp(email) });
    await expect(result).toHaveAttribute("href", `/panel-user?id=${id}`);

    // A second tab, with nothing chosen in this browser: the URL alone decides.
    await page.evaluate(() => localStorage.removeItem("selected_person"));
    const tab = await context.newPage();
    await tab.goto(`/panel-user?id=${id}`);
    await expect(tab.getByText(email).first()).toBeVisible();
    // 150 ₽ a month plus one extra device slot at 50 ₽: what the renewal charges.
    await expect(tab.getByText("200 ₽ every 1 mo.")).toBeVisible();
    await expect(tab.getByText(/Tariff 150\s₽ \+ extra devices 50\s₽, discount 0%/)).toBeVisible();
    await expect(tab.getByRole("link", { name: "Users", exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
    for (const [name, path] of [
      ["Receipts", "panel-receipts"],
      ["Invited users", "panel-invited"],
      ["Connection logs", "panel-logs"],
      ["Manage subscription", "panel-subscription"],
    ])
      await expect(tab.getByRole("link", { name, exact: true })).toHaveAttribute("href", `/${path}?id=${id}`);
    await expect(tab).toHaveTitle("Customer · Kannt panel");

    await tab.goto("/panel-receipts?id=abc");
    await expect(tab.getByRole("alert")).toContainText("wrong customer number");
    await tab.goto("/panel-user?id=99999999");
    await expect(tab.getByRole("alert")).toContainText("no customer with this number");
    await tab.getByRole("link", { name: "Go to the search" }).click();
    await tab.waitForURL("**/panel-search");
  });

  test("receipts: time of day with its zone, a localized status badge and a page size", async ({ page }) => {
    const email = uniqueEmail("receipts");
    const id = await customer(page, { email, status: "ACTIVE" });
    await signInToPanel(page);
    await page.waitForURL("**/panel-search");
    await page.goto(`/panel-receipts?id=${id}`);
    const table = page.getByRole("region", { name: "Table: Receipts" });
    await expect(table.getByRole("columnheader", { name: /^Date and time \(.+\)$/ })).toBeVisible();
    await expect(table.getByRole("cell", { name: /\d{4}, \d{2}:\d{2}$/ })).toBeVisible();
    await expect(table.locator(".badge")).toHaveText("Paid");
    await expect(table).toHaveAttribute("tabindex", "0");
    const size = page.getByLabel("Rows per page");
    await expect(size).toHaveValue("3");
    const asked = page.waitForRequest((request) => request.url().includes("/api/panel/checks"));
    await size.selectOption("25");
    expect(new URL((await asked).url()).searchParams.get("size")).toBe("25");
    await expect(table.locator(".badge")).toHaveText("Paid");
  });

  test("parallel calls after the access token expired refresh once and keep the operator signed in", async ({
    page,
  }) => {
    // The search page's own first call is over before the token is spoilt: else it meets the
    // 401 and refreshes before the promo page's calls, which then never see one.
    const searched = page.waitForResponse((response) => response.url().includes("/api/panel/users/search"));
    await signInToPanel(page);
    await page.waitForURL("**/panel-search");
    await searched;
    const refreshes: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/auth/refreshToken")) refreshes.push(request.postData() ?? "");
    });
    await page.evaluate(() => localStorage.setItem("accessToken", "expired.or.forged"));
    // The promo page asks for the promo kinds and the list of codes at once; both meet a 401.
    const unauthorized: string[] = [];
    page.on("response", (response) => {
      if (response.status() === 401 && response.url().includes("/api/panel/"))
        unauthorized.push(response.url());
    });
    await page.goto("/panel-promo");
    await expect(page.getByRole("option", { name: "Subscription discount" })).toBeAttached();
    await expect(
      page
        .getByRole("region", { name: "Table: Available promo codes" })
        .or(page.getByText("There are no available promo codes.")),
    ).toBeVisible();
    expect(unauthorized).toHaveLength(2);
    expect(refreshes).toHaveLength(1);
    expect(new URL(page.url()).pathname).toBe("/panel-promo");
  });

  test("the audit log reads as sentences, fits the page, and the promo search filters", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInToPanel(page);
    await page.waitForURL("**/panel-search");
    await page.goto("/panel-promo");
    await expect(page.getByRole("link", { name: "Promo codes" })).toHaveAttribute("aria-current", "page");
    // A digit in it: the code is data, and the language checks of screens open meanwhile
    // (languages.spec.ts) read a code of letters only as an untranslated word.
    const name = `FIND${Date.now().toString(36).toUpperCase()}7`;
    await page.getByLabel("Code", { exact: true }).fill(name);
    await page.getByRole("button", { name: "Create" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Promo code ${name} created.` })).toBeVisible();
    const search = page.getByLabel("Search promo codes");
    await search.fill(name.slice(2).toLowerCase());
    await page.getByRole("button", { name: "Search" }).click();
    const list = page.getByRole("region", { name: "Table: Available promo codes" });
    await expect(list.getByRole("row")).toHaveCount(2);
    await expect(list.getByRole("cell", { name })).toBeVisible();
    await search.fill("NO-SUCH-CODE-EVER");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByText("No available promo code contains “NO-SUCH-CODE-EVER”.")).toBeVisible();
    expect(await hasNoSidewaysScroll(page)).toBe(true);

    await page.goto("/panel-audit");
    await expect(page.getByRole("link", { name: "Audit log" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByText(`created promo code ${name} (20% off)`)).toBeVisible();
    await expect(page.getByText("signed in to the panel").first()).toBeVisible();
    await expect(page.locator(".panel-audit")).not.toContainText("{");
    expect(await hasNoSidewaysScroll(page)).toBe(true);
  });

  test("the login page has the panel header and footer, and speaks the chosen language", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/panel-login");
    await expect(page.locator("header.panel-header")).toBeVisible();
    await expect(page.locator("footer.panel-footer")).toBeVisible();
    await page.getByRole("button", { name: "RU" }).click();
    await expect(page.getByLabel("Логин")).toBeVisible();
    await expect(page).toHaveTitle("Вход · Панель Kannt");
    await page.getByRole("button", { name: "Войти", exact: true }).click();
    await expect(page.getByRole("alert")).toHaveText("Сначала пройдите проверку «Я не робот».");
    const switcher = page.getByRole("navigation", { name: "Язык" });
    const boxes = await switcher
      .getByRole("button")
      .evaluateAll((buttons) => buttons.map((button) => Math.round(button.getBoundingClientRect().top)));
    expect(new Set(boxes).size).toBe(1);
    expect(await hasNoSidewaysScroll(page)).toBe(true);
  });
});
