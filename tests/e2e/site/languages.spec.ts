import { expect, test } from "@playwright/test";
import { blockingAtBothWidths, checksAccessibilityIn, describeFinding } from "../../helpers/browser/axe";
import { screenName, screens } from "../../helpers/browser/page-states";
import { isExternalStandIn, textsOf, untranslatedProblems } from "../../helpers/browser/untranslated";

// Every screen in Russian, Chinese and Kazakh must show no English (or other untranslated)
// UI words: visible text, the tab title and the texts assistive technology reads
// (aria-label, title, placeholder, alt). See ./untranslated.ts for what is allowed.
// The same visit runs the accessibility check where a11y.spec.ts leaves it to this file.
// One page per screen: opened in Russian, then switched to each other language in place
// (page-states.ts says how), so a screen's sign-in and fixtures are not paid three times.
// Each language is checked and reported on its own, whatever an earlier one found.

const languages = ["ru", "zh", "kk"] as const;

for (const screen of screens.filter((candidate) => !isExternalStandIn(candidate.page))) {
  const withAxe = languages.filter((language) => checksAccessibilityIn(screen.area, language));
  const checks =
    withAxe.length > 0
      ? `no untranslated words in ${languages.join(", ")} and no serious accessibility violation in ${withAxe.join(", ")}`
      : `no untranslated words in ${languages.join(", ")}`;
  test(`${screen.area}: ${screenName(screen)} shows ${checks}`, async ({ page }) => {
    // The time one language had to itself, for each of the three.
    test.setTimeout(languages.length * 60_000);
    for (const [index, language] of languages.entries()) {
      await test.step(language, async () => {
        // The words are read at a laptop's width; the accessibility check left a phone's.
        await page.setViewportSize({ width: 1440, height: 900 });
        if (index === 0) await screen.open(page, language);
        else await screen.switchTo(page, language);
        const found = untranslatedProblems(await textsOf(page), language);
        expect
          .soft(found, `${screenName(screen)} in ${language} at ${page.url()}:\n${found.join("\n")}`)
          .toEqual([]);
        if (!checksAccessibilityIn(screen.area, language)) return;
        const blocking = await blockingAtBothWidths(page);
        expect
          .soft(
            blocking.map(describeFinding),
            `${screenName(screen)} in ${language} at ${page.url()}:\n${blocking.map(describeFinding).join("\n")}`,
          )
          .toEqual([]);
      });
    }
  });
}
