import { expect, type Page, test } from "@playwright/test";
import {
  buyAnonymously,
  makeCustomer,
  signInThroughUi,
  signInToPanel,
  signInWithDemoProvider,
  uniqueEmail,
  useLanguage,
} from "../../helpers/browser/pages";
import { payTrialInCabinet } from "../../helpers/browser/purchase-helpers";

// DESIGN §13: the trial is once per card, and the purchase screen says so when a card had
// one; a paid anonymous purchase is never lost, and attaching it says what it adds first.

const stored = (page: Page, key: string) => page.evaluate((name) => localStorage.getItem(name), key);

/** Pays in the sandbox widget with a card named by number and expiry: the same pair is the same card. */
async function payWithNamedCard(page: Page, expiry: string) {
  const dialog = page.getByRole("dialog", { name: "Card payment (sandbox)" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Card number").fill("4242 4242 4242 4242");
  await dialog.getByLabel(/Expiry/).fill(expiry);
  await dialog.getByRole("button", { name: "Pay" }).click();
}

/**
 * An expiry for this run's card: the sandbox hands cards paid without one expiries from
 * 01/30 on, so the 2090s are this file's, and the clock keeps runs apart.
 */
function namedExpiry(test: number): string {
  const slot = Math.floor(Date.now() / 1000) * 2 + test;
  return `${String(1 + (slot % 12)).padStart(2, "0")}/9${Math.floor(slot / 12) % 10}`;
}

async function agreeAndPay(page: Page, label: string) {
  await page.getByRole("checkbox", { name: /automatically until I cancel/ }).check();
  await page.getByRole("checkbox", { name: /public offer/ }).check();
  await page.getByRole("button", { name: label }).click();
}

test.beforeEach(async ({ page }) => {
  await useLanguage(page, "en");
});

test("a card that had a trial: the screen says why and the plan at its price is one click away", async ({
  page,
}) => {
  const expiry = namedExpiry(0);
  await signInThroughUi(page, uniqueEmail("card-first"));
  await agreeAndPay(page, "Pay 1 ₽");
  await payWithNamedCard(page, expiry);
  await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "green");

  await page.getByRole("button", { name: "Change account" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/profile"));
  await signInThroughUi(page, uniqueEmail("card-second"));
  await agreeAndPay(page, "Pay 1 ₽");
  await payWithNamedCard(page, expiry);
  const notice = page.getByTestId("no-trial");
  await expect(notice).toContainText("This card has already had a trial");
  await expect(notice).toContainText("nothing was charged");
  await page
    .getByRole("dialog", { name: "Card payment (sandbox)" })
    .getByRole("button", { name: "Cancel" })
    .click();
  // The same screen now states the plan at its price, to be agreed to again.
  await expect(page.getByTestId("charge-terms")).toContainText("is charged now, with no trial");
  await agreeAndPay(page, "Pay 150 ₽");
  await payWithNamedCard(page, expiry);
  await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "green");
});

test("another card may still start the trial after one was refused", async ({ page }) => {
  const expiry = namedExpiry(1);
  await signInThroughUi(page, uniqueEmail("other-card-first"));
  await agreeAndPay(page, "Pay 1 ₽");
  await payWithNamedCard(page, expiry);
  await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "green");
  await page.getByRole("button", { name: "Change account" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/profile"));
  await signInThroughUi(page, uniqueEmail("other-card-second"));
  await agreeAndPay(page, "Pay 1 ₽");
  await payWithNamedCard(page, expiry);
  await expect(page.getByTestId("no-trial")).toBeVisible();
  await page
    .getByRole("dialog", { name: "Card payment (sandbox)" })
    .getByRole("button", { name: "Cancel" })
    .click();
  await page.getByRole("button", { name: "Pay with another card" }).click();
  await expect(page.getByTestId("no-trial")).toHaveCount(0);
  await payTrialInCabinet(page);
});

test("after Not now the cabinet keeps the purchase, Change account keeps it, and attaching says what it adds", async ({
  page,
}) => {
  await buyAnonymously(page);
  const paymentId = await stored(page, "userID");
  await signInWithDemoProvider(page, uniqueEmail("later"), "google.com", "/instantLogin");
  const question = page.getByRole("dialog", { name: "Attach your purchase" });
  await expect(question.getByTestId("prepaid-effect")).toContainText(
    /^Starts your subscription: \d+ days?, to /,
  );
  await question.getByRole("button", { name: "Not now" }).click();
  await page.waitForURL("**/profile");

  const waiting = page.getByTestId("pending-purchase");
  await expect(waiting).toContainText("A purchase waits to be attached");
  await page.getByRole("button", { name: "Change account" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/profile"));
  expect([await stored(page, "payment"), await stored(page, "userID")]).toEqual(["completed", paymentId]);

  await signInWithDemoProvider(page, uniqueEmail("attach-from-cabinet"));
  await page
    .getByRole("dialog", { name: "Attach your purchase" })
    .getByRole("button", { name: "Not now" })
    .click();
  await page.waitForURL("**/profile");
  await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "red");
  await page.getByTestId("pending-purchase").getByRole("button", { name: "Attach it" }).click();
  const again = page.getByRole("dialog", { name: "Attach your purchase" });
  await expect(again.getByTestId("prepaid-effect")).toContainText(
    /^Starts your subscription: \d+ days?, to /,
  );
  await again.getByRole("button", { name: "Attach" }).click();
  await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "green");
  await expect(page.getByTestId("pending-purchase")).toHaveCount(0);
  expect([await stored(page, "payment"), await stored(page, "userID")]).toEqual([null, null]);
});

test("attaching a year to an account with extra device slots says, before the click, that the slots end with their paid time", async ({
  page,
}) => {
  const email = uniqueEmail("slots-attach");
  await makeCustomer(page, { email, status: "ACTIVE", extraDevices: 2, language: "en" });
  // A year bought at the plan's price without an account (its card had a trial), kept in this browser.
  const prepaidToken = `e2e-slots-${Date.now()}-${"x".repeat(12)}`;
  const ordered = await page.request.post("/api/shop/order", {
    data: { prepaidToken, tariff: 12, period: 30, fullPrice: true },
  });
  const { invoiceId } = (await ordered.json()) as { invoiceId: string };
  const paid = await page.request.post("/api/dev/sandbox/pay", {
    data: { invoiceId, cardNumber: "4242 4242 4242 4242" },
  });
  expect(((await paid.json()) as { success: boolean }).success).toBe(true);
  await page.goto("/instantLogin");
  await page.evaluate((token) => {
    localStorage.setItem("payment", "completed");
    localStorage.setItem("userID", token);
  }, prepaidToken);
  await signInWithDemoProvider(page, email, "google.com", "/instantLogin");
  const question = page.getByRole("dialog", { name: "Attach your purchase" });
  await expect(question.getByTestId("prepaid-effect")).toContainText(
    /^Adds 12 months to your subscription, to /,
  );
  await expect(question.getByTestId("prepaid-slots")).toContainText(
    /^Your 2 extra device slots are paid until .+ and end then: this purchase does not pay for them\./,
  );
  await question.getByRole("button", { name: "Attach" }).click();
  await page.waitForURL("**/profile");
  await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "green");
});

test("an account that had its trial is told before the click that the purchase goes back instead", async ({
  page,
}) => {
  const email = uniqueEmail("had-trial");
  await signInThroughUi(page, email);
  await payTrialInCabinet(page);
  await page.getByRole("button", { name: "Change account" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/profile"));
  await buyAnonymously(page);
  await signInWithDemoProvider(page, email, "google.com", "/instantLogin");
  // Only the refusal and its reason: no question to attach what cannot be attached.
  const refusal = page.getByRole("dialog", { name: "This purchase cannot be attached" });
  await expect(refusal.getByTestId("prepaid-effect")).toContainText(
    `It cannot be attached to ${email}: This account has already had its trial`,
  );
  await expect(refusal.getByText(/Attach this purchase to/)).toHaveCount(0);
  await expect(refusal.getByText(/Once attached/)).toHaveCount(0);
  await expect(refusal.getByRole("button", { name: "Attach", exact: true })).toHaveCount(0);
  await refusal.getByRole("button", { name: "Return the payment" }).click();
  await expect(refusal.getByRole("alert")).toContainText(
    "The purchase was not attached: This account has already had its trial",
  );
  await expect(refusal.getByRole("alert")).toContainText("The payment goes back to your card");
  await expect(refusal.getByRole("button", { name: "Return the payment" })).toHaveCount(0);
  await refusal.getByRole("button", { name: "Continue without it" }).click();
  await page.waitForURL("**/profile");
  await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "green");
  await expect(page.getByTestId("pending-purchase")).toHaveCount(0);
});

test("support finds a paid purchase no account holds by its transaction id", async ({ page }) => {
  await buyAnonymously(page);
  const paymentId = (await stored(page, "userID")) ?? "";
  const ledger = (await (
    await page.request.get(`/api/dev/sandbox/ledger?accountId=${encodeURIComponent(paymentId)}`)
  ).json()) as { transactionId: string; kind: string; status: string }[];
  const paid = ledger.find((entry) => entry.kind === "payment" && entry.status === "Completed");
  expect(paid).toBeDefined();
  await page.evaluate(() => localStorage.clear());
  await signInToPanel(page);
  await page.waitForURL("**/panel-search");
  await page.getByLabel("Part of an e-mail").fill(paid?.transactionId ?? "");
  await page.getByRole("button", { name: "Search" }).click();
  const found = page.getByTestId("unbound-purchases");
  await expect(
    found.getByRole("heading", { name: "Paid purchases not attached to an account" }),
  ).toBeVisible();
  await expect(found).toContainText(`#${paid?.transactionId}`);
  await expect(found).toContainText("no e-mail given");
  await expect(found).toContainText("1 ₽");
});
