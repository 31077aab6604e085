import { describe, expect, test } from "vitest";
import { translator } from "../../../core/i18n";
import { languages } from "../../../core/languages";
import { appLinks } from "../../../src/lib/app-links";

// What the landing and the cabinet say about apps is true: a device connects through its
// subscription link in any app that takes one (DESIGN §8), on every platform; nothing is
// "in development".

const appTexts = [
  "meta.description",
  "apps.note",
  "apps.iosHow",
  "apps.windowsHow",
  "cabinet.noActiveDevices",
  "cabinet.installText",
  "cabinet.otherApps",
] as const;

/** "In development", "coming soon", "for now only Android", as each language said it. */
const notOutYet = {
  en: /in development|under development|coming soon|on the way|for now kannt works on android/i,
  ru: /в разработке|(?<!\p{L})скоро(?!\p{L})|пока kannt работает/iu,
  zh: /开发中|即将推出|目前 ?Kannt 支持 Android/,
  kk: /әзірленуде|жақында/iu,
} as const;

const connectPanelApps = appLinks("https://kannt.example/sub/token").map((link) => link.app);

describe("what the landing and the cabinet say about apps", () => {
  test("no language says an app is in development or coming soon", () => {
    for (const language of languages) {
      const t = translator(language);
      for (const key of appTexts) expect(t(key), `${language} ${key}`).not.toMatch(notOutYet[language]);
    }
  });

  test("both name the apps the Connect panel offers, and every platform", () => {
    for (const app of ["Happ", "Streisand", "FlClash", "Hiddify"])
      expect(
        connectPanelApps.some((name) => name.includes(app)),
        app,
      ).toBe(true);
    for (const language of languages) {
      const t = translator(language);
      for (const key of ["apps.note", "cabinet.otherApps"] as const)
        for (const name of ["Happ", "Streisand", "FlClash", "Hiddify", "iPhone", "Windows", "Mac", "Android"])
          expect(t(key), `${language} ${key}`).toContain(name);
      expect(t("apps.iosHow"), language).toMatch(/Happ|Streisand|Hiddify/);
      expect(t("apps.windowsHow"), language).toMatch(/Hiddify|FlClash/);
    }
  });
});
