import { expect, test } from "@playwright/test";
import { blockingAtBothWidths, checksAccessibilityIn, describeFinding } from "../../helpers/browser/axe";
import { screenName, screens } from "../../helpers/browser/page-states";
import { isExternalStandIn, textsOf, untranslatedProblems } from "../../helpers/browser/untranslated";

// Every screen in Russian, Chinese and Kazakh must show no English (or other untranslated)
// UI words: visible text, the tab title and the texts assistive technology reads
// (aria-label, title, placeholder, alt). See ./untranslated.ts for what is allowed.
// The same visit runs the accessibility check where a11y.spec.ts leaves it to this file
// (one visit per screen and language: the states cost a sign-in and fixtures each).

for (const screen of screens.filter((candidate) => !isExternalStandIn(candidate.page))) {
  for (const language of ["ru", "zh", "kk"] as const) {
    const withAxe = checksAccessibilityIn(screen.area, language);
    const checks = withAxe
      ? "no untranslated words and no serious accessibility violation"
      : "no untranslated words";
    test(`${screen.area}: ${screenName(screen)} (${language}) shows ${checks}`, async ({ page }) => {
      test.setTimeout(60_000);
      await page.setViewportSize({ width: 1440, height: 900 });
      await screen.open(page, language);
      const found = untranslatedProblems(await textsOf(page), language);
      expect(found, `${screenName(screen)} in ${language} at ${page.url()}:\n${found.join("\n")}`).toEqual(
        [],
      );
      if (!withAxe) return;
      const blocking = await blockingAtBothWidths(page);
      expect(
        blocking.map(describeFinding),
        `${screenName(screen)} in ${language} at ${page.url()}:\n${blocking.map(describeFinding).join("\n")}`,
      ).toEqual([]);
    });
  }
}
