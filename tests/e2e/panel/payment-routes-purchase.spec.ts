import { expect, test } from "@playwright/test";
import { openPanelSection, signInThroughUi, uniqueEmail, useLanguage } from "../../helpers/browser/pages";
import { restoreDemoRoutes } from "../../helpers/browser/payment-routes";

// DESIGN §6, choice and failover: the operator puts YooKassa's card route first in the
// panel, and the next card purchase goes to YooKassa: its page takes the card and the payer
// comes back to an active cabinet. It runs alone, after every other browser test (the
// "routes" project in playwright.config.ts): the routes are the shared server's, and every
// other purchase test pays CloudPayments' widget.

test("the operator puts YooKassa first, and the next card purchase is paid on YooKassa's page", async ({
  page,
  browser,
}) => {
  await useLanguage(page, "en");
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPanelSection(page, "Payments", "panel-payments");
  try {
    const up = page.getByRole("button", { name: "Up: YooKassa (card)" });
    await up.click();
    await up.click();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "Payment routes saved: new purchases follow this order." }),
    ).toBeVisible();

    const customer = await (await browser.newContext()).newPage();
    await useLanguage(customer, "en");
    await signInThroughUi(customer, uniqueEmail("routes-yookassa"));
    await customer.getByRole("checkbox", { name: /automatically until I cancel/ }).check();
    await customer.getByRole("checkbox", { name: /public offer/ }).check();
    await customer.getByRole("button", { name: "Pay 1 ₽" }).click();
    // YooKassa's page (the demo's sandbox checkout), not CloudPayments' widget.
    await customer.waitForURL(/\/api\/dev\/sandbox\/yookassa\/checkout/);
    await customer.getByLabel("Card number").fill("4242 4242 4242 4242");
    await customer.getByRole("button", { name: /^Pay / }).click();
    await customer.waitForURL(/\/profile$/);
    await expect(customer.getByTestId("status-dot")).toHaveAttribute("data-status", "green");
    await customer.context().close();
  } finally {
    await restoreDemoRoutes(page);
  }
});
