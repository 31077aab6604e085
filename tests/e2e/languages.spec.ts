import { expect, test } from "@playwright/test";
import { type Screen, screenName, screens } from "./page-states";
import { textsOf, untranslatedProblems } from "./untranslated";

// Every screen in Russian, Chinese and Kazakh must show no English (or other untranslated)
// UI words: visible text, the tab title and the texts assistive technology reads
// (aria-label, title, placeholder, alt). See ./untranslated.ts for what is allowed.

/**
 * The demo identity provider stands in for Google's and Yandex's own pages, which show in
 * the provider's language, not ours; it exists only in demo mode and is drawn in English
 * (marked lang="en"). Every other screen is checked.
 */
const isExternalStandIn = (screen: Screen) => screen.page === "dev-idp";

for (const screen of screens.filter((candidate) => !isExternalStandIn(candidate))) {
  for (const language of ["ru", "zh", "kk"] as const) {
    test(`${screen.area}: ${screenName(screen)} (${language}) shows no untranslated words`, async ({
      page,
    }) => {
      test.setTimeout(60_000);
      await screen.open(page, language);
      const found = untranslatedProblems(await textsOf(page), language);
      expect(found, `${screenName(screen)} in ${language} at ${page.url()}:\n${found.join("\n")}`).toEqual(
        [],
      );
    });
  }
}
