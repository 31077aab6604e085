import { expect, type Page, test } from "@playwright/test";
import { holdButton, signInToPanel, uniqueEmail, useLanguage } from "../../helpers/browser/pages";
import { type PayingCustomer, payingCustomerThroughApi } from "../../helpers/browser/paying-customer";

// Two tabs of one operator share the browser's storage, where the panel keeps the customer
// last opened. Each page acts on, and names, the customer of its own URL's id.

type LedgerEntry = { transactionId: string; kind: string; status: string };
type AuditEntry = {
  action: string;
  targetUserId: number | null;
  details: { uid?: string; email?: string; payments?: { transactionId: string }[] };
};

const ledgerOf = async (page: Page, customer: PayingCustomer) =>
  (await (
    await page.request.get(`/api/dev/sandbox/ledger?accountId=${encodeURIComponent(customer.accountId)}`)
  ).json()) as LedgerEntry[];

/** The refund runs whose payments include one of the customer's own (other tests refund too). */
async function refundsAudited(page: Page, customer: PayingCustomer): Promise<AuditEntry[]> {
  const accessToken = await page.evaluate(() => localStorage.getItem("accessToken"));
  const response = await page.request.get("/api/panel/audit?page=0&size=20", {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  expect(response.status()).toBe(200);
  const charges = new Set((await ledgerOf(page, customer)).map((entry) => entry.transactionId));
  const { content } = (await response.json()) as { content: AuditEntry[] };
  return content.filter(
    (entry) =>
      entry.action === "refund" &&
      entry.details.payments?.some((payment) => charges.has(payment.transactionId)),
  );
}

/** Tab B opens its customer, which makes them the one this browser stores as chosen. */
async function openInOtherTab(tab: Page, customer: PayingCustomer) {
  await tab.goto(`/panel-user?id=${customer.userId}`);
  await expect(tab.locator(".panel-details")).toContainText(customer.email);
  await expect
    .poll(() => tab.evaluate(() => localStorage.getItem("selected_person_email")))
    .toBe(customer.email);
}

test("a refund held in one tab refunds that tab's customer after another tab opened someone else", async ({
  page,
  context,
}) => {
  // Two purchases, a captcha sign-in and a 2-second hold, on two cores shared with other workers.
  test.setTimeout(120_000);
  await useLanguage(page, "en");
  const anna = await payingCustomerThroughApi(page, uniqueEmail("tab.anna"));
  const boris = await payingCustomerThroughApi(page, uniqueEmail("tab.boris"));
  await signInToPanel(page);
  await page.waitForURL("**/panel-search");

  // Tab A shows Anna's subscription and what a refund would return.
  await page.goto(`/panel-subscription?id=${anna.userId}`);
  await expect(page.locator(".panel-crumbs__who")).toHaveText(anna.email);
  await expect(page.getByText("Total: 1 ₽")).toBeVisible();

  // Tab B opens Boris.
  const tabB = await context.newPage();
  await openInOtherTab(tabB, boris);

  await page.bringToFront();
  await holdButton(page, page.getByRole("button", { name: "Make refund" }));
  await expect(page.getByRole("status").filter({ hasText: "Refunded 1 ₽ (1 payment)" })).toBeVisible();

  // The bank returned Anna's payment and not Boris's; the audit names Anna.
  expect((await ledgerOf(page, anna)).map((entry) => entry.kind).sort()).toEqual(["payment", "refund"]);
  expect((await ledgerOf(page, boris)).map((entry) => entry.kind)).toEqual(["payment"]);
  const audited = await refundsAudited(page, anna);
  expect(audited.map((entry) => [entry.targetUserId, entry.details.uid, entry.details.email])).toEqual([
    [anna.userId, anna.uid, anna.email],
  ]);
  expect(await refundsAudited(page, boris)).toEqual([]);
  await tabB.goto(`/panel-user?id=${boris.userId}`);
  await expect(tabB.locator(".badge")).toHaveText("Active");
});

test("receipts, invited users and connection logs name their own customer, whatever another tab opened", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await useLanguage(page, "en");
  const anna = await payingCustomerThroughApi(page, uniqueEmail("list.anna"));
  const boris = await payingCustomerThroughApi(page, uniqueEmail("list.boris"));
  await signInToPanel(page);
  await page.waitForURL("**/panel-search");
  const tabB = await context.newPage();
  for (const [path, shows] of [
    ["panel-receipts", "Paid"],
    ["panel-invited", "This customer has not invited anyone yet."],
    ["panel-logs", "No connections from this customer yet."],
  ] as const) {
    await openInOtherTab(tabB, boris);
    await page.goto(`/${path}?id=${anna.userId}`);
    await expect(page.getByText(shows).first()).toBeVisible();
    await expect(page.locator(".panel-crumbs__who"), path).toHaveText(anna.email);
    await expect(page.getByText(boris.email), path).toHaveCount(0);
  }
});
