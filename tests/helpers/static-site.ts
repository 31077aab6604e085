import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StaticSiteConfig } from "../../bff/static-site";
import { languages } from "../../core/languages";

/** A static site's configuration with no third party switched on. */
export const noThirdParties: StaticSiteConfig = {
  publicUrl: undefined,
  googleClientId: undefined,
  yandexClientId: undefined,
  recaptchaSiteKey: undefined,
  cloudPaymentsApiUrl: undefined,
};

/**
 * A built-site stand-in in a fresh temporary folder: for every language, one `index.html`
 * per page (`""` is the landing), marked with its language and page. Gives the folder.
 */
export function languageSite(folderPrefix: string, pages: readonly string[]): string {
  const root = mkdtempSync(join(tmpdir(), folderPrefix));
  for (const language of languages) {
    for (const page of pages) {
      const directory = join(root, language, page);
      mkdirSync(directory, { recursive: true });
      writeFileSync(join(directory, "index.html"), `<html lang="${language}">${page || "landing"}</html>`);
    }
  }
  return root;
}

/** A GET request to the site at `path`, with the given headers. */
export const getPage = (path: string, headers: Record<string, string> = {}) =>
  new Request(`http://localhost${path}`, { headers });
