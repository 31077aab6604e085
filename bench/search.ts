import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { searchUsers } from "../bff/modules/panel/users";
import { openDatabase } from "../bff/platform/database";
import { startPostgresCluster } from "../tests/helpers/postgres-cluster";
import { median } from "./lib";

/**
 * DESIGN §10: the panel's e-mail substring search over 1,000,000 users must be at
 * least 20× faster than a same-run case-insensitive `LIKE '%x%'` scan (ILIKE on
 * PostgreSQL), with p95 at most 20 ms. Both answer the same page of 10 and the total
 * count, for the same random substrings of real addresses, alternating. A throwaway
 * SQLite file by default; with DATABASE_URL, that PostgreSQL database, which must hold
 * no users yet (the bench fills it); with `--postgres`, a throwaway PostgreSQL cluster
 * started for the run from Debian's server binaries.
 */
const userCount = Number(process.env.USERS ?? 1_000_000);
const queries = Number(process.env.QUERIES ?? 200);
const cluster = process.argv.includes("--postgres")
  ? await startPostgresCluster({ sharedBuffers: "512MB" })
  : undefined;
if (cluster) await cluster.createDatabase("search");
const database = await openDatabase({
  databaseUrl: cluster?.url("search") ?? process.env.DATABASE_URL,
  databasePath: join(mkdtempSync(join(tmpdir(), "kannt-search-")), "app.db"),
});
const existing = await database.get<{ count: number }>("SELECT COUNT(*) AS count FROM users");
if ((existing?.count ?? 0) > 0) {
  console.error("The bench fills the users table itself: give it an empty database.");
  await database.close();
  process.exit(2);
}

// Varied names from syllables (a handful of first names and surnames would make every
// fragment match a tenth of all users, unlike real addresses).
const syllables = [
  "an",
  "na",
  "iv",
  "ol",
  "ga",
  "pe",
  "tr",
  "ma",
  "ri",
  "se",
  "rg",
  "ey",
  "el",
  "en",
  "dm",
  "it",
  "ai",
  "ge",
  "nu",
  "rl",
  "li",
  "wa",
  "ng",
  "jo",
  "hn",
  "em",
  "sm",
  "ir",
  "no",
  "va",
  "ku",
  "zn",
  "et",
  "so",
  "ko",
  "le",
  "be",
  "de",
  "zh",
  "ch",
  "br",
  "ow",
  "ta",
  "yl",
  "or",
];
const domains = [
  "mail.ru",
  "yandex.ru",
  "gmail.com",
  "inbox.kz",
  "qq.com",
  "outlook.com",
  "proton.me",
  "bk.ru",
  "list.ru",
];
const pick = <T>(items: readonly T[], index: number) => items[index % items.length] as T;
const word = (seed: number, length: number) =>
  Array.from({ length }, (_, part) => pick(syllables, Math.floor(seed / 47 ** part) + part * 31)).join("");
const emailOf = (index: number) => {
  const seed = (index * 2654435761) % 4_294_967_291;
  return `${word(seed, 3)}.${word(seed * 7 + 11, 4)}${index % 997}@${pick(domains, index * 3)}`;
};

const started = performance.now();
// Many rows a statement: a round trip per user would time the network, not the index.
const rowsPerInsert = 1000;
const insertOf = (count: number) =>
  `INSERT INTO users (provider_id, uid, email, currency, created_at) VALUES ${Array.from(
    { length: count },
    () => "('google.com', ?, ?, 'RUB', 0)",
  ).join(", ")}`;
for (let batch = 0; batch < userCount; batch += 50_000) {
  await database.transaction(async () => {
    const end = Math.min(userCount, batch + 50_000);
    for (let first = batch; first < end; first += rowsPerInsert) {
      const count = Math.min(rowsPerInsert, end - first);
      const values = Array.from({ length: count }, (_, offset) => [
        `uid-${first + offset}`,
        emailOf(first + offset),
      ]).flat();
      await database.run(insertOf(count), values);
    }
  });
}
// PostgreSQL plans with statistics, which a table filled a moment ago does not have yet.
if (database.engine === "postgres") await database.exec("ANALYZE users");
console.log(`seeded ${userCount} users in ${((performance.now() - started) / 1000).toFixed(1)} s`);

// SQLite's LIKE ignores ASCII case; PostgreSQL's does not, and ILIKE is its same scan.
const like = database.engine === "postgres" ? "ILIKE" : "LIKE";
const likeScan = async (part: string) => {
  const pattern = `%${part}%`;
  const total =
    (
      await database.get<{ count: number }>(`SELECT COUNT(*) AS count FROM users WHERE email ${like} ?`, [
        pattern,
      ])
    )?.count ?? 0;
  const rows = await database.all(`SELECT id, email FROM users WHERE email ${like} ? ORDER BY id LIMIT 10`, [
    pattern,
  ]);
  return { total, rows };
};

const terms = Array.from({ length: queries }, (_, index) => {
  const email = emailOf(Math.floor((index * 7919 * 104729) % userCount));
  const local = email.split("@")[0] ?? email;
  const start = (index * 5) % Math.max(1, local.length - 6);
  return local.slice(start, start + 5 + (index % 4)).toUpperCase();
});

const indexed: number[] = [];
const scanned: number[] = [];
for (const term of terms) {
  let time = performance.now();
  const page = await searchUsers(database, term, 0, 10);
  indexed.push(performance.now() - time);
  time = performance.now();
  const scan = await likeScan(term);
  scanned.push(performance.now() - time);
  if (page.page.totalElements !== scan.total)
    throw new Error(`"${term}": index found ${page.page.totalElements}, scan ${scan.total}`);
}
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)] ?? 0;
const ratio = median(scanned) / median(indexed);
console.log(`trigram index: median ${median(indexed).toFixed(2)} ms, p95 ${p95(indexed).toFixed(2)} ms`);
console.log(`LIKE scan:     median ${median(scanned).toFixed(2)} ms, p95 ${p95(scanned).toFixed(2)} ms`);
console.log(`${ratio.toFixed(0)}× faster (budget: at least 20×, p95 at most 20 ms)`);
await database.close();
await cluster?.stop();
if (ratio < 20 || p95(indexed) > 20) process.exit(1);
