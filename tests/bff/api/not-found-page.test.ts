import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { createStaticSite, notFoundLanguage } from "../../../bff/static-site";
import { getPage, languageSite, noThirdParties } from "../../helpers/static-site";

/** A built-site stand-in with a landing and a not-found page per language. */
function fixtureSite(): string {
  const root = languageSite("kannt-404-", ["", "404"]);
  writeFileSync(join(root, "404.html"), '<html lang="en">fallback</html>');
  return root;
}

describe("the not-found page speaks one language", () => {
  let site: ReturnType<typeof createStaticSite>;
  beforeAll(() => {
    site = createStaticSite(fixtureSite(), noThirdParties);
  });

  const served = async (response: Response) => (await response.text()).match(/lang="(\w+)">(\w+)/)?.slice(1);

  test("the path's language prefix wins over cookie and browser", async () => {
    const response = await site.handle(
      getPage("/kk/missing", { cookie: "i18next=ru", "accept-language": "zh" }),
      "/kk/missing",
    );
    expect(response.status).toBe(404);
    expect(await served(response)).toEqual(["kk", "404"]);
    expect(response.headers.get("content-language")).toBe("kk");
  });

  test("without a prefix the saved choice decides, then the browser, then English", async () => {
    const byCookie = await site.handle(
      getPage("/missing", { cookie: "i18next=zh", "accept-language": "ru" }),
      "/missing",
    );
    expect(await served(byCookie)).toEqual(["zh", "404"]);
    const byBrowser = await site.handle(
      getPage("/missing", { "accept-language": "de, ru;q=0.5" }),
      "/missing",
    );
    expect(await served(byBrowser)).toEqual(["ru", "404"]);
    const byDefault = await site.handle(getPage("/missing", { "accept-language": "de" }), "/missing");
    expect(await served(byDefault)).toEqual(["en", "404"]);
    expect(byDefault.status).toBe(404);
  });

  test("the prerendered not-found pages are never answered as found pages", async () => {
    const response = await site.handle(getPage("/ru/404"), "/ru/404");
    expect(response.status).toBe(404);
    expect(await served(response)).toEqual(["ru", "404"]);
  });

  test("notFoundLanguage ignores a first segment that is no language", () => {
    expect(notFoundLanguage(getPage("/de/missing", { cookie: "i18next=kk" }), "/de/missing")).toBe("kk");
    expect(notFoundLanguage(getPage("/en"), "/en")).toBe("en");
  });
});
