import { expect, type Page, test } from "@playwright/test";
import {
  makeCustomer,
  signInThroughUi,
  signInToPanel,
  uniqueEmail,
  useLanguage,
} from "../../helpers/browser/pages";

/** "pu•••@example.com": the page shows friends' e-mails masked, as the server sends them. */
const masked = (email: string) => `${email.slice(0, 2)}•••${email.slice(email.indexOf("@"))}`;

/** A signed-in inviter on /promo; answers the referral code its invite link carries. */
async function inviterOnPromo(page: Page): Promise<{ email: string; code: string }> {
  const email = uniqueEmail("inviter");
  await makeCustomer(page, { email, status: "ACTIVE" });
  await signInThroughUi(page, email);
  await page.goto("/promo");
  const link = (await page.getByTestId("invite-link").textContent()) ?? "";
  const code = new URL(link).searchParams.get("token");
  if (!code) throw new Error(`no referral code in ${link}`);
  return { email, code };
}

/** Two friends on the inviter's code: one paid in full (counts), one only took the trial. */
async function inviteTwoFriends(page: Page, code: string) {
  const paying = uniqueEmail("paying");
  const trial = uniqueEmail("trial");
  await makeCustomer(page, { email: paying, status: "ACTIVE", referralCode: code });
  await makeCustomer(page, { email: trial, status: "ACTIVE", referralCode: code, paid: "trial" });
  return { paying, trial };
}

test.describe("who counts toward the referral discount", () => {
  test.beforeEach(async ({ page }) => {
    await useLanguage(page, "en");
  });

  test("/promo lists each invited friend with the date and whether it counts, and why not", async ({
    page,
  }) => {
    const { code } = await inviterOnPromo(page);
    await expect(page.getByText("No friends invited yet")).toBeVisible();
    const { paying, trial } = await inviteTwoFriends(page, code);
    await page.reload();

    const friends = page.getByRole("region", { name: "Invited friends" }).getByRole("listitem");
    await expect(friends).toHaveCount(2);
    const payingRow = friends.filter({ hasText: masked(paying) });
    await expect(payingRow).toContainText("Counts: 25% off");
    await expect(payingRow).toContainText(/Invited on [A-Z][a-z]+ \d{1,2}, \d{4}/);
    await expect(friends.filter({ hasText: masked(trial) })).toContainText(
      "Still on the trial: counts after their first full payment",
    );
    // The whole address never reaches the inviter's page.
    await expect(page.getByText(paying)).toHaveCount(0);
    await expect(page.getByTestId("referral-total")).toHaveText("Your referral discount now: 25%");
  });

  test("a failed call says the list could not be loaded, never that there are no friends", async ({
    page,
  }) => {
    await page.route("**/api/profile/referrals", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"error":{"message":"boom"}}' }),
    );
    await inviterOnPromo(page);
    await expect(page.getByRole("alert")).toHaveText(/Could not load your invited friends/);
    await expect(page.getByText("No friends invited yet")).toHaveCount(0);

    await page.unroute("**/api/profile/referrals");
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByText("No friends invited yet")).toBeVisible();
    await expect(page.getByRole("alert")).toHaveCount(0);
  });

  test("the panel's invited users show whether each counts for the discount and why", async ({ page }) => {
    const { email, code } = await inviterOnPromo(page);
    const { paying, trial } = await inviteTwoFriends(page, code);

    await signInToPanel(page);
    await page.waitForURL("**/panel-search");
    await page.getByLabel("Part of an e-mail").fill(email);
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("link", { name: new RegExp(email) }).click();
    await page.waitForURL(/\/panel-user\?id=\d+$/);
    await page.getByRole("link", { name: "Invited users" }).click();

    await expect(page.getByRole("columnheader", { name: "Counts for discount" })).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: paying })).toContainText(
      "Yes: Active and paid beyond the trial (25%)",
    );
    await expect(page.getByRole("row").filter({ hasText: trial })).toContainText(
      "No: Only the trial payment so far",
    );
  });
});

test.describe("/promo in every state", () => {
  test("a signed-out visit goes to sign-in and says where to come back", async ({ page }) => {
    await useLanguage(page, "en");
    await page.goto("/promo");
    await page.waitForURL(/\/login\?next=%2Fpromo$/);
  });

  test("a failed referral-code call shows an error with a retry, not a bounce to the landing", async ({
    page,
  }) => {
    await useLanguage(page, "en");
    const email = uniqueEmail("code.fails");
    await makeCustomer(page, { email, status: "ACTIVE" });
    await signInThroughUi(page, email);
    await page.route("**/api/profile/getReferralCode", (route) => route.abort("connectionreset"));
    await page.goto("/promo");
    await expect(page.getByRole("heading", { name: "Could not load your invite link" })).toBeVisible();
    await expect(page.getByRole("alert")).toContainText("Your discount is not affected");
    await expect(page).toHaveURL(/\/promo$/);
    await page.unroute("**/api/profile/getReferralCode");
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByTestId("invite-link")).toHaveText(/\/\?token=[A-Za-z0-9_-]{11,}$/);
    await expect(page).toHaveTitle("Invite friends | Kannt");
  });

  test("without Web Share (desktop Chromium) Share is left out; Copy link and Download do the job", async ({
    page,
    context,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await useLanguage(page, "en");
    await inviterOnPromo(page);
    expect(await page.evaluate(() => typeof navigator.share)).toBe("undefined");
    await expect(page.getByRole("button", { name: "Share" })).toHaveCount(0);
    await page.getByRole("button", { name: "Copy link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Copied to clipboard" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Download QR code" })).toBeVisible();
  });

  test("where sharing fails the link is copied instead, never just an error", async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await useLanguage(page, "en");
    await page.addInitScript(() => {
      Object.defineProperty(navigator, "share", {
        value: () => Promise.reject(new DOMException("not allowed", "NotAllowedError")),
      });
    });
    await inviterOnPromo(page);
    const link = (await page.getByTestId("invite-link").textContent()) ?? "";
    await page.getByRole("button", { name: "Share" }).click();
    await expect(page.getByRole("status").filter({ hasText: "the link was copied instead" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  });

  test("in Kazakh the page, its title and the friends' dates read in Kazakh (no 'M11')", async ({ page }) => {
    await useLanguage(page, "kk");
    const { code } = await inviterOnPromo(page);
    await inviteTwoFriends(page, code);
    await page.reload();
    await expect(page).toHaveTitle("Достарды шақыру | Kannt");
    const friends = page.locator(".invitees__item");
    await expect(friends).toHaveCount(2);
    const kazakhDate =
      /\d{4} ж\. \d{1,2} (қаңтар|ақпан|наурыз|сәуір|мамыр|маусым|шілде|тамыз|қыркүйек|қазан|қараша|желтоқсан)/;
    for (const friend of await friends.all()) {
      await expect(friend).toContainText(kazakhDate);
      await expect(friend).not.toContainText(/M\d/);
    }
  });
});
