import { chmodSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { isMainThread } from "node:worker_threads";
import { type Config, configWith } from "./config";
import { controlSocketName } from "./control-socket";
import { readOrCreateSecret } from "./secrets";
import { demoYooKassaShopId } from "./yookassa-demo-shop";

/**
 * What the server keeps beside its database, by exact name: another program's `x.db` or
 * `y.secret` in a shared folder is not ours to change. Named where they are made:
 * prepareDataFolder below (secrets), adapters/demo-idp/keys.ts, modules/payments/gateway.ts,
 * platform/control-socket.ts (the socket `npm run backup` asks while the server runs).
 */
const companionFiles = [
  "jwt-secret.secret",
  "cloudpayments-api-secret.secret",
  "yookassa-shop-id.secret",
  "yookassa-secret-key.secret",
  "demo-idp-key.jwk.json",
  controlSocketName,
];
const sqliteSuffixes = ["", "-wal", "-shm", "-journal"];

function ownFiles(databaseFile: string): Set<string> {
  const databases = [databaseFile, "sandbox-gateway.db", "sandbox-yookassa.db"];
  return new Set([
    ...databases.flatMap((name) => sqliteSuffixes.map((suffix) => `${name}${suffix}`)),
    ...companionFiles,
  ]);
}

/**
 * The data folder holds card tokens, sessions and signing secrets (DESIGN §12): only the
 * server's own user may read it. New files are private from the start (umask 077) and
 * what an older version left readable is tightened at start. Only the server's own files
 * are touched, so a DATABASE_PATH in a shared folder does not change anything else there.
 */
export function secureDataFolder(directory: string, databaseFile: string): void {
  // Only a main thread may set the umask: Bun and Node throw in a worker thread, where
  // configuration is also loaded (the test runner's thread pool). The server always runs
  // on a main thread; a worker still gets the folder and existing files tightened below.
  if (isMainThread) process.umask(0o077);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const names = readdirSync(directory);
  const own = ownFiles(databaseFile);
  // A folder of the server's own is closed; a database put among other files (say, in
  // /tmp) leaves that folder's mode alone and closes just its own files.
  if (names.every((name) => own.has(name))) chmodSync(directory, 0o700);
  // The control socket is checked, never changed: its server sets its mode when it makes
  // it, and one found open to other users (or theirs) is refused by whoever would talk to
  // it (private-path.ts) rather than quietly trusted once tightened.
  for (const name of names) {
    if (own.has(name) && name !== controlSocketName) chmodSync(join(directory, name), 0o600);
  }
}

/** A database file and its WAL companions, owner-only whatever the umask was. */
export function restrictDatabaseFiles(path: string): void {
  if (path === ":memory:") return;
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
}

/**
 * The start's step that writes (loadConfig writes nothing): the data folder, private, and
 * in it each secret the configuration leaves to be generated, made once and read back on
 * every later start so signed tokens outlive a restart. Run by every start that opens the
 * database (server, operator CLI, backup, restore) before anything signs or verifies. With
 * DATABASE_URL the secrets live in the database instead (shared-secrets.ts), so they stay
 * empty here; an in-memory database (tests) keeps them in `data/` as it always did.
 */
export function prepareDataFolder(config: Config): Config {
  // Before any secret is generated into it.
  if (config.databasePath !== ":memory:")
    secureDataFolder(config.dataDirectory, basename(config.databasePath));
  if (config.databaseUrl !== undefined) return config;
  const generated = (value: string, name: string) =>
    value === "" ? readOrCreateSecret(config.dataDirectory, name) : value;
  // Production without YooKassa's pair has no YooKassa shop: nothing is made up for it.
  const isYooKassaGenerated = config.mode === "demo";
  return configWith(config, {
    jwtSecret: generated(config.jwtSecret, "jwt-secret"),
    cloudPaymentsApiSecret: generated(config.cloudPaymentsApiSecret, "cloudpayments-api-secret"),
    ...(isYooKassaGenerated && {
      yooKassaShopId:
        config.yooKassaShopId ||
        readOrCreateSecret(config.dataDirectory, "yookassa-shop-id", demoYooKassaShopId, 6),
      yooKassaSecretKey: generated(config.yooKassaSecretKey, "yookassa-secret-key"),
    }),
  });
}
