import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import en from "../../../core/i18n/en.json";
import { keysUsedBy, keyTemplates, relativeImports } from "../../../src/build/screen-keys";
import { keyShortNames } from "../../../src/build/screen-words";

const root = path.resolve(import.meta.dirname, "../../..");
const catalogue = Object.keys(en);
const folder = mkdtempSync(path.join(tmpdir(), "screen-keys-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Source files in a temporary folder, by relative path. */
function sources(files: Record<string, string>): void {
  for (const [name, code] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    writeFileSync(path.join(folder, name), code);
  }
}

describe("a page's words: the keys its island's code can show", () => {
  test("keys written whole, in any quotes or as a map's values, are taken; others are not", () => {
    sources({
      "whole/Island.tsx": [
        'import { Block } from "./Block";',
        "export const Island = () => t('cabinet.title') + t(\"cabinet.noCardSaved\") + t(`cabinet.loadFailedTitle`);",
      ].join("\n"),
      "whole/Block.tsx":
        'const statusKeys = { paid: "cabinet.statusPaid" } as const; export const Block = 1;',
    });
    const keys = keysUsedBy(path.join(folder, "whole/Island.tsx"), ["x.unused", ...catalogue]);
    expect([...keys].sort()).toEqual(
      ["cabinet.loadFailedTitle", "cabinet.noCardSaved", "cabinet.statusPaid", "cabinet.title"].sort(),
    );
  });

  test("a template that starts as a key takes every key it can end as", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the code under test holds template literals.
    sources({ "template/Plans.tsx": "export const plan = (months: number) => t(`purchase.plan${months}`);" });
    const keys = keysUsedBy(path.join(folder, "template/Plans.tsx"), catalogue);
    expect([...keys]).toEqual(
      expect.arrayContaining(["purchase.plan1", "purchase.plan3", "purchase.plan12"]),
    );
    expect([...keys].every((key) => key.startsWith("purchase.plan"))).toBe(true);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the code under test holds template literals.
    expect(keyTemplates("`badge badge--${status}` `features.${name}.title`")).toEqual([
      /^features\..+\.title$/,
    ]);
  });

  test("lazily loaded modules count; type-only imports and JSON files do not", () => {
    sources({
      "graph/Island.tsx": [
        'import type { Shape } from "./types";',
        'import catalogue from "./words.json";',
        'const Panel = lazy(() => import("./Panel"));',
      ].join("\n"),
      "graph/types.ts": 'export type Shape = "cabinet.title";',
      "graph/words.json": JSON.stringify({ "cabinet.noCardSaved": "x" }),
      "graph/Panel.tsx": 'export default () => t("cabinet.connectTitle");',
    });
    expect([...keysUsedBy(path.join(folder, "graph/Island.tsx"), catalogue)]).toEqual([
      "cabinet.connectTitle",
    ]);
    expect(
      relativeImports(
        'import type { A } from "./a"; export type { B } from "./b"; import { type C, d } from "./c";',
      ),
    ).toEqual(["./c"]);
  });

  test("the cabinet's words hold what its lazily loaded Connect panel and purchase dialog show", () => {
    const keys = keysUsedBy(path.join(root, "src/islands/cabinet/Cabinet.tsx"), catalogue);
    for (const key of ["cabinet.noCardSaved", "cabinet.connectTitle", "prepaid.title", "purchase.plan12"]) {
      expect(keys.has(key), key).toBe(true);
    }
    expect([...keys].filter((key) => /^(panel|mail|errors)\./.test(key))).toEqual([]);
  });

  test("every page with an island loads that island's words", () => {
    const pages = readdirSync(path.join(root, "src/pages")).filter((name) => name.endsWith(".astro"));
    const missing: string[] = [];
    for (const page of pages) {
      const source = readFileSync(path.join(root, "src/pages", page), "utf8");
      const hydrated = source.match(/<(\w+) client:/)?.[1];
      if (!hydrated) continue;
      const from = source.match(new RegExp(`import \\{[^}]*\\b${hydrated}\\b[^}]*\\} from "([^"]+)"`))?.[1];
      if (!from || !source.includes(`import "${from}?words";`)) missing.push(`${page}: ${hydrated}`);
    }
    expect(missing).toEqual([]);
  });

  test("in the browser build each key has a short name of Latin letters, but those a template builds", () => {
    const names = keyShortNames(catalogue, [path.join(root, "src"), path.join(root, "core")]);
    const shortNames = [...names.values()];
    expect(new Set(shortNames).size).toBe(shortNames.length);
    // Three letters or more: a key missing from a page's words still reads as an untranslated word.
    expect(shortNames.every((name) => /^[a-z]{3,}$/.test(name))).toBe(true);
    expect(names.get("cabinet.noCardSaved")).toMatch(/^[a-z]{3}$/);
    // `purchase.plan${months}` and `panel.status${status}` must still find their keys.
    for (const key of ["purchase.plan1", "purchase.plan12", "panel.statusACTIVE"])
      expect(names.has(key), key).toBe(false);
  });
});
