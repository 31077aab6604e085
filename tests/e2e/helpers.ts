import { expect, type Page } from "@playwright/test";

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
    const popup = await popupPromise;
    await popup.getByLabel("E-mail").fill(email);
    await popup.getByRole("button", { name: "Continue" }).click();
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

export async function payInWidget(page: Page, card: string) {
  const dialog = page.getByRole("dialog", { name: "Card payment (sandbox)" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Card number").fill(card);
  await dialog.getByRole("button", { name: "Pay" }).click();
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

/** A customer in a given state, made on the server through the product's own services. */
export async function makeCustomer(page: Page, body: Record<string, unknown>) {
  const response = await page.request.post("/api/dev/fixtures/subscription", { data: body });
  expect(response.status(), await response.text()).toBe(200);
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
