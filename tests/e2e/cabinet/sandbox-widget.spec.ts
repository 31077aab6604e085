import { expect, test } from "@playwright/test";
import { signInThroughUi, uniqueEmail, useLanguage } from "../../helpers/browser/pages";

type LedgerEntry = {
  kind: string;
  amount: number;
  receipt: { email?: string; Items: { label: string }[]; amounts: { electronic: number } } | null;
};

test.describe("the sandbox widget", () => {
  test.beforeEach(async ({ page }) => {
    await useLanguage(page, "en");
  });

  test("takes the card's expiry, explains a malformed one, and hands the order's receipt to the bank", async ({
    page,
  }) => {
    const email = uniqueEmail("expiry");
    await signInThroughUi(page, email);
    await page.getByRole("checkbox", { name: /automatically until I cancel/ }).check();
    await page.getByRole("checkbox", { name: /public offer/ }).check();
    await page.getByRole("button", { name: "Pay 1 ₽" }).click();
    const dialog = page.getByRole("dialog", { name: "Card payment (sandbox)" });
    await dialog.getByLabel("Card number").fill("4242 4242 4242 4242");
    await dialog.getByLabel("Expiry (MM/YY, optional)").fill("13/30");
    await dialog.getByRole("button", { name: "Pay" }).click();
    await expect(dialog.getByRole("alert")).toContainText("expiry must be MM/YY");
    await dialog.getByLabel("Expiry (MM/YY, optional)").fill("04/29");
    await dialog.getByRole("button", { name: "Pay" }).click();
    await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "green");
    const entries = (await (await page.request.get("/api/dev/sandbox/ledger")).json()) as LedgerEntry[];
    const payment = entries.find((entry) => entry.receipt?.email === email);
    expect(payment).toMatchObject({
      kind: "payment",
      amount: 1,
      receipt: { amounts: { electronic: 1 }, Items: [{ label: expect.stringContaining("Подписка Kannt") }] },
    });
  });
});
