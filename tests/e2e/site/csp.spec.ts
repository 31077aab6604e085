import { test as base, expect, type Page } from "@playwright/test";
import { recordCspViolations } from "../../helpers/browser/csp-violations";
import {
  makeCustomer,
  payInWidget,
  signInThroughUi,
  signInToPanel,
  uniqueEmail,
  useLanguage,
} from "../../helpers/browser/pages";

/**
 * Every page under its Content-Security-Policy: nothing may be refused (the browser's
 * `securitypolicyviolation` events and its console both count, popups included), and
 * each page must still do its work, which needs its scripts to have run.
 */
const test = base.extend<{ violations: string[] }>({
  violations: [
    async ({ context }, use) => {
      const violations = await recordCspViolations(context);
      await use(violations);
      expect(violations).toEqual([]);
    },
    { auto: true },
  ],
});

const languages = ["ru", "en", "zh", "kk"] as const;

async function expectToastFromLandingScript(page: Page) {
  await page.locator("button[data-toast]").first().click();
  await expect(page.locator(".toast")).toBeVisible();
}

test("pages carry the security headers and a script policy of hashes, not 'unsafe-inline'", async ({
  page,
}) => {
  const paths = ["/", "/en/offer", "/profile", "/panel-login", "/dev-idp", "/no-such-page"];
  const responses = [
    await page.goto("/en/"),
    ...(await Promise.all(paths.map((path) => page.request.get(path)))),
  ];
  for (const [index, response] of responses.entries()) {
    const path = index === 0 ? "/en/" : paths[index - 1];
    const headers = response?.headers() ?? {};
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    expect(headers["x-frame-options"], path).toBe("DENY");
    const policy = headers["content-security-policy"] ?? "";
    const scriptSources = policy.match(/(?:^|;)\s*script-src ([^;]*)/)?.[1] ?? "";
    expect(scriptSources, path).toMatch(/^'self'( 'sha256-[A-Za-z0-9+/]+={0,2}')*$/);
    for (const directive of [
      "default-src 'self'",
      "frame-ancestors 'none'",
      "object-src 'none'",
      "base-uri 'none'",
    ]) {
      expect(policy, path).toContain(directive);
    }
  }
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("landings in every language run their inline and module scripts", async ({ page }) => {
  // Twelve page loads: more than the default time when the machine is busy.
  test.setTimeout(90_000);
  for (const language of languages) {
    for (const path of ["", "tt", "yt"]) {
      await page.goto(`/${language}/${path}`);
      await expect(page.locator("html")).toHaveAttribute("lang", language);
      await expectToastFromLandingScript(page);
    }
  }
});

test("unprefixed landings and offer are corrected to the stored language by the inline script", async ({
  page,
}) => {
  await page.goto("/en/");
  await page.evaluate(() => localStorage.setItem("i18nextLng", "zh"));
  for (const path of ["/", "/tt", "/yt", "/offer"]) {
    await page.context().clearCookies();
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`/zh${path === "/" ? "/" : path}$`));
    if (path !== "/offer") await expectToastFromLandingScript(page);
  }
});

test("the offer's Back goes back through its inline module script in every language", async ({ page }) => {
  for (const language of languages) {
    await page.goto(`/${language}/tt`);
    await page.evaluate((target) => {
      location.href = target;
    }, `/${language}/offer`);
    await expect(page).toHaveURL(new RegExp(`/${language}/offer$`));
    await page.locator("a[data-back]").click();
    await expect(page).toHaveURL(new RegExp(`/${language}/tt$`));
  }
});

test("sign-in through the demo popup, the cabinet, the payment widget, /promo and /cancel", async ({
  page,
}) => {
  await useLanguage(page, "en");
  const email = uniqueEmail("csp.buyer");
  await signInThroughUi(page, email);
  await expect(page.getByText(email)).toBeVisible();
  await page.getByRole("checkbox", { name: /automatically until I cancel/ }).check();
  await page.getByRole("checkbox", { name: /public offer/ }).check();
  await page.getByRole("button", { name: "Pay 1 ₽" }).click();
  await payInWidget(page, "4242 4242 4242 4242");
  await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "green");
  await page.goto("/promo");
  const qr = page.getByTestId("invite-qr");
  await expect.poll(() => qr.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(256);
  await page.goto("/cancel");
  await expect(
    page.getByRole("heading", { name: "Are you sure you want to cancel your subscription?" }),
  ).toBeVisible();
});

