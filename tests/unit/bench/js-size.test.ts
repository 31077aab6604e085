import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { lazyImports, measurePages } from "../../../bench/js-size";

/** A built site in a temporary folder: pages by path, files of `_astro/` by name. */
function builtSite(pages: Record<string, string>, assets: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), "js-size-"));
  mkdirSync(path.join(root, "_astro"));
  for (const [page, html] of Object.entries(pages)) {
    mkdirSync(path.dirname(path.join(root, page)), { recursive: true });
    writeFileSync(path.join(root, page), html);
  }
  for (const [name, code] of Object.entries(assets)) writeFileSync(path.join(root, "_astro", name), code);
  return root;
}

const island = (entry: string) =>
  `<html><body><astro-island component-url="/_astro/${entry}" renderer-url="/_astro/client.js"></astro-island></body></html>`;
/** Code that gzip cannot shrink much, so sizes compare as lengths do. */
const noise = (length: number, seed = 1) => {
  let state = seed;
  return Array.from({ length }, () => {
    state = (state * 48271) % 2147483647;
    return String.fromCharCode(97 + (state % 26));
  }).join("");
};

let roots: string[] = [];
afterEach(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  roots = [];
});
function measure(pages: Record<string, string>, assets: Record<string, string>) {
  const root = builtSite(pages, assets);
  roots.push(root);
  return measurePages(root).map((weight) => ({
    ...weight,
    modules: weight.modules.map((file) => path.basename(file)).sort(),
  }));
}

describe("the page-weight bench finds every lazily loaded chunk", () => {
  test("an import() in single, double or back quotes, with or without spaces, is a lazy chunk", () => {
    const code = [
      "import('./a.js')",
      'import("./b.js")',
      "import(`./c.js`)",
      "import( `../d.js` )",
      'import{x}from"./static.js"',
    ].join(";");
    expect(lazyImports(code)).toEqual([
      { specifier: "./a.js" },
      { specifier: "./b.js" },
      { specifier: "./c.js" },
      { specifier: "../d.js" },
    ]);
  });

  test("a template with an interpolation names every file it can match", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the code under test holds a template literal.
    const [lazy] = lazyImports("const load = (code) => import(`./lang-${code}.js`)");
    expect(lazy).toEqual({ directory: "./", name: /^lang-[^/]*\.js$/ });
  });

  test("a chunk loaded with a backtick import counts in the page's weight", () => {
    const [page] = measure(
      { "profile/index.html": island("Cabinet.js") },
      {
        "Cabinet.js": "const connect = () => import(`./ConnectPanel.js`);",
        "ConnectPanel.js": noise(2000),
        "client.js": "export default 1;",
      },
    );
    expect(page?.modules).toContain("ConnectPanel.js");
    // 2,000 random letters gzip to over 1,100 bytes: the chunk is counted, not just named.
    expect(page?.bytes).toBeGreaterThan(1100);
  });

  test("of one module's per-language chunks, only the largest counts; every other lazy chunk counts", () => {
    const [page] = measure(
      { "profile/index.html": island("Cabinet.js") },
      {
        "Cabinet.js": [
          "const words = { en: () => import(`./Cabinet.words.en.A1.js`), ru: () => import(`./Cabinet.words.ru.B2.js`) };",
          "const connect = () => import('./ConnectPanel.js');",
          'const attach = () => import("./AttachDialog.js");',
        ].join("\n"),
        "Cabinet.words.en.A1.js": noise(1000, 2),
        "Cabinet.words.ru.B2.js": noise(3000, 3),
        "ConnectPanel.js": noise(500, 4),
        "AttachDialog.js": noise(500, 5),
        "client.js": "export default 1;",
      },
    );
    expect(page?.modules).toEqual(
      ["AttachDialog.js", "Cabinet.js", "Cabinet.words.ru.B2.js", "ConnectPanel.js", "client.js"].sort(),
    );
  });

  test("of the files an interpolated template can load, the largest counts", () => {
    const [page] = measure(
      { "index.html": '<html><script type="module" src="/_astro/site.js"></script></html>' },
      {
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the code under test holds a template literal.
        "site.js": "export const load = (code) => import(`./lang-${code}.js`);",
        "lang-en.js": noise(800, 6),
        "lang-kk.js": noise(2400, 7),
        "lang-ru.js": noise(1600, 8),
      },
    );
    expect(page?.modules).toEqual(["lang-kk.js", "site.js"]);
  });

  test("a lazy chunk's own imports count with it", () => {
    const [page] = measure(
      { "profile/index.html": island("Cabinet.js") },
      {
        "Cabinet.js": "const connect = () => import(`./ConnectPanel.js`);",
        "ConnectPanel.js": 'import { qr } from "./qr.js"; export default qr;',
        "qr.js": noise(700, 9),
        "client.js": "export default 1;",
      },
    );
    expect(page?.modules).toEqual(["Cabinet.js", "ConnectPanel.js", "client.js", "qr.js"]);
  });
});
