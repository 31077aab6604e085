import { expect, type Page, test } from "@playwright/test";
import { holdButton, signInThroughUi, uniqueEmail, useLanguage } from "../../helpers/browser/pages";

/** Signs in through the UI, then pays the 1 ₽ first payment in the sandbox with a card it keeps. */
async function payingCustomer(page: Page) {
  const email = uniqueEmail("card");
  await signInThroughUi(page, email);
  const uid = await page.evaluate(() => localStorage.getItem("uid"));
  const order = await page.request.post("/api/shop/order", { data: { uid, email, tariff: 1, period: 30 } });
  expect(order.status(), await order.text()).toBe(200);
  const { invoiceId } = (await order.json()) as { invoiceId: string };
  const paid = await page.request.post("/api/dev/sandbox/pay", {
    data: { invoiceId, cardNumber: "4242 4242 4242 4242" },
  });
  expect(((await paid.json()) as { success: boolean }).success).toBe(true);
  await page.reload();
  return { email, uid };
}

/** Presses the button named `name` with the mouse for `milliseconds`, then releases it. */
const hold = (page: Page, name: string, milliseconds: number) =>
  holdButton(page, page.getByRole("button", { name }), milliseconds);

test.beforeEach(async ({ page }) => {
  await useLanguage(page, "en");
});

test("the saved card is removed by a 2-second hold, not a shorter one, and auto-renewal is then off", async ({
  page,
}) => {
  const { email, uid } = await payingCustomer(page);
  const card = page.getByTestId("saved-card");
  await expect(card).toHaveText("Saved card •••• 4242");
  await expect(
    page.getByText(/Removing the card deletes it from our records and stops renewals/),
  ).toBeVisible();

  await hold(page, "Remove card", 1_000);
  await page.waitForTimeout(1_500);
  await expect(card).toHaveText("Saved card •••• 4242");
  const stillSaved = await page.request.post("/api/profile", { data: { uid, email } });
  expect(((await stillSaved.json()) as { card: { isSaved: boolean } }).card.isSaved).toBe(true);

  await hold(page, "Remove card", 2_300);
  await expect(card).toHaveText("No card is saved.");
  await expect(page.getByText(/^You removed your card on .+; auto-renewal is off\.$/)).toBeVisible();
  await expect(page.getByRole("heading", { name: "Auto-renewal is off" })).toBeVisible();
  await expect(
    page.locator("main").getByText(/nothing more will be charged\. Access stays open until/),
  ).toBeVisible();
  // The confirmation says what happened and what it means for access.
  await expect(
    page.locator("#toasts").getByText(/^Card removed\. Auto-renewal is off .+ Access stays open until .+\.$/),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Resume subscription" })).toHaveCount(0);
  await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "amber");
});

test("the history lists the paid first payment, and its receipt link opens the receipt", async ({ page }) => {
  const { email } = await payingCustomer(page);
  const history = page.getByRole("region", { name: "Payment history" });
  const row = history.getByRole("row").filter({ hasText: "First payment: 30-day trial" });
  await expect(row).toContainText("1\u00a0₽");
  // The status names the method, as the receipt page does.
  await expect(row).toContainText("Paid · Card");
  const link = row.getByRole("link", { name: /^Receipt No\. \d+$/ });
  const title = (await link.textContent()) ?? "";
  const popupPromise = page.waitForEvent("popup");
  await link.click();
  const receipt = await popupPromise;
  await expect(receipt.getByRole("heading", { name: title })).toBeVisible();
  await expect(receipt.getByText(email)).toBeVisible();
  await expect(receipt.getByText("1\u00a0₽")).toBeVisible();
});

test("a failing history call says the payments could not be loaded, never that there are none", async ({
  page,
}) => {
  await page.route("**/api/profile/payments", (route) =>
    route.fulfill({ status: 500, contentType: "application/json", body: '{"success":false}' }),
  );
  await signInThroughUi(page, uniqueEmail("history-down"));
  const history = page.getByRole("region", { name: "Payment history" });
  await expect(history.getByRole("alert")).toHaveText("Could not load your payments. Please try again.");
  await expect(history.getByText("No payments yet.")).toHaveCount(0);
  await page.unroute("**/api/profile/payments");
  await history.getByRole("button", { name: "Try again" }).click();
  await expect(history.getByText("No payments yet.")).toBeVisible();
  await expect(history.getByRole("alert")).toHaveCount(0);
});
