/**
 * Names a request by the route pattern that answers it (`/api/profile/payments/:id/receipt`),
 * never by its concrete path: a metric labelled with paths would grow with every id and
 * every scanner's guess.
 */
export function createRouteNamer(routes: readonly { method: string; path: string }[]) {
  // By method, then path: every request is named, and a key made of both would be a new
  // string to build and hash each time.
  const exact = new Map<string, Map<string, string>>();
  const patterns: { method: string; pattern: RegExp; path: string }[] = [];
  for (const { method, path } of routes) {
    if (!path.includes(":") && !path.includes("*")) {
      const paths = exact.get(method) ?? new Map<string, string>();
      exact.set(method, paths.set(path, path));
      continue;
    }
    const source = path
      .split("/")
      .map((part) =>
        part.startsWith(":") ? "[^/]+" : part === "*" ? ".*" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
      )
      .join("/");
    patterns.push({ method, pattern: new RegExp(`^${source}$`), path });
  }
  const find = (method: string, path: string) =>
    exact.get(method)?.get(path) ??
    patterns.find((route) => route.method === method && route.pattern.test(path))?.path;
  return (method: string, path: string): string => {
    const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
    // HEAD is answered by the GET route.
    return find(method, trimmed) ?? (method === "HEAD" ? find("GET", trimmed) : undefined) ?? "unmatched";
  };
}
