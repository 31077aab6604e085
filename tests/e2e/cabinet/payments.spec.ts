import { expect, test } from "@playwright/test";
import {
  payInWidget,
  signInThroughUi,
  signInWithDemoProvider,
  uniqueEmail,
  useLanguage,
} from "../../helpers/browser/pages";

test.describe("paying", () => {
  test.beforeEach(async ({ page }) => {
    await useLanguage(page, "en");
  });

  test("sign-in, consents, the widget with the success card, and the cabinet is ACTIVE", async ({ page }) => {
    await signInThroughUi(page, uniqueEmail("buyer"));
    const pay = page.getByRole("button", { name: "Pay 1 ₽" });
    await expect(pay).toBeDisabled();
    await page.getByRole("checkbox", { name: /automatically until I cancel/ }).check();
    await page.getByRole("checkbox", { name: /public offer/ }).check();
    await pay.click();
    await payInWidget(page, "4242 4242 4242 4242");
    await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "green");
    await expect(page.getByRole("heading", { name: "Next billing" })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("payment"))).toBe("completed");
  });

  test("the declined card shows why the payment failed and nothing changes", async ({ page }) => {
    await signInThroughUi(page, uniqueEmail("declined"));
    await page.getByRole("checkbox", { name: /automatically until I cancel/ }).check();
    await page.getByRole("checkbox", { name: /public offer/ }).check();
    await page.getByRole("button", { name: "Pay 1 ₽" }).click();
    await payInWidget(page, "4012 8888 8888 1881");
    await expect(page.getByRole("dialog").getByRole("alert")).toHaveText("InsufficientFunds");
    // The gateway's code stays in the widget; the page says it in the customer's words.
    await expect(page.locator("main").getByRole("alert")).toHaveText(
      "The bank declined the payment: not enough money on the card. Nothing was taken.",
    );
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    await page.reload();
    await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "red");
  });

  test("an anonymous purchase on /instantPay is bound after signing in on /instantLogin and confirming", async ({
    page,
  }) => {
    await page.goto("/instantPay");
    await expect(page.getByRole("heading", { name: "Get a subscription" })).toBeVisible();
    await expect(page.getByTestId("instant-first")).toHaveText(/1\s₽/);
    await page.getByRole("radio", { name: "Half-year" }).check();
    await expect(page.getByTestId("instant-price")).toContainText("600");
    await page.getByRole("checkbox", { name: /automatically until I cancel/ }).check();
    await page.getByRole("checkbox", { name: /public offer/ }).check();
    await page.getByRole("button", { name: "Pay 1 ₽" }).click();
    await payInWidget(page, "4242 4242 4242 4242");
    await page.waitForURL("**/instantLogin");
    const paymentId = await page.evaluate(() => localStorage.getItem("userID"));
    expect(paymentId).toMatch(/^[0-9a-f]{30}__$/);
    const email = uniqueEmail("instant");
    await signInWithDemoProvider(page, email, "google.com", "/instantLogin");
    const question = page.getByRole("dialog", { name: "Attach your purchase" });
    await expect(question).toContainText(`Attach this purchase to ${email}?`);
    await question.getByRole("button", { name: "Attach" }).click();
    await page.waitForURL("**/profile");
    await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "green");
  });
});