test("sign-in with Yandex through /yauth, and /yauth without a token", async ({ page }) => {
  await useLanguage(page, "en");
  const email = uniqueEmail("csp.yandex");
  await signInThroughUi(page, email, "yandex");
  await expect(page.getByText(email)).toBeVisible();
  await page.goto("/yauth");
  await expect(page.getByRole("alert")).toHaveText("Access token not found in URL");
});

test("/instantPay opens the widget and /instantLogin offers the sign-in", async ({ page }) => {
  await useLanguage(page, "en");
  await page.goto("/instantPay");
  await expect(page.getByRole("heading", { name: "Get a subscription" })).toBeVisible();
  await page.getByRole("checkbox", { name: /automatically until I cancel/ }).check();
  await page.getByRole("checkbox", { name: /public offer/ }).check();
  await page.getByRole("button", { name: "Pay 1 ₽" }).click();
  await payInWidget(page, "4242 4242 4242 4242");
  await page.waitForURL("**/instantLogin");
  await expect(page.getByRole("button", { name: /Google/ })).toBeVisible();
});

test("the native app's entry pages: /mobileShop, /mobileProfile and /yauth-mobile", async ({ page }) => {
  await useLanguage(page, "en");
  const token = async (provider: "google.com" | "yandex", email: string) => {
    const response = await page.request.post("/api/dev/idp/token", { data: { email, provider } });
    expect(response.status()).toBe(200);
    return (await response.json()) as Record<
      "credential" | "uid" | "email" | "photoURL" | "providerId",
      string
    >;
  };
  const identity = await token("google.com", uniqueEmail("csp.mobile"));
  const { credential, ...fields } = identity;
  const entry = (path: string) => `${path}?${new URLSearchParams(fields)}#credential=${credential}`;
  await page.goto(entry("/mobileShop"));
  // A browser that holds no account is asked first (DESIGN §12); then the same account
  // arriving on /mobileProfile is no question.
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText(identity.email)).toBeVisible();
  await expect.poll(() => page.evaluate(() => typeof (window as { cp?: unknown }).cp)).toBe("object");
  await page.goto(entry("/mobileProfile"));
  await expect(page.getByText(identity.email)).toBeVisible();
  // /yauth-mobile inside the app: the app started Yandex itself and takes the identity
  // through its yAuth bridge.
  await page.addInitScript(() => {
    (window as unknown as { yAuth: { postMessage(message: string): void } }).yAuth = { postMessage() {} };
  });
  const yandex = await token("yandex", uniqueEmail("csp.mobile.yandex"));
  await page.goto(`/yauth-mobile#access_token=${encodeURIComponent(yandex.credential)}`);
  // Another account than the one this browser holds: the page asks first.
  await page.getByRole("button", { name: "Switch account" }).click();
  await expect(page.getByRole("status")).toHaveText("You have successfully logged in");
});

test("the panel's pages after signing in with the captcha", async ({ page }) => {
  await useLanguage(page, "en");
  const email = uniqueEmail("csp.panel");
  await makeCustomer(page, { email, status: "ACTIVE" });
  await signInToPanel(page);
  await page.waitForURL("**/panel-search");
  await page.getByLabel("Part of an e-mail").fill(email);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("link", { name: new RegExp(email) }).click();
  await page.waitForURL(/\/panel-user\?id=\d+$/);
  await expect(page.getByText(email).first()).toBeVisible();
  await page.getByRole("link", { name: "Receipts" }).click();
  await expect(page.getByRole("heading", { name: "Receipts" })).toBeVisible();
  await page.goto("/panel-user");
  await page.getByRole("link", { name: "Invited users" }).click();
  await expect(page.getByText("This customer has not invited anyone yet.")).toBeVisible();
  await page.goto("/panel-logs");
  await expect(page.getByRole("heading", { name: "Connection logs" })).toBeVisible();
  await page.goto("/panel-user");
  await page.getByRole("link", { name: "Manage subscription" }).click();
  await expect(page.getByRole("heading", { name: "Subscription management" })).toBeVisible();
  await page.goto("/panel-promo");
  await expect(page.getByRole("heading", { name: "New promo code" })).toBeVisible();
  await page.goto("/panel-audit");
  await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
  await page.goto("/panel");
  await expect(page.getByLabel("Part of an e-mail")).toBeVisible();
});
