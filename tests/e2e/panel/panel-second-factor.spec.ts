import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { TOTP } from "otpauth";
import { blockingAtBothWidths, describeFinding } from "../../helpers/browser/axe";
import { newOperator } from "../../helpers/browser/cli";
import { layoutProblems } from "../../helpers/browser/layout";
import { holdButton, signInThroughPanelForm, useLanguage } from "../../helpers/browser/pages";

// Staff second factor (DESIGN §12) through the panel's own screens: each test makes its own
// administrator with the operator CLI, who must enrol a factor at their first sign-in.

/**
 * Chromium's virtual authenticator (CDP WebAuthn domain) on this page: a passkey device with
 * user verification (fingerprint, PIN) that answers by itself, or one that cannot verify.
 */
async function addAuthenticator(context: BrowserContext, page: Page, isUserVerified = true) {
  const devtools = await context.newCDPSession(page);
  await devtools.send("WebAuthn.enable");
  const { authenticatorId } = await devtools.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified,
      automaticPresenceSimulation: true,
    },
  });
  return { devtools, authenticatorId };
}

/** The recovery codes shown once: read, then closed, after which they are nowhere on the page. */
async function takeRecoveryCodes(page: Page): Promise<string[]> {
  const box = page.getByRole("region", { name: "Your recovery codes" });
  await expect(box).toContainText("they will not be shown again");
  const codes = await box
    .getByRole("list", { name: "Recovery codes" })
    .getByRole("listitem")
    .allTextContents();
  expect(codes).toHaveLength(10);
  expect(new Set(codes).size).toBe(10);
  await box.getByRole("button", { name: "I have saved them" }).click();
  await expect(box).toHaveCount(0);
  await expect(page.getByText(codes[0] ?? "none")).toHaveCount(0);
  return codes.map((code) => code.trim());
}

/** The password step of an operator with a factor: the second step asks for it. */
async function passwordStep(page: Page, credentials: { username: string; password: string }) {
  await signInThroughPanelForm(page, credentials);
  await expect(page.getByRole("heading", { name: "Confirm it is you" })).toBeVisible();
  await expect(page.getByText(`Signing in as ${credentials.username}`)).toBeVisible();
}

/** This operator's entries of the audit log that read `sentence` (other tests write there too). */
const auditEntry = (page: Page, username: string, sentence: string) =>
  page
    .getByRole("listitem")
    .filter({ has: page.getByText(username, { exact: true }) })
    .filter({ hasText: sentence });

/** No serious accessibility finding and no layout defect, at a laptop's width and a phone's. */
async function wellDrawn(page: Page) {
  expect((await blockingAtBothWidths(page)).map(describeFinding)).toEqual([]);
  expect(await layoutProblems(page)).toEqual([]);
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(await layoutProblems(page)).toEqual([]);
}

async function logOut(page: Page) {
  await page.getByRole("button", { name: "Log out" }).click();
  await page.waitForURL("**/panel-login");
}

/** Signs a new administrator in: without a factor, only the Security screen opens. */
async function enrollingAdmin(page: Page, name: string) {
  const admin = newOperator(name);
  await signInThroughPanelForm(page, admin);
  await page.waitForURL("**/panel-security");
  await expect(
    page.getByText("Administrators must add a second factor before using the panel."),
  ).toBeVisible();
  return admin;
}

