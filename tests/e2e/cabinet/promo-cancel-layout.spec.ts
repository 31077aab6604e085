import { expect, type Page, test } from "@playwright/test";
import { signCancelToken } from "../../../bff/modules/subscriptions/cancel-token";
import { signInThroughUi, uniqueEmail, useLanguage } from "../../helpers/browser/pages";
import { serverTime } from "../../helpers/browser/purchase-helpers";
import { e2eJwtSecret } from "../../helpers/e2e-secrets";

// The referral and cancel screens on a 390 px phone in every language: nothing scrolls
// sideways and no button label breaks onto a second line. SCREENSHOT_DIR keeps pictures.

const languages = ["ru", "en", "zh", "kk"] as const;

/**
 * What /promo says of the referral rule (DESIGN §13), as its reader reads it: a friend's 25%,
 * and what a monthly friend takes off a yearly plan, prorated per month.
 */
const ruleWords = {
  en: { step: "you get 25% off your plan, up to 100% in all", rule: "takes about 2.1% off your year" },
  ru: { step: "вы получаете скидку 25% на свой тариф", rule: "снижает цену вашего года примерно на 2,1%" },
  zh: { step: "带来 25% 的折扣", rule: "减免约 2.1%" },
  kk: { step: "тарифіңізге 25% жеңілдік аласыз", rule: "шамамен 2,1% азайтады" },
} as const;
const screenshotDirectory = process.env.SCREENSHOT_DIR;

/** Labels of visible buttons and button-like links whose text takes more than one line. */
const wrappedLabels = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("button, a.button, [role=button]")]
      .filter((element) => element.offsetParent !== null && element.textContent?.trim())
      .filter((element) => {
        // Text only: a button's decorations (a hold button's progress bar) are boxes of their own.
        const lineTops = new Set<number>();
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const rect of range.getClientRects()) if (rect.width > 0) lineTops.add(Math.round(rect.top));
        }
        return lineTops.size > 1;
      })
      .map((element) => element.textContent?.trim() ?? ""),
  );

async function expectFits(page: Page, name: string) {
  await page.waitForLoadState("networkidle");
  if (screenshotDirectory)
    await page.screenshot({ path: `${screenshotDirectory}/${name}.png`, fullPage: true });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${name} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
  expect(await wrappedLabels(page), `${name}: wrapped button labels`).toEqual([]);
  // A word longer than its card spills over the card's edge even when the page does not scroll.
  const spilling = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("main h1, main h2, main p, main li")]
      .filter((element) => element.offsetParent !== null && element.scrollWidth > element.clientWidth + 1)
      .map((element) => element.textContent?.trim() ?? ""),
  );
  expect(spilling, `${name}: text wider than its box`).toEqual([]);
}

for (const language of languages) {
  for (const width of [390, 1440]) {
    test(`/promo and /cancel in ${language} at ${width} px fit without wrapped buttons`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await useLanguage(page, language);
      const email = uniqueEmail(`layout.${language}`);
      const made = await page.request.post("/api/dev/fixtures/subscription", {
        data: { email, status: "ACTIVE" },
      });
      const { userId } = (await made.json()) as { userId: number };
      await signInThroughUi(page, email);
      const tag = `${language}-${width}`;

      await page.goto("/promo");
      await expect(page.getByTestId("invite-link")).toBeVisible();
      await expect(page.locator(".referral__steps li").nth(2)).toContainText(ruleWords[language].step);
      await expect(page.getByTestId("referral-rule")).toContainText(ruleWords[language].rule);
      await expectFits(page, `promo-${tag}`);

      await page.route("**/api/profile/getReferralCode", (route) => route.abort("connectionreset"));
      await page.goto("/promo");
      await expect(page.getByRole("alert")).toBeVisible();
      await expectFits(page, `promo-failed-${tag}`);
      await page.unroute("**/api/profile/getReferralCode");

      await page.goto("/cancel");
      await expect(page.locator(".cancel h1")).toBeVisible();
      await expectFits(page, `cancel-${tag}`);

      await page.route("**/api/profile", (route) => route.abort("connectionreset"));
      await page.goto("/cancel");
      await expect(page.getByRole("alert")).toBeVisible();
      await expectFits(page, `cancel-failed-${tag}`);
      await page.unroute("**/api/profile");

      const token = signCancelToken(e2eJwtSecret, userId, await serverTime(page));
      await page.goto(`/cancel?token=${encodeURIComponent(token)}`);
      await expect(page.locator(".cancel h1")).toBeVisible();
      await expectFits(page, `cancel-link-${tag}`);
      await page.goto("/cancel?token=garbage");
      await expect(page.getByRole("alert")).toBeVisible();
      await expectFits(page, `cancel-link-refused-${tag}`);
    });
  }
}
