import { existsSync, readdirSync, readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { languages } from "../../core/languages";
import { keysUsedBy, keyTemplates } from "./screen-keys";

const root = fileURLToPath(new URL("../..", import.meta.url));
const catalogue = (language: string) => resolve(root, "core/i18n", `${language}.json`);
const runtime = fileURLToPath(new URL("../lib/i18n/runtime.ts", import.meta.url));
const wordsSuffix = "?words";
const providerPrefix = "\0screen-words:";
/** `<island without extension>.words.<lang>.js`: the chunk is then named `<Island>.words.<lang>`. */
const wordsModule = new RegExp(`^(.+)\\.words\\.(${languages.join("|")})\\.js$`);

/**
 * Build-time words per page (DESIGN §10 counts every byte a page loads). Each page names the
 * island it shows in a `<script>`: `import "../islands/cabinet/Cabinet?words"`. That module
 * hands the islands' runtime one loader per language, each a chunk holding only the keys of
 * core/i18n/<lang>.json that the island's code uses (`keysUsedBy`), so a page downloads its own
 * words in one language rather than the whole catalogue; in both the words and the browser's
 * code a key goes by a short name (`keyShortNames`). core/i18n/<lang>.json stays the one
 * catalogue. `astro dev` serves every key by its name instead, so a key added while it runs
 * needs no restart.
 */
export function screenWords(): Plugin {
  let isDev = false;
  const keysOf = new Map<string, Set<string>>();
  const allKeys = () => Object.keys(JSON.parse(readFileSync(catalogue("en"), "utf8")));
  let shortNames: Map<string, string> | undefined;
  const shortNameOf = () => {
    shortNames ??= keyShortNames(allKeys(), [resolve(root, "src"), resolve(root, "core")]);
    return shortNames;
  };
  return {
    name: "kannt:screen-words",
    enforce: "pre",
    configResolved(config) {
      isDev = config.command === "serve";
    },
    async resolveId(source, importer) {
      if (wordsModule.test(source) && source.startsWith(root)) return source;
      if (!source.endsWith(wordsSuffix)) return undefined;
      const island = await this.resolve(source.slice(0, -wordsSuffix.length), importer, { skipSelf: true });
      if (!island) throw new Error(`No island at ${source} (imported by ${importer})`);
      // One per page: in a chunk shared by two pages, it would be a file of its own.
      return `${providerPrefix}${island.id}#${encodeURIComponent(relative(root, importer ?? ""))}`;
    },
    load(id) {
      if (id.startsWith(providerPrefix)) {
        // The page after `#` (a browser drops it from `astro dev`'s addresses) only sets ids apart.
        const island = id
          .slice(providerPrefix.length)
          .replace(/#.*$/, "")
          .replace(/\.tsx?$/, "");
        const loaders = languages.map(
          (language) => `${language}: () => import(${JSON.stringify(`${island}.words.${language}.js`)})`,
        );
        return `import { provideWords } from ${JSON.stringify(runtime)};\nvoid provideWords({ ${loaders.join(", ")} });\n`;
      }
      const words = id.match(wordsModule);
      if (!words) return undefined;
      const texts: Record<string, string> = JSON.parse(readFileSync(catalogue(words[2] ?? ""), "utf8"));
      const island = [".tsx", ".ts"].map((extension) => `${words[1]}${extension}`).find(existsSync) ?? "";
      const keys = isDev ? undefined : (keysOf.get(island) ?? keysUsedBy(island, allKeys()));
      if (keys) keysOf.set(island, keys);
      const names = isDev ? new Map<string, string>() : shortNameOf();
      const kept = Object.entries(texts)
        .filter(([key]) => !keys || keys.has(key))
        .map(([key, text]) => [names.get(key) ?? key, text]);
      return `export default ${JSON.stringify(Object.fromEntries(kept))};\n`;
    },
    transform(code, id) {
      // The browser's code names each key by its short name, as its words do (keyShortNames).
      if (isDev || this.environment?.name !== "client") return undefined;
      const file = id.split("?")[0] ?? "";
      if (
        !/\.(tsx?|jsx?)$/.test(file) ||
        !/^(src|core)\//.test(relative(root, file)) ||
        file.includes("/src/build/")
      ) {
        return undefined;
      }
      const names = shortNameOf();
      const renamed = code.replace(keyLiteral, (literal, quote: string, key: string) => {
        const name = names.get(key);
        return name ? `${quote}${name}${quote}` : literal;
      });
      return renamed === code ? undefined : { code: renamed, map: null };
    },
  };
}

/** A string literal in any quotes that could be a key: dotted, with no interpolation. */
const keyLiteral = /(["'`])([A-Za-z][\w-]*(?:\.[\w-]+)+)\1/g;

/**
 * Short names for the keys in the browser build: each key is written twice on a page (in its
 * code and in its words), and "cabinet.cardRemoveExplainedNoAccess" costs more than "bgk".
 * A name is three or more Latin letters, so a key missing from a page's words still shows as a
 * word the browser tests' untranslated-words check reports. Keys that code builds from a
 * template (`purchase.plan${months}`) keep their names: the template must still find them.
 */
export function keyShortNames(
  keys: readonly string[],
  sourceFolders: readonly string[],
): Map<string, string> {
  const templates = sourceFolders
    .flatMap(sourceFilesUnder)
    .flatMap((file) => keyTemplates(readFileSync(file, "utf8")));
  const built = new Set(keys.filter((key) => templates.some((template) => template.test(key))));
  const names = new Map<string, string>();
  for (const key of keys) if (!built.has(key)) names.set(key, lettersOf(names.size + 26 * 26));
  return names;
}

/** 0 → "a", 25 → "z", 26 → "ba": base 26 in letters. */
function lettersOf(number: number): string {
  const letter = String.fromCharCode(97 + (number % 26));
  return number < 26 ? letter : lettersOf(Math.floor(number / 26)) + letter;
}

function sourceFilesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = resolve(folder, entry.name);
    if (entry.isDirectory()) return path.endsWith("/src/build") ? [] : sourceFilesUnder(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}
