import type { Rolldown } from "vite";

type Group = Rolldown.CodeSplittingGroup;
type Context = Rolldown.ChunkingContext;

const reactLibraries = /[\\/]node_modules[\\/](react|react-dom|scheduler|@astrojs[\\/]react)[\\/]/;
const island = /[\\/]src[\\/]islands[\\/]/;
const panelIsland = /[\\/]src[\\/]islands[\\/]panel[\\/]/;
/**
 * The panel's islands that use a passkey (its sign-in and its Security screen): what only they
 * share, the WebAuthn library first, is a file of their own instead of every panel page's.
 */
const passkeyIsland = /[\\/]src[\\/]islands[\\/]panel[\\/](PanelLogin|PanelSecurity)\.tsx$/;
/** A page's own `<script>` (the one naming its island's words), or a layout's. */
const pageScript = /[\\/]src[\\/](pages|layouts)[\\/]([^\\/?]+)\.astro\?/;

type Family = "panel" | "customer" | "every island page" | "site";

/**
 * What kind of page loads an entry: an island and its words are the panel's or the customer
 * screens'; the App layout's script comes with every island page; anything else (the landing,
 * the offer, the site layout) is the static site's, whose budget is 10 KB.
 */
export function familyOf(entry: string): Family {
  const script = entry.match(pageScript);
  if (script) {
    if (script[1] === "layouts") return script[2] === "App" ? "every island page" : "site";
    return script[2]?.startsWith("panel") ? "panel" : script[2] === "404" ? "site" : "customer";
  }
  const module = entry.replace(/^\0screen-words:/, "");
  if (panelIsland.test(module)) return "panel";
  return island.test(module) ? "customer" : "site";
}

/**
 * The group a module's code goes to, from the entries that load it (islands, page and layout
 * scripts; an island imported by another island, as the cabinet is by the mobile entry, stands
 * for both). One entry's own modules stay in its chunk; modules the static site shares with
 * island pages form the "site" chunk; those shared by panel and customer pages, "common"; by
 * several pages of one kind, "panel" or "customer". A page then loads a handful of files,
 * not thirty: each file is compressed on its own, so thirty small ones cost a quarter more.
 * A page runs every module of a file it loads, used or not: these modules only declare things
 * (stores, helpers, components), but for the islands' i18n runtime, which every island page runs.
 * What only the panel's passkey pages share is "passkeys", which no other page loads.
 */
export function groupOf(entries: readonly string[]): string | undefined {
  if (entries.length < 2) return undefined;
  if (entries.every((entry) => passkeyIsland.test(entry))) return "passkeys";
  const families = new Set(entries.map(familyOf));
  if (families.has("site")) return "site";
  if (families.has("every island page") || families.size > 1) return "common";
  return families.has("panel") ? "panel" : "customer";
}

/**
 * Entries that load a module, stopping at the first entry on each path (an island imported by
 * another). A lazily loaded module counts for the entry that loads it: a module both a page
 * loads at once and another page's lazy chunk needs is shared by both.
 */
function entriesOf(context: Context, id: string, known: Map<string, Set<string>>): Set<string> {
  const cached = known.get(id);
  if (cached) return cached;
  const entries = new Set<string>();
  known.set(id, entries);
  const info = context.getModuleInfo(id);
  if (info?.isEntry) entries.add(id);
  else {
    for (const importer of [...(info?.importers ?? []), ...(info?.dynamicImporters ?? [])]) {
      for (const entry of entriesOf(context, importer, known)) entries.add(entry);
    }
  }
  return entries;
}

/**
 * `output.codeSplitting.groups` for the browser build. React is one file every island page
 * loads. Vite's preloading helper goes with the common code: every page's words load through it.
 * Lazily loaded chunks (the words) stay as they are: the groups take only modules a page loads
 * at once. No screen's own code is loaded lazily: the size bench counts every lazy chunk as
 * loaded (DESIGN §10), so a split only costs a file's compression of its own.
 */
export function pageChunkGroups(): Group[] {
  let context: Context | undefined;
  let known = new Map<string, Set<string>>();
  const groupFor = (id: string, chunking: Context) => {
    if (chunking !== context) [context, known] = [chunking, new Map()];
    if (id.includes("vite/preload-helper")) return "common";
    if (id.startsWith("\0") || /\.(json|css)$|\.astro\?/.test(id)) return undefined;
    return groupOf([...entriesOf(chunking, id, known)]);
  };
  const named = (name: string) => (id: string, chunking: Context) =>
    groupFor(id, chunking) === name ? name : null;
  return [
    // Bundler helpers for React's CommonJS modules go with it: only React needs them.
    { name: "react", test: (id) => reactLibraries.test(id) || id === "\0rolldown/runtime.js", priority: 4 },
    // Higher first: a group takes along what its modules import, unless a higher one has it.
    { name: named("site"), priority: 3, tags: ["$initial"] },
    { name: named("common"), priority: 2, tags: ["$initial"] },
    { name: named("panel"), priority: 1, tags: ["$initial"] },
    { name: named("customer"), priority: 1, tags: ["$initial"] },
    { name: named("passkeys"), priority: 1, tags: ["$initial"] },
  ];
}
