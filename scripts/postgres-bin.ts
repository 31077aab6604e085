import { existsSync, readdirSync } from "node:fs";
import { delimiter, join } from "node:path";

/** The oldest major version the schema and queries are written for (DESIGN §15). */
export const oldestPostgresMajor = 15;

const libRoot = "/usr/lib/postgresql";

/**
 * The newest /usr/lib/postgresql/<n>/bin (n >= 15) holding every one of `programs`, or
 * POSTGRES_BIN when set (then it must hold them all). Debian keeps each major version's
 * programs there, off PATH.
 */
export function findPostgresBin(programs: readonly string[], installHint: string): string {
  const configured = process.env.POSTGRES_BIN;
  if (configured) {
    for (const program of programs) {
      if (!existsSync(join(configured, program))) {
        throw new Error(`POSTGRES_BIN=${configured} has no ${program}. ${installHint}`);
      }
    }
    return configured;
  }
  const majors = existsSync(libRoot)
    ? readdirSync(libRoot)
        .filter((name) => /^\d+$/.test(name) && Number(name) >= oldestPostgresMajor)
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const major of majors) {
    const bin = join(libRoot, major, "bin");
    if (programs.every((program) => existsSync(join(bin, program)))) return bin;
  }
  throw new Error(
    `PostgreSQL's ${programs.join(" and ")} ${programs.length === 1 ? "was" : "were"} not found in ${libRoot}/<version>/bin (version ${oldestPostgresMajor}+). ${installHint}`,
  );
}

/**
 * A client program (pg_dump, pg_restore): POSTGRES_BIN when set, else the one on PATH (on
 * Debian a wrapper that runs the newest installed version), else the newest
 * /usr/lib/postgresql/<n>/bin.
 */
export function findPostgresClient(program: string): string {
  const installHint = `Install PostgreSQL's client programs (${oldestPostgresMajor} or newer, not older than the server) with: apt-get install postgresql-client, or set POSTGRES_BIN to the folder holding ${program}.`;
  if (!process.env.POSTGRES_BIN) {
    for (const folder of (process.env.PATH ?? "").split(delimiter)) {
      if (folder && existsSync(join(folder, program))) return join(folder, program);
    }
  }
  return join(findPostgresBin([program], installHint), program);
}

/**
 * Runs a PostgreSQL client program on `databaseUrl`, its messages passed through. The
 * password goes to the program in PGPASSWORD rather than on its command line, where any
 * user of the machine could read it (`ps`).
 */
export async function runPostgresClient(
  program: string,
  args: (url: string) => string[],
  databaseUrl: string,
): Promise<void> {
  const path = findPostgresClient(program);
  let url = databaseUrl;
  let password: string | undefined;
  try {
    const parsed = new URL(databaseUrl);
    if (parsed.password) {
      password = decodeURIComponent(parsed.password);
      parsed.password = "";
      url = parsed.toString();
    }
  } catch {
    // A URL libpq reads but the URL parser does not (several hosts): passed as it is.
  }
  const child = Bun.spawn([path, ...args(url)], {
    env: { ...process.env, ...(password === undefined ? {} : { PGPASSWORD: password }) },
    stdin: "ignore",
    stdout: "inherit",
    stderr: "inherit",
  });
  const code = await child.exited;
  if (code !== 0) throw new Error(`${program} failed (exit code ${code}); its messages are above.`);
}
