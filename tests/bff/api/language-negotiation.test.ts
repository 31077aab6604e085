import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { createStaticSite } from "../../../bff/static-site";
import { getPage, languageSite, noThirdParties } from "../../helpers/static-site";

/** A built-site stand-in: one file per language variant, marked with its language. */
function fixtureSite(): string {
  const root = languageSite("kannt-site-", ["", "tt", "yt", "offer"]);
  mkdirSync(join(root, "_astro"));
  writeFileSync(join(root, "_astro", "app.abc123.js"), "console.log(1)");
  writeFileSync(join(root, "404.html"), "<html>not found</html>");
  return root;
}

describe("language variant of unprefixed pages", () => {
  let site: ReturnType<typeof createStaticSite>;
  beforeAll(() => {
    site = createStaticSite(fixtureSite(), noThirdParties);
  });

  const language = async (response: Response) => (await response.text()).match(/lang="(\w+)"/)?.[1];

  test("the language cookie picks the variant", async () => {
    const response = await site.handle(getPage("/", { cookie: "theme=dark; i18next=kk" }), "/");
    expect(await language(response)).toBe("kk");
    expect(response.headers.get("content-language")).toBe("kk");
    expect(response.headers.get("vary")).toContain("Cookie");
  });

  test("the cookie wins over Accept-Language", async () => {
    const response = await site.handle(
      getPage("/offer", { cookie: "i18next=ru", "accept-language": "zh-CN" }),
      "/offer",
    );
    expect(await language(response)).toBe("ru");
  });

  test("Accept-Language decides when there is no cookie, by quality", async () => {
    const response = await site.handle(
      getPage("/tt", { "accept-language": "de;q=1, zh-CN;q=0.8, ru;q=0.5" }),
      "/tt",
    );
    expect(await language(response)).toBe("zh");
  });

  test("an unsupported cookie falls through to Accept-Language", async () => {
    const response = await site.handle(
      getPage("/yt", { cookie: "i18next=de", "accept-language": "ru-RU" }),
      "/yt",
    );
    expect(await language(response)).toBe("ru");
  });

  test("English is the fallback", async () => {
    const response = await site.handle(getPage("/", { "accept-language": "fr-FR" }), "/");
    expect(await language(response)).toBe("en");
  });

  test("prefixed URLs are served as asked, whatever the cookie", async () => {
    const response = await site.handle(getPage("/zh/offer/", { cookie: "i18next=ru" }), "/zh/offer/");
    expect(await language(response)).toBe("zh");
  });

  test("hashed assets are cached for a year and gzipped when accepted", async () => {
    const response = await site.handle(
      getPage("/_astro/app.abc123.js", { "accept-encoding": "gzip, br" }),
      "/_astro/app.abc123.js",
    );
    expect(response.headers.get("cache-control")).toContain("immutable");
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await response.arrayBuffer())))).toBe(
      "console.log(1)",
    );
  });

  test("a missing page is the 404 page with status 404", async () => {
    const response = await site.handle(getPage("/no/such/page"), "/no/such/page");
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("not found");
  });
});
