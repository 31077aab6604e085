import { expect, type Page, test } from "@playwright/test";
import { openPanelSection, signInThroughUi, uniqueEmail, useLanguage } from "../../helpers/browser/pages";
import { restoreDemoRoutes } from "../../helpers/browser/payment-routes";

// DESIGN §6, choice and failover: the operator orders and switches the payment routes in
// the panel, saved at once for every new purchase, and audited. It runs after the other
// browser tests (the "routes" project): the routes are the shared server's.

/** The routes in the order on screen, each as "provider method on|off". */
async function routesOnScreen(page: Page): Promise<string[]> {
  const items = page.getByRole("region", { name: "Payment routes" }).getByRole("listitem");
  await expect(items).toHaveCount(4);
  return Promise.all(
    (await items.all()).map(async (item) => {
      const name = (await item.getByRole("switch").getAttribute("aria-label")) ?? "";
      return `${name} ${(await item.getByRole("switch").isChecked()) ? "on" : "off"}`;
    }),
  );
}

/** An expiry no other test's card has: a month and a year of the 2040s to 2080s. */
const uniqueExpiry = () =>
  `${String(1 + Math.floor(Math.random() * 12)).padStart(2, "0")}/${40 + Math.floor(Math.random() * 50)}`;

test.describe("payments in the panel", () => {
  // One route list for the whole server: these tests change it one after the other.
  test.describe.configure({ mode: "serial" });

  test.beforeEach(async ({ page }) => {
    await useLanguage(page, "en");
  });

  test("an administrator puts SBP before card and switches CloudPayments' SBP off: kept after a reload, and audited", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openPanelSection(page, "Payments", "panel-payments");
    try {
      // A failing server reads as a failure with a way to ask again, never as an empty list.
      await page.route("**/api/panel/payments/routes", (route) =>
        route.fulfill({ status: 500, contentType: "application/json", body: '{"error":"INTERNAL"}' }),
      );
      await page.reload();
      await expect(page.getByRole("alert")).toContainText("An error occurred while executing the request");
      await page.unrouteAll();
      await page.getByRole("button", { name: "Try again" }).click();

      expect(await routesOnScreen(page)).toEqual([
        "CloudPayments (card) on",
        "CloudPayments (SBP) on",
        "YooKassa (card) on",
        "YooKassa (SBP) on",
      ]);
      const providers = page.getByRole("region", { name: "Providers on this server" });
      await expect(providers.getByRole("listitem").filter({ hasText: "CloudPayments" })).toContainText(
        "Healthy",
      );
      await expect(providers.getByRole("listitem").filter({ hasText: "YooKassa" })).toContainText("Healthy");

      // From the keyboard: the Up button keeps the focus as its route rises to the top.
      const up = page.getByRole("button", { name: "Up: CloudPayments (SBP)" });
      await up.focus();
      await page.keyboard.press("Enter");
      await expect(up).toBeFocused();
      await expect(up).toHaveAttribute("aria-disabled", "true");
      await page.getByRole("switch", { name: "CloudPayments (SBP)" }).press("Space");
      await expect(page.getByText("Changes not saved yet.")).toBeVisible();

      await page.getByRole("button", { name: "Save" }).click();
      await expect(
        page
          .getByRole("status")
          .filter({ hasText: "Payment routes saved: new purchases follow this order." }),
      ).toBeVisible();
      const kept = [
        "CloudPayments (SBP) off",
        "CloudPayments (card) on",
        "YooKassa (card) on",
        "YooKassa (SBP) on",
      ];
      expect(await routesOnScreen(page)).toEqual(kept);
      await page.reload();
      expect(await routesOnScreen(page)).toEqual(kept);

      await page
        .getByRole("navigation", { name: "Panel sections" })
        .getByRole("link", { name: "Audit log" })
        .click();
      await expect(
        page.getByText(
          "changed the payment routes: moved CloudPayments (SBP) to place 1; switched off CloudPayments (SBP)",
        ),
      ).toBeVisible();
    } finally {
      await restoreDemoRoutes(page);
    }
  });

  // The next card purchase after YooKassa's card route is put first is paid on its page,
  // and the payer comes back to an active cabinet.
  test("the operator puts YooKassa first, and the next card purchase is paid on YooKassa's page", async ({
    page,
    browser,
  }) => {
    const customer = await (await browser.newContext()).newPage();
    await useLanguage(customer, "en");
    await page.setViewportSize({ width: 1440, height: 900 });
    await openPanelSection(page, "Payments", "panel-payments");
    try {
      const up = page.getByRole("button", { name: "Up: YooKassa (card)" });
      await up.click();
      await up.click();
      await page.getByRole("button", { name: "Save" }).click();
      await expect(
        page
          .getByRole("status")
          .filter({ hasText: "Payment routes saved: new purchases follow this order." }),
      ).toBeVisible();

      await signInThroughUi(customer, uniqueEmail("routes-yookassa"));
      await customer.getByRole("checkbox", { name: /automatically until I cancel/ }).check();
      await customer.getByRole("checkbox", { name: /public offer/ }).check();
      await customer.getByRole("button", { name: "Pay 1 ₽" }).click();
      // YooKassa's page (the demo's sandbox checkout), not CloudPayments' widget.
      await customer.waitForURL(/\/api\/dev\/sandbox\/yookassa\/checkout/);
      await customer.getByLabel("Card number").fill("4242 4242 4242 4242");
      // A card's trial is once per card (first six, last four, expiry): the other tests paid
      // theirs with this number, so this card has an expiry of its own, or its trial would be
      // refused at payment and refunded, as YooKassa has no Check to refuse it before.
      await customer.getByLabel(/Expiry/).fill(uniqueExpiry());
      await customer.getByRole("button", { name: /^Pay / }).click();
      await customer.waitForURL(/\/profile$/);
      await expect(customer.getByTestId("status-dot")).toHaveAttribute("data-status", "green");
    } finally {
      await restoreDemoRoutes(page);
      await customer.context().close();
    }
  });
});