test.describe("the staff second factor in the panel", () => {
  test.beforeEach(async ({ page }) => {
    await useLanguage(page, "en");
  });

  test("an administrator without a second factor is kept on the enrolment screen", async ({ page }) => {
    await enrollingAdmin(page, "enrol");
    const sections = page.getByRole("navigation", { name: "Panel sections" });
    await expect(sections.getByRole("link", { name: "Security" })).toHaveAttribute("aria-current", "page");
    await wellDrawn(page);
    // Any other screen sends them back here: the server refuses its calls until they enrol.
    await Promise.all([
      page.waitForURL("**/panel-search", { waitUntil: "commit" }),
      sections.getByRole("link", { name: "Users" }).click(),
    ]);
    await page.waitForURL("**/panel-security");
    await expect(page.getByRole("heading", { name: "Add a second factor" })).toBeVisible();
  });

  test("a passkey added at enrolment signs in after the password and alone", async ({ page, context }) => {
    test.setTimeout(120_000);
    await addAuthenticator(context, page);
    const admin = await enrollingAdmin(page, "passkey");

    // The sign-in counts as the fresh check: the passkey is added at once, with its recovery codes.
    await page.getByLabel("Name").fill("Test laptop");
    await page.getByRole("button", { name: "Add passkey" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Passkey Test laptop added." })).toBeVisible();
    await takeRecoveryCodes(page);
    const row = page.getByRole("list", { name: "Passkeys" }).getByRole("listitem");
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("Test laptop");
    await expect(row.getByRole("definition")).toHaveText([/2\d{3}/, "not yet"]);
    await expect(page.getByText("Unused codes: 10 of 10.")).toBeVisible();
    await page.getByRole("link", { name: "Continue to the panel" }).click();
    await page.waitForURL("**/panel-search");

    // The password, then the passkey.
    await logOut(page);
    await passwordStep(page, admin);
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await page.waitForURL("**/panel-search");

    // The passkey alone, from the first form: no username, no password, no captcha.
    await logOut(page);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.waitForURL("**/panel-search");
    await page.goto("/panel-security");
    await expect(page.getByRole("list", { name: "Passkeys" }).getByRole("definition").last()).not.toHaveText(
      "not yet",
    );
    // An administrator's last factor stays: the server's reason is said in its row.
    const passkey = page.getByRole("list", { name: "Passkeys" }).getByRole("listitem");
    await holdButton(page, passkey.getByRole("button", { name: "Remove" }));
    await expect(passkey.getByRole("alert")).toHaveText(
      "This is your last second factor, and your account must have one. Add another first.",
    );
    await expect(passkey).toContainText("Test laptop");

    await page.goto("/panel-audit");
    await expect(auditEntry(page, admin.username, "added passkey Test laptop")).toHaveCount(1);
    await expect(auditEntry(page, admin.username, "signed in to the panel with a passkey")).toHaveCount(2);
  });

  test("a device that cannot verify its user is refused with a clear message", async ({ page, context }) => {
    await addAuthenticator(context, page, false);
    await enrollingAdmin(page, "unverified");
    await page.getByLabel("Name").fill("No fingerprint");
    await page.getByRole("button", { name: "Add passkey" }).click();
    const refusal = page.getByRole("region", { name: "Passkeys" }).getByRole("alert");
    // Chromium refuses the server's "user verification required" itself, before anything is sent.
    await expect(refusal).toHaveText("The passkey was not used: cancelled or not accepted by this device");
    await expect(page.getByText("No passkeys yet.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Add passkey" })).toBeEnabled();
  });

  test("an authenticator app set up from its key signs in with its code", async ({ page }) => {
    test.setTimeout(120_000);
    const admin = await enrollingAdmin(page, "totp");
    const app = page.getByRole("region", { name: "Authenticator app" });
    await app.getByRole("button", { name: "Set up" }).click();
    await expect(app.getByRole("img", { name: "QR code for the authenticator app" })).toBeVisible();
    await wellDrawn(page);
    // The key typed into the app by hand, as a person reads it off the screen.
    const secret = (await app.getByLabel("Setup key").inputValue()).replace(/\s+/g, "");
    const totp = new TOTP({ secret, digits: 6, period: 30 });
    await app.getByLabel("The code the app shows now").fill("000000");
    await app.getByRole("button", { name: "Turn on" }).click();
    await expect(app.getByRole("alert")).toHaveText("The code is wrong or has already been used.");
    await app.getByLabel("The code the app shows now").fill(totp.generate());
    await app.getByRole("button", { name: "Turn on" }).click();
    await expect(page.getByRole("region", { name: "Your recovery codes" })).toBeVisible();
    await wellDrawn(page);
    await takeRecoveryCodes(page);
    await expect(app).toContainText("Turned on");

    await logOut(page);
    await passwordStep(page, admin);
    await expect(page.getByRole("button", { name: "Use a passkey" })).toHaveCount(0);
    await wellDrawn(page);
    // Each step's code is taken once: the next step's, which the server still accepts (±1 step).
    await page
      .getByLabel("Code from the authenticator app")
      .fill(totp.generate({ timestamp: Date.now() + 30_000 }));
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.waitForURL("**/panel-search");
    await page.goto("/panel-audit");
    await expect(auditEntry(page, admin.username, "turned on the authenticator app")).toHaveCount(1);
    await expect(auditEntry(page, admin.username, "failed to sign in: wrong authenticator code")).toHaveCount(
      0,
    );
    await expect(
      auditEntry(page, admin.username, "signed in to the panel with an authenticator code"),
    ).toHaveCount(1);
  });

  test("a change the server wants a fresh check for asks who it is, then goes on", async ({ page }) => {
    test.setTimeout(120_000);
    const admin = await enrollingAdmin(page, "fresh");
    const app = page.getByRole("region", { name: "Authenticator app" });
    await app.getByRole("button", { name: "Set up" }).click();
    const secret = (await app.getByLabel("Setup key").inputValue()).replace(/\s+/g, "");
    await app.getByLabel("The code the app shows now").fill(new TOTP({ secret }).generate());
    await app.getByRole("button", { name: "Turn on" }).click();
    const [first] = await takeRecoveryCodes(page);

    // A sign-in's check lasts five minutes: the server's refusal after them is played here once.
    let isRefused = false;
    await page.route("**/api/panel/security/recovery-codes", async (route) => {
      if (isRefused) return route.continue();
      isRefused = true;
      await route.fulfill({
        status: 403,
        contentType: "application/json",
        body: JSON.stringify({
          success: false,
          error: { code: "fresh_check_required", message: "Confirm it is you." },
        }),
      });
    });
    const codes = page.getByRole("region", { name: "Recovery codes" });
    await holdButton(page, codes.getByRole("button", { name: "New recovery codes" }));
    const dialog = page.getByRole("dialog", { name: "Confirm it is you" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Use a passkey" })).toHaveCount(0);
    await wellDrawn(page);
    await dialog.getByLabel("Password").fill("not the password");
    await dialog.getByRole("button", { name: "Confirm with the password" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Wrong password.");
    await dialog.getByLabel("Password").fill(admin.password);
    await dialog.getByRole("button", { name: "Confirm with the password" }).click();
    await expect(dialog).toHaveCount(0);
    // The change went on by itself: a new set, and the old codes are gone.
    const renewed = await takeRecoveryCodes(page);
    expect(renewed).not.toContain(first);

    await page.goto("/panel-audit");
    await expect(
      auditEntry(page, admin.username, "failed to confirm it is them: wrong password"),
    ).toHaveCount(1);
    await expect(auditEntry(page, admin.username, "confirmed it is them with a password")).toHaveCount(1);
    await expect(auditEntry(page, admin.username, "made new recovery codes")).toHaveCount(1);
  });

  test("a recovery code signs in once and is refused the second time", async ({ page }) => {
    test.setTimeout(120_000);
    const admin = await enrollingAdmin(page, "recovery");
    const app = page.getByRole("region", { name: "Authenticator app" });
    await app.getByRole("button", { name: "Set up" }).click();
    const secret = (await app.getByLabel("Setup key").inputValue()).replace(/\s+/g, "");
    await app.getByLabel("The code the app shows now").fill(new TOTP({ secret }).generate());
    await app.getByRole("button", { name: "Turn on" }).click();
    const [code, another] = await takeRecoveryCodes(page);
    if (!code || !another) throw new Error("no recovery codes shown");

    await logOut(page);
    await passwordStep(page, admin);
    await page.getByRole("button", { name: "Use a recovery code instead" }).click();
    await page.getByLabel("Recovery code").fill(code);
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.waitForURL("**/panel-search");
    await page.goto("/panel-security");
    await expect(page.getByText("Unused codes: 9 of 10.")).toBeVisible();

    await logOut(page);
    await passwordStep(page, admin);
    await page.getByRole("button", { name: "Use a recovery code instead" }).click();
    await page.getByLabel("Recovery code").fill(code);
    await page.getByRole("button", { name: "Confirm" }).click();
    await expect(page.getByRole("alert")).toHaveText("The code is wrong or has already been used.");
    await expect(page).toHaveURL(/\/panel-login$/);
    // The way back to the password form is there; the next code still works.
    await page.getByRole("button", { name: "Back to the password" }).click();
    await expect(page.getByLabel("Password", { exact: true })).toBeVisible();
    await passwordStep(page, admin);
    await page.getByRole("button", { name: "Use a recovery code instead" }).click();
    await page.getByLabel("Recovery code").fill(another);
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.waitForURL("**/panel-search");
    await page.goto("/panel-audit");
    await expect(auditEntry(page, admin.username, "signed in to the panel with a recovery code")).toHaveCount(
      2,
    );
    await expect(auditEntry(page, admin.username, "failed to sign in: wrong recovery code")).toHaveCount(1);
  });
});
