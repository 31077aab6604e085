import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { requestLanguage } from "./platform/request-language";

/** Pages prerendered once per language; an unprefixed URL gets the visitor's variant. */
const negotiatedPages = new Set(["/", "/tt", "/yt", "/offer"]);
const compressible = /\.(html|js|mjs|css|svg|json|txt|xml|webmanifest)$/;

type StaticFile = {
  path: string;
  type: string;
  gzip?: Uint8Array<ArrayBuffer>;
  bytes?: Uint8Array<ArrayBuffer>;
};

function listFiles(root: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const full = join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else
        files.set(`/${relative(root, full).split(sep).join("/")}`, { path: full, type: Bun.file(full).type });
    }
  };
  walk(root);
  return files;
}

/**
 * Serves the built Astro site from memory-indexed files. Hashed assets are cached
 * for a year; pages are revalidated; text is gzipped once and kept.
 */
export function createStaticSite(root: string) {
  const isBuilt = existsSync(join(root, "en", "index.html")) && statSync(root).isDirectory();
  const files = isBuilt ? listFiles(root) : new Map<string, StaticFile>();

  function find(pathname: string): StaticFile | undefined {
    const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
    return (
      files.get(trimmed) ??
      files.get(`${trimmed === "/" ? "" : trimmed}/index.html`) ??
      files.get(`${trimmed}.html`)
    );
  }

  async function respond(file: StaticFile, request: Request, status: number, extra: Record<string, string>) {
    const headers: Record<string, string> = {
      "content-type": file.type,
      "x-content-type-options": "nosniff",
      "referrer-policy": "strict-origin-when-cross-origin",
      "cache-control": file.path.includes(`${sep}_astro${sep}`)
        ? "public, max-age=31536000, immutable"
        : "public, max-age=0, must-revalidate",
      ...extra,
    };
    const acceptsGzip = /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "");
    if (compressible.test(file.path) && acceptsGzip) {
      if (!file.gzip) {
        file.bytes ??= new Uint8Array(await Bun.file(file.path).arrayBuffer());
        file.gzip = Bun.gzipSync(file.bytes, { level: 9 });
      }
      headers["content-encoding"] = "gzip";
      headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : "Accept-Encoding";
      return new Response(request.method === "HEAD" ? null : file.gzip, { status, headers });
    }
    return new Response(request.method === "HEAD" ? null : Bun.file(file.path), { status, headers });
  }

  return {
    isBuilt,
    async handle(request: Request, pathname: string): Promise<Response> {
      if (!isBuilt) {
        return new Response(
          "The site is not built yet: run `npm start` (it builds first) or `npm run build`.",
          {
            status: 503,
            headers: { "content-type": "text/plain; charset=utf-8" },
          },
        );
      }
      const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
      if (negotiatedPages.has(trimmed)) {
        const language = requestLanguage(request);
        const variant = find(`/${language}${trimmed === "/" ? "" : trimmed}`);
        if (variant) {
          return respond(variant, request, 200, {
            "content-language": language,
            vary: "Cookie, Accept-Language",
            "cache-control": "private, max-age=0, must-revalidate",
          });
        }
      }
      const file = find(pathname);
      if (file) return respond(file, request, 200, {});
      const notFound = files.get("/404.html");
      if (notFound) return respond(notFound, request, 404, {});
      return new Response("Not found", { status: 404 });
    },
  };
}
