import { expect, test } from "@playwright/test";
import { axeFindings, describeFinding, isBlocking } from "./axe";
import { type ScreenLanguage, screenLanguages, screenName, screens } from "./page-states";

// The bar: axe-core's WCAG 2 A/AA rules find no serious or critical violation on
// any page in any of its main states. Public pages differ per language (their text is
// built into the HTML), so each is checked in all four; the app screens share one
// markup whatever the language, so they are checked in Russian, the default audience's.

for (const screen of screens) {
  const languages: readonly ScreenLanguage[] = screen.area === "public" ? screenLanguages : ["ru"];
  for (const language of languages) {
    test(`${screen.area}: ${screenName(screen)} (${language}) has no serious accessibility violation`, async ({
      page,
    }) => {
      test.setTimeout(60_000);
      await page.setViewportSize({ width: 1440, height: 900 });
      await screen.open(page, language);
      const wide = (await axeFindings(page)).filter(isBlocking);
      // A phone's width changes what overflows and scrolls (scroll areas must take focus).
      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForTimeout(300);
      const narrow = (await axeFindings(page)).filter(isBlocking);
      const blocking = [
        ...wide.map((finding) => ({ ...finding, selector: `${finding.selector} (1440 px)` })),
        ...narrow.map((finding) => ({ ...finding, selector: `${finding.selector} (390 px)` })),
      ];
      expect(
        blocking.map(describeFinding),
        `${screenName(screen)} in ${language} at ${page.url()}:\n${blocking.map(describeFinding).join("\n")}`,
      ).toEqual([]);
    });
  }
}
