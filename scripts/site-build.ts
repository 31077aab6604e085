/**
 * Astro run by the very Bun that runs this script (`bun --bun x astro …`), not by whichever
 * `bun` PATH finds: a supervisor starts `/opt/kannt/node_modules/.bin/bun scripts/start.ts`
 * with no `bun` on PATH at all, and the first start builds the site.
 */
export const astroCommand = (...args: string[]): string[] => [
  process.execPath,
  "--bun",
  "x",
  "astro",
  ...args,
];
