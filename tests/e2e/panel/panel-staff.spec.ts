import { expect, type Page, test } from "@playwright/test";
import {
  holdButton,
  openPanelSection,
  panelAdmin,
  signInThroughPanelForm,
  useLanguage,
} from "../../helpers/browser/pages";

const hasNoSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

/** A name no other test uses; the digits keep it out of the untranslated-words check of parallel screens. */
const uniqueUsername = () => `e2e.staff.${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** One operator's block in the staff list. */
const memberOf = (page: Page, username: string) =>
  page.getByRole("listitem").filter({ has: page.getByText(username, { exact: true }) });

/** The password shown once: read, then dismissed, after which it is nowhere on the page. */
async function takeOncePassword(page: Page, username: string): Promise<string> {
  const box = page.getByRole("region", { name: `New password for ${username}` });
  await expect(box).toContainText("it will not be shown again");
  const password = await box.getByLabel("New password").inputValue();
  expect(password.length).toBeGreaterThanOrEqual(12);
  await box.getByRole("button", { name: "Done, hide it" }).click();
  await expect(box).toHaveCount(0);
  await expect(page.locator(`input[value="${password}"]`)).toHaveCount(0);
  return password;
}

test.describe("staff in the panel", () => {
  test.beforeEach(async ({ page }) => {
    await useLanguage(page, "en");
  });

  test("an administrator creates, resets, disables, enables and promotes a support operator", async ({
    page,
    context,
    browser,
  }, testInfo) => {
    // Five captcha sign-ins and three 2-second holds, on two cores shared with another worker.
    test.setTimeout(180_000);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.setViewportSize({ width: 390, height: 844 });
    await openPanelSection(page, "Staff", "panel-staff");

    // Their own account: no role change and no disable on offer.
    const own = memberOf(page, panelAdmin.username);
    await expect(own.getByText("you", { exact: true })).toBeVisible();
    await expect(own.getByRole("combobox")).toHaveCount(0);
    await expect(own.getByRole("button", { name: "Disable" })).toHaveCount(0);

    // Created without a password: one is made and shown once, with a copy button.
    const username = uniqueUsername();
    const form = page.getByRole("region", { name: "New staff account" });
    await form.getByLabel("Username").fill(username);
    await expect(form.getByLabel("Role")).toHaveValue("support");
    await form.getByRole("button", { name: "Create account" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: `Staff account ${username} created.` }),
    ).toBeVisible();
    const box = page.getByRole("region", { name: `New password for ${username}` });
    await expect(box).toBeVisible();
    await box.getByRole("button", { name: "Copy" }).click();
    await expect(box.getByRole("status")).toHaveText("Copied.");
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await box.getByLabel("New password").inputValue());
    expect(await hasNoSidewaysScroll(page)).toBe(true);
    const first = await takeOncePassword(page, username);
    const member = memberOf(page, username);
    await expect(member.getByLabel("Role")).toHaveValue("support");
    await expect(member).toContainText("Active");
    expect(await hasNoSidewaysScroll(page)).toBe(true);
    // Not shown again: a fresh look at the page has the operator, not the password.
    await page.reload();
    await expect(memberOf(page, username)).toBeVisible();
    await expect(page.getByRole("region", { name: `New password for ${username}` })).toHaveCount(0);

    // The new operator signs in with it elsewhere and sees no staff data.
    const otherContext = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
    const other = await otherContext.newPage();
    await useLanguage(other, "en");
    await signInThroughPanelForm(other, { username, password: first });
    await other.waitForURL("**/panel-search");
    await other.goto("/panel-staff");
    await expect(other.getByRole("alert")).toHaveText("This section is for administrators only.");
    await expect(other.getByText(panelAdmin.username)).toHaveCount(0);
    await expect(other.getByRole("button", { name: "Create account" })).toHaveCount(0);

    // A reset makes another password, shown once, and ends their sign-in.
    await holdButton(page, memberOf(page, username).getByRole("button", { name: "Reset password" }));
    const second = await takeOncePassword(page, username);
    expect(second).not.toBe(first);
    await other.reload();
    await other.waitForURL("**/panel-login");
    await signInThroughPanelForm(other, { username, password: second });
    await other.waitForURL("**/panel-search");

    // Disabled: their next panel call sends them to the login, where they are refused.
    await holdButton(page, memberOf(page, username).getByRole("button", { name: "Disable" }));
    await expect(page.getByRole("status").filter({ hasText: `${username} is disabled` })).toBeVisible();
    await expect(memberOf(page, username)).toContainText("Disabled");
    await other.getByLabel("Part of an e-mail").fill("someone");
    await other.getByRole("button", { name: "Search" }).click();
    await other.waitForURL("**/panel-login");
    await signInThroughPanelForm(other, { username, password: second });
    await expect(other.getByRole("alert")).toHaveText("This staff account is disabled.");

    // Enabled again, then made an administrator: the staff screen opens for them.
    await memberOf(page, username).getByRole("button", { name: "Enable" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: `${username} can sign in again.` }),
    ).toBeVisible();
    await expect(memberOf(page, username)).toContainText("Active");
    await memberOf(page, username).getByLabel("Role").selectOption("admin");
    await expect(
      page.getByRole("status").filter({ hasText: `Role of ${username}: administrator.` }),
    ).toBeVisible();
    await page.reload();
    await expect(memberOf(page, username).getByLabel("Role")).toHaveValue("admin");
    await expect(memberOf(page, username).getByRole("button", { name: "Disable" })).toBeVisible();
    // An administrator must have a second factor: after the password, only its enrolment opens.
    await signInThroughPanelForm(other, { username, password: second });
    await other.waitForURL("**/panel-security");
    await other.goto("/panel-staff");
    await other.waitForURL("**/panel-security");
    await otherContext.close();

    // Every change reads as a sentence in the audit log.
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(await hasNoSidewaysScroll(page)).toBe(true);
    await page.goto("/panel-audit");
    for (const sentence of [
      `created staff account ${username} (support)`,
      `reset the password of ${username}`,
      `disabled staff account ${username}`,
      `enabled staff account ${username}`,
      `changed the role of ${username} to administrator`,
    ])
      await expect(page.getByText(sentence)).toBeVisible();
  });

  test("a taken username and a short password are refused in place, with the server's words", async ({
    page,
  }) => {
    await openPanelSection(page, "Staff", "panel-staff");
    const form = page.getByRole("region", { name: "New staff account" });
    await form.getByLabel("Username").fill(panelAdmin.username);
    await form.getByRole("button", { name: "Create account" }).click();
    const refusal = form.getByRole("alert");
    await expect(refusal).toContainText("A staff account with this username already exists.");
    await expect(refusal).toContainText(`The operator "${panelAdmin.username}" already exists.`);
    await expect(page.getByRole("region", { name: /^New password for/ })).toHaveCount(0);

    const username = uniqueUsername();
    await form.getByLabel("Username").fill(username);
    await form.getByLabel("Password (optional)").fill("too short");
    await form.getByRole("button", { name: "Create account" }).click();
    await expect(refusal).toContainText("Check the username");
    await expect(refusal).toContainText("An operator password needs at least 12 characters.");
    await expect(memberOf(page, username)).toHaveCount(0);

    // With a password of its own the account is made and no password is shown.
    await form.getByLabel("Password (optional)").fill("a long enough password");
    await form.getByRole("button", { name: "Create account" }).click();
    await expect(memberOf(page, username)).toBeVisible();
    await expect(refusal).toHaveCount(0);
    await expect(page.getByRole("region", { name: /^New password for/ })).toHaveCount(0);
  });
});
