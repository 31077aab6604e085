import react from "@astrojs/react";
import { defineConfig } from "astro/config";
import { pageChunkGroups } from "./src/build/page-chunks.ts";
import { screenWords } from "./src/build/screen-words.ts";

// Static output: every page is prerendered; the Bun server (bff/server.ts) serves
// dist/ and /api on one port. Landing and offer exist once per language under /{lang}/.
export default defineConfig({
  output: "static",
  site: process.env.PUBLIC_URL || undefined,
  integrations: [react()],
  build: { inlineStylesheets: "always" },
  server: { port: 4321 },
  vite: {
    server: { proxy: { "/api": `http://localhost:${process.env.DEV_API_PORT ?? 3001}` } },
    plugins: [
      screenWords(),
      {
        // A page's JavaScript in a few files rather than thirty (src/build/page-chunks.ts).
        name: "kannt:page-chunks",
        configEnvironment(name) {
          if (name !== "client") return undefined;
          return { build: { rolldownOptions: { output: { codeSplitting: { groups: pageChunkGroups() } } } } };
        },
      },
      {
        // With no dependency to preload (below), Vite's helper around every lazy import only
        // loads the module and reports a failure as its `vite:preloadError` event: the same,
        // without the 0.9 KB of preloading code every island page would otherwise carry.
        name: "kannt:lean-preload-helper",
        enforce: "pre",
        load(id) {
          if (id !== "\0vite/preload-helper.js") return undefined;
          return `export const __vitePreload = (load) => load().catch((error) => {
  const event = new Event("vite:preloadError", { cancelable: true });
  event.payload = error;
  window.dispatchEvent(event);
  if (!event.defaultPrevented) throw error;
});`;
        },
      },
      {
        // A lazily loaded chunk imports only modules its page has loaded already (the
        // language texts import nothing), so a list of them to preload would only add their
        // names to the page's JavaScript, which DESIGN §10 counts. Astro sets its own
        // modulePreload, so here.
        name: "kannt:no-dependency-preload",
        configEnvironment(name) {
          if (name === "client") return { build: { modulePreload: { resolveDependencies: () => [] } } };
        },
      },
      {
        // The server's own words in core/i18n: the mails (`mail.*`), refusals (`errors.*`,
        // the server words every one in the caller's language) and what it answers in words
        // (`order.*`, `binding.*`, `appSubscription.*`). No island shows them, so the
        // browser's language chunks leave them out rather than carry them in every page's
        // JavaScript, which DESIGN §10 counts.
        name: "kannt:no-server-words-in-browser",
        enforce: "pre",
        applyToEnvironment: (environment) => environment.name === "client",
        transform(code, id) {
          if (!/\/core\/i18n\/[a-z]+\.json$/.test(id)) return undefined;
          const serverOnly = ["mail.", "errors.", "order.", "binding.", "appSubscription."];
          const texts = Object.entries(JSON.parse(code)).filter(
            ([key]) => !serverOnly.some((prefix) => key.startsWith(prefix)),
          );
          return { code: JSON.stringify(Object.fromEntries(texts)), map: null };
        },
      },
    ],
  },
});
