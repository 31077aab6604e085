import react from "@astrojs/react";
import { defineConfig } from "astro/config";

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
  },
});
