import { expect, type Page, test } from "@playwright/test";
import {
  continueInDemoPopup,
  makeCustomer,
  payInWidget,
  signInThroughUi,
  uniqueEmail,
  useLanguage,
} from "../../helpers/browser/pages";

const purchaseForm = (page: Page) =>
  page.getByRole("heading", { name: "You have not bought a subscription yet" });

test.beforeEach(async ({ page }) => {
  await useLanguage(page, "en");
});

test.describe("a failed cabinet call is never read as a missing subscription", () => {
  for (const failure of ["500", "dropped connection"] as const) {
    test(`profile answering ${failure}: an error with Retry, no purchase form, no sign-out`, async ({
      page,
    }) => {
      const email = uniqueEmail("failing");
      await makeCustomer(page, { email, status: "ACTIVE" });
      await signInThroughUi(page, email);
      await expect(page.getByRole("heading", { name: "Next billing" })).toBeVisible();
      await page.route("**/api/profile", (route) =>
        failure === "500" ? route.fulfill({ status: 500, body: "{}" }) : route.abort("connectionreset"),
      );
      await page.reload();
      await expect(page.getByRole("heading", { name: "Your cabinet did not load" })).toBeVisible();
      await expect(purchaseForm(page)).toHaveCount(0);
      await expect(page.getByText("No active subscription")).toHaveCount(0);
      await expect(page.getByRole("button", { name: /Pay/ })).toHaveCount(0);
      expect(new URL(page.url()).pathname).toBe("/profile");

      await page.unroute("**/api/profile");
      await page.getByRole("button", { name: "Try again" }).click();
      await expect(page.getByRole("heading", { name: "Next billing" })).toBeVisible();
      await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "green");
    });
  }

  test("the shop call failing is an error too, said in the customer's language", async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem("i18nextLng", "ru"));
    const email = uniqueEmail("shopfail");
    await makeCustomer(page, { email, status: "ACTIVE", language: "ru" });
    await signInThroughUi(page, email);
    await page.route("**/api/shop/getShop", (route) => route.fulfill({ status: 503, body: "{}" }));
    await page.reload();
    await expect(page.getByRole("heading", { name: "Не удалось загрузить личный кабинет" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Повторить" })).toBeVisible();
    await expect(page).toHaveTitle("Личный кабинет | Kannt");
  });

  test("only a missing session (401) sends the customer to sign-in", async ({ page }) => {
    const email = uniqueEmail("expired-session");
    await signInThroughUi(page, email);
    await expect(page.getByTestId("status-dot")).toBeVisible();
    await page.context().clearCookies();
    await page.reload();
    await page.waitForURL("**/login?next=%2Fprofile");
  });
});

test.describe("plans", () => {
  test("the cabinet offers 1, 3, 6 and 12 months and orders the one chosen", async ({ page }) => {
    await signInThroughUi(page, uniqueEmail("plans"));
    for (const months of [1, 3, 6, 12]) await expect(page.getByTestId(`plan-${months}`)).toBeVisible();
    await expect(page.getByTestId("plan-12")).toContainText(/1\s?080\s₽/);
    await expect(page.getByTestId("plan-12")).toContainText("save 40%");
    await page.getByTestId("plan-3").click();
    await expect(page.getByTestId("period-price")).toHaveText("400 ₽");
    await expect(page.getByTestId("charge-terms")).toContainText(/400\s₽ per 3 months/);
    const order = page.waitForRequest((request) => new URL(request.url()).pathname === "/api/shop/order");
    await page.getByRole("checkbox", { name: /automatically until I cancel/ }).check();
    await page.getByRole("checkbox", { name: /public offer/ }).check();
    await page.getByRole("button", { name: "Pay 1 ₽" }).click();
    expect((await order).postDataJSON()).toMatchObject({ tariff: 3 });
    await payInWidget(page, "4242 4242 4242 4242");
    await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "green");
    await expect(page.locator("#toasts").getByText(/Payment received/)).toBeVisible();
  });

  test("a price card's /login?j=6 lands a signed-in customer on the cabinet with 6 months chosen", async ({
    page,
  }) => {
    await signInThroughUi(page, uniqueEmail("jsix"));
    await page.goto("/login?j=6");
    await page.waitForURL("**/profile");
    await expect(page.getByTestId("plan-6").getByRole("radio")).toBeChecked();
    await expect(page.getByTestId("period-price")).toHaveText("600 ₽");
  });

  test("/login?j=12 signed out: after signing in the cabinet has 12 months chosen", async ({ page }) => {
    await page.goto("/login?j=12");
    const popupPromise = page.waitForEvent("popup");
    await page.getByRole("button", { name: /Google/ }).click();
    await continueInDemoPopup(await popupPromise, uniqueEmail("jtwelve"));
    await page.waitForURL("**/profile");
    await expect(page.getByTestId("plan-12").getByRole("radio")).toBeChecked();
  });
});

