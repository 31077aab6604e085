/**
 * Minimal localStorage and document.cookie for unit tests of browser helpers, so
 * they run under Bun without a DOM library. Cookies keep name=value like a browser.
 */
export function installBrowserGlobals(initial: { storage?: Record<string, string>; cookie?: string } = {}) {
  const storage = new Map(Object.entries(initial.storage ?? {}));
  const cookies = new Map<string, string>();
  for (const pair of (initial.cookie ?? "").split(";")) {
    const [name, ...rest] = pair.trim().split("=");
    if (name) cookies.set(name, rest.join("="));
  }
  const written: string[] = [];
  Object.assign(globalThis, {
    localStorage: {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => storage.set(key, String(value)),
      removeItem: (key: string) => storage.delete(key),
      clear: () => storage.clear(),
    },
    document: {
      get cookie() {
        return [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
      },
      set cookie(line: string) {
        written.push(line);
        const [pair = ""] = line.split(";");
        const [name = "", ...rest] = pair.split("=");
        cookies.set(name.trim(), rest.join("="));
      },
    },
  });
  return { storage, cookies, written };
}
