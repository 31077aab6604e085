import { expect, test } from "@playwright/test";
import { blockingAtBothWidths, checksAccessibilityIn, describeFinding } from "../../helpers/browser/axe";
import { screenName, screens } from "../../helpers/browser/page-states";
import { isExternalStandIn } from "../../helpers/browser/untranslated";

// The bar: axe-core's WCAG 2 A/AA rules find no serious or critical violation on
// any page in any of its main states. Screens shown in ru, zh and kk are checked by
// languages.spec.ts on the same visit as their words (one visit, both checks); this file
// covers the rest: the public pages in English and the demo provider's page.

for (const screen of screens) {
  const languages = (["ru", "en", "zh", "kk"] as const).filter(
    (language) =>
      checksAccessibilityIn(screen.area, language) && (language === "en" || isExternalStandIn(screen.page)),
  );
  for (const language of languages) {
    test(`${screen.area}: ${screenName(screen)} (${language}) has no serious accessibility violation`, async ({
      page,
    }) => {
      test.setTimeout(60_000);
      await page.setViewportSize({ width: 1440, height: 900 });
      await screen.open(page, language);
      const blocking = await blockingAtBothWidths(page);
      expect(
        blocking.map(describeFinding),
        `${screenName(screen)} in ${language} at ${page.url()}:\n${blocking.map(describeFinding).join("\n")}`,
      ).toEqual([]);
    });
  }
}
