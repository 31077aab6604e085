/** Dotted version numbers ("1.8.29", "v0.8.83", "26.3.27") compared part by part, missing parts as 0. */
export function compareVersions(left: string, right: string): number {
  const parts = (version: string) =>
    version
      .replace(/^v/i, "")
      .split(".")
      .map((part) => Number.parseInt(part, 10) || 0);
  const a = parts(left);
  const b = parts(right);
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

/** The first dotted version number a pattern's first group finds in `text`. */
export function versionIn(text: string, pattern: RegExp | undefined): string | undefined {
  const found = pattern?.exec(text)?.[1];
  return found && /^\d+(\.\d+){0,3}$/.test(found) ? found : undefined;
}
