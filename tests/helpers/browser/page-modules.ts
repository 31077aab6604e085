import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { transformSync } from "esbuild";

/**
 * Runs a client module of `src/lib` (one without imports) inside a real page and calls one of
 * its exports there: the page's own Intl, CSP and network rules apply to it, as they do to
 * the built islands. Evaluated through the DevTools protocol, which the page's CSP allows.
 */
export async function callInPage<T>(page: Page, modulePath: string, exportName: string, ...args: unknown[]) {
  const { code } = transformSync(readFileSync(modulePath, "utf8"), { loader: "ts", format: "cjs" });
  const expression = `(() => {
    const module = { exports: {} };
    const exports = module.exports;
    ${code}
    return module.exports[${JSON.stringify(exportName)}](...${JSON.stringify(args)});
  })()`;
  return (await page.evaluate(expression)) as T;
}