test("a former customer is told the subscription ended and is not offered the trial", async ({ page }) => {
  const email = uniqueEmail("former");
  await makeCustomer(page, { email, status: "EXPIRED", paid: "trial" });
  await signInThroughUi(page, email);
  await expect(page.getByRole("heading", { name: /Your subscription ended on/ })).toBeVisible();
  await expect(page.getByText(/Subscription ended on/).first()).toBeVisible();
  await expect(purchaseForm(page)).toHaveCount(0);
  await expect(page.getByTestId("no-trial")).toBeVisible();
  await expect(page.getByRole("button", { name: "Pay 150 ₽" })).toBeVisible();
  await page.getByTestId("plan-6").click();
  await expect(page.getByRole("button", { name: "Pay 600 ₽" })).toBeVisible();
});

test("a promo code check without a connection says so in the customer's language", async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem("i18nextLng", "kk"));
  await signInThroughUi(page, uniqueEmail("promo-offline"));
  await page.route("**/api/shop/applyPromo", (route) => route.abort("internetdisconnected"));
  await page.getByLabel("Промокод").fill("SPRING");
  await page.getByRole("button", { name: "Қолдану" }).click();
  await expect(page.locator("#promo-error")).toHaveText(/Промокодты тексеру мүмкін болмады/);
  await expect(page.getByText("Failed to fetch")).toHaveCount(0);
});

test("paying sends purchase_started when the widget opens and purchase_completed on success", async ({
  page,
}) => {
  const events: string[] = [];
  await page.route("**/api/events", async (route) => {
    events.push((route.request().postDataJSON() as { name: string }).name);
    await route.fulfill({ status: 204 });
  });
  await signInThroughUi(page, uniqueEmail("tracked"));
  await page.getByRole("checkbox", { name: /automatically until I cancel/ }).check();
  await page.getByRole("checkbox", { name: /public offer/ }).check();
  await page.getByRole("button", { name: "Pay 1 ₽" }).click();
  await expect.poll(() => events).toContain("purchase_started");
  expect(events).not.toContain("purchase_completed");
  await payInWidget(page, "4242 4242 4242 4242");
  await expect.poll(() => events).toContain("purchase_completed");
});

test("/mobileShop without the app's credential offers sign-in in place", async ({ page }) => {
  await page.goto("/mobileShop");
  await expect(page.getByRole("heading", { name: "Sign in to continue" })).toBeVisible();
  await expect(page.getByRole("button", { name: /Google/ })).toBeVisible();
  await expect(page.getByRole("button", { name: /Yandex/ })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/mobileShop");
  const popupPromise = page.waitForEvent("popup");
  await page.getByRole("button", { name: /Google/ }).click();
  await continueInDemoPopup(await popupPromise, uniqueEmail("mobile-in-place"));
  await page.waitForURL("**/mobileShop");
  await expect(page.getByTestId("plan-1")).toBeVisible();
});

test("a Yandex sign-in, which leaves the site, also comes back to the page that asked for it", async ({
  page,
}) => {
  await page.goto("/profile?tab=history");
  await page.waitForURL("**/login?next=%2Fprofile%3Ftab%3Dhistory");
  await page.getByRole("button", { name: /Yandex/ }).click();
  await page.getByLabel("E-mail").fill(uniqueEmail("yandex-return"));
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL("**/profile?tab=history");
  await expect(page.getByTestId("status-dot")).toBeVisible();
});

test("/login returns only to a path on this site", async ({ page }) => {
  await page.goto("/login?next=%2F%2Fevil.example%2Fprofile");
  const popupPromise = page.waitForEvent("popup");
  await page.getByRole("button", { name: /Google/ }).click();
  await continueInDemoPopup(await popupPromise, uniqueEmail("next-guard"));
  await page.waitForURL("**/profile");
  expect(new URL(page.url()).host).toBe(new URL(page.url()).host);
  expect(new URL(page.url()).pathname).toBe("/profile");
});

for (const language of ["ru", "kk"] as const) {
  test(`at 390 px in ${language} the cabinet does not scroll sideways and no button label wraps`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.addInitScript((lang) => localStorage.setItem("i18nextLng", lang), language);
    const email = `a.very.long.address.for.${uniqueEmail(language)}`;
    await signInThroughUi(page, email);
    await expect(page.getByTestId("plan-12")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const wrapped = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>("main button, main .button")]
        .filter((button) => button.offsetParent !== null)
        .filter((button) => {
          const lineHeight = Number.parseFloat(getComputedStyle(button).lineHeight) || 20;
          const padding =
            Number.parseFloat(getComputedStyle(button).paddingTop) +
            Number.parseFloat(getComputedStyle(button).paddingBottom);
          return button.clientHeight - padding > lineHeight * 1.6;
        })
        .map((button) => button.textContent),
    );
    expect(wrapped).toEqual([]);
    const address = page.locator(".top-block__email");
    await expect(address).toHaveAttribute("title", email);
    expect(await address.evaluate((element) => getComputedStyle(element).whiteSpace)).toBe("nowrap");
  });
}
