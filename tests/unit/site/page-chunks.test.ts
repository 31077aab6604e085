import { describe, expect, test } from "vitest";
import { familyOf, groupOf } from "../../../src/build/page-chunks";

const root = "/work/kannt";
const cabinet = `${root}/src/islands/cabinet/Cabinet.tsx`;
const login = `${root}/src/islands/login/LoginScreen.tsx`;
const panelUser = `${root}/src/islands/panel/PanelUser.tsx`;
const panelStaff = `${root}/src/islands/panel/PanelStaff.tsx`;
const panelLogin = `${root}/src/islands/panel/PanelLogin.tsx`;
const panelSecurity = `${root}/src/islands/panel/PanelSecurity.tsx`;
const appScript = `${root}/src/layouts/App.astro?astro&type=script&index=0&lang.ts`;
const siteScript = `${root}/src/layouts/Site.astro?astro&type=script&index=0&lang.ts`;
const landingScript = `${root}/src/components/landing/Landing.astro?astro&type=script&index=0&lang.ts`;
const profileScript = `${root}/src/pages/profile.astro?astro&type=script&index=0&lang.ts`;
const panelPageScript = `${root}/src/pages/panel-user.astro?astro&type=script&index=0&lang.ts`;

describe("which file a module's code goes to", () => {
  test("entries belong to the kind of page that loads them", () => {
    expect(familyOf(cabinet)).toBe("customer");
    expect(familyOf(panelUser)).toBe("panel");
    expect(familyOf(`\0screen-words:${panelUser}#src%2Fpages%2Fpanel-user.astro`)).toBe("panel");
    expect(familyOf(profileScript)).toBe("customer");
    expect(familyOf(panelPageScript)).toBe("panel");
    expect(familyOf(appScript)).toBe("every island page");
    expect(familyOf(siteScript)).toBe("site");
    expect(familyOf(landingScript)).toBe("site");
  });

  test("one entry's own modules stay in its chunk", () => {
    expect(groupOf([cabinet])).toBeUndefined();
    expect(groupOf([])).toBeUndefined();
  });

  test("what the static site shares with island pages is the site's chunk, whatever else loads it", () => {
    expect(groupOf([landingScript, cabinet, panelUser])).toBe("site");
    expect(groupOf([siteScript, appScript])).toBe("site");
  });

  test("shared by panel and customer pages, or by every island page, is common", () => {
    expect(groupOf([cabinet, panelUser])).toBe("common");
    expect(groupOf([appScript, cabinet])).toBe("common");
  });

  test("shared by pages of one kind goes to that kind's chunk", () => {
    expect(groupOf([cabinet, login])).toBe("customer");
    expect(groupOf([panelUser, panelStaff, panelPageScript])).toBe("panel");
  });

  test("what only the panel's passkey pages share is their own file, not every panel page's", () => {
    expect(groupOf([panelLogin, panelSecurity])).toBe("passkeys");
    expect(groupOf([panelLogin, panelSecurity, panelStaff])).toBe("panel");
    expect(groupOf([panelLogin, cabinet])).toBe("common");
  });
});
