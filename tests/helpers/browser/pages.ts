import { expect, type Locator, type Page } from "@playwright/test";
import { type CaptchaChallenge, panelAdmin, panelAdminTokens, solveChallenge } from "./panel-admin";

type Provider = "google.com" | "yandex";

/** Starts a sign-in through the real buttons and the demo identity provider, as a customer would. */
export async function signInWithDemoProvider(
  page: Page,
  email: string,
  provider: Provider = "google.com",
  path = "/login",
) {
  await page.goto(path);
  if (provider === "google.com") {
    const popupPromise = page.waitForEvent("popup");
    await page.getByRole("button", { name: /Google/ }).click();
    await continueInDemoPopup(await popupPromise, email);
  } else {
    await page.getByRole("button", { name: /Yandex|Яндекс/ }).click();
    await page.getByLabel("E-mail").fill(email);
    await page.getByRole("button", { name: "Continue" }).click();
  }
}

/** Signs in through the real buttons and lands on the cabinet. */
export async function signInThroughUi(
  page: Page,
  email: string,
  provider: Provider = "google.com",
  path = "/login",
) {
  await signInWithDemoProvider(page, email, provider, path);
  await page.waitForURL("**/profile");
}

/** A month paid on /instantPay before signing in; the widget then sends the buyer to /instantLogin. */
export async function buyAnonymously(page: Page) {
  await page.goto("/instantPay");
  await page.getByRole("checkbox", { name: /automatically until I cancel/ }).check();
  await page.getByRole("checkbox", { name: /public offer/ }).check();
  await page.getByRole("button", { name: "Pay 1 ₽" }).click();
  await payInWidget(page, "4242 4242 4242 4242");
  await page.waitForURL("**/instantLogin");
}

/**
 * Signs in on the demo provider's popup, which closes itself as the click lands: a click
 * that finds its page closed has done its work (the opener's outcome is checked after).
 */
export async function continueInDemoPopup(popup: Page, email: string) {
  await popup.getByLabel("E-mail").fill(email);
  const closed = popup.waitForEvent("close");
  await popup
    .getByRole("button", { name: "Continue" })
    .click()
    .catch((error: unknown) => {
      if (!popup.isClosed()) throw error;
    });
  await closed;
}

/** A customer in a given state, made on the server through the product's own services. */
export async function makeCustomer(
  page: Page,
  body: Record<string, unknown>,
): Promise<{ uid: string; email: string; userId: number }> {
  const response = await page.request.post("/api/dev/fixtures/subscription", { data: body });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { uid: string; email: string; userId: number };
}

/** Solves the staff captcha's proof of work in Node, as the login page does in the browser. */
export async function solveCaptcha(page: Page): Promise<string> {
  return solveChallenge((await (await page.request.get("/api/auth/captcha")).json()) as CaptchaChallenge);
}

export async function useLanguage(page: Page, language: "ru" | "en" | "zh" | "kk") {
  await page.addInitScript((lang) => {
    if (!localStorage.getItem("i18nextLng")) localStorage.setItem("i18nextLng", lang);
  }, language);
}

let counter = 0;
/** A fresh e-mail per test, so parallel tests never share a customer. */
export const uniqueEmail = (name: string) =>
  `${name}.${Date.now().toString(36)}${(counter++).toString(36)}@example.com`;

export { panelAdmin };

/**
 * Signs the browser tests' administrator in to the panel: password, captcha and their
 * passkey through the API (panel-admin.ts), the pair stored as the login form stores it,
 * and on to the search, where the form would go.
 */
export async function signInToPanel(page: Page) {
  const tokens = await panelAdminTokens();
  await page.goto("/panel-login");
  await page.evaluate((pair) => {
    localStorage.setItem("accessToken", pair.accessToken);
    localStorage.setItem("refreshToken", pair.refreshToken);
  }, tokens);
  await page.goto("/panel-search");
}

/** Signs in through the login form and the built-in captcha, as an operator without a second factor would. */
export async function signInThroughPanelForm(
  page: Page,
  credentials: { username: string; password: string },
) {
  await page.goto("/panel-login");
  await expect(page.getByText("For internal use only")).toBeVisible();
  await page.getByLabel("Login").fill(credentials.username);
  await page.getByLabel("Password", { exact: true }).fill(credentials.password);
  await page.getByRole("checkbox", { name: /I'm not a robot/ }).check();
  // The proof of work is random: a median 1.3 s and a few seconds in the worst case alone,
  // longer while the other browser worker and the server share the two cores.
  await expect(page.getByText("Verified")).toBeVisible({ timeout: 20_000 });
  // Exact: "Sign in with a passkey" is beside it.
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Signs the administrator in and opens the panel section `name` from the panel's navigation, at `/<path>`. */
export async function openPanelSection(page: Page, name: string, path: string) {
  await signInToPanel(page);
  await page.waitForURL("**/panel-search");
  await page.getByRole("navigation", { name: "Panel sections" }).getByRole("link", { name }).click();
  await page.waitForURL(`**/${path}`);
  await expect(page.getByRole("link", { name })).toHaveAttribute("aria-current", "page");
}

/** Pays in the sandbox widget's card form once it is open. */
export async function payInWidget(page: Page, card: string) {
  const dialog = page.getByRole("dialog", { name: "Card payment (sandbox)" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Card number").fill(card);
  await dialog.getByRole("button", { name: "Pay" }).click();
}

/**
 * Holds a hold-to-confirm button with the mouse for `milliseconds` (past the 2 s it takes,
 * by default), then releases it. Scrolled into view first: the mouse only reaches what is
 * on screen, and below the fold the press would land nowhere.
 */
export async function holdButton(page: Page, button: Locator, milliseconds = 2_300) {
  await button.scrollIntoViewIfNeeded();
  const box = await button.boundingBox();
  if (!box) throw new Error("the button is not drawn");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.waitForTimeout(milliseconds);
  await page.mouse.up();
}
