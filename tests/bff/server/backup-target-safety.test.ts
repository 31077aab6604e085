import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { writeNewBackup } from "../../../bff/platform/backup-file";
import { openDatabase } from "../../../bff/platform/database";
import { runDemoScript } from "../../helpers/start-process";
import { testDatabaseUrl, testEngine } from "../../helpers/test-database";

// A backup holds card tokens and sessions: it is never written where another user could
// read or swap it, and never through a link someone left at its name.

const root = mkdtempSync(join(tmpdir(), "kannt-backup-target-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const nobody = Number(Bun.spawnSync(["id", "-u", "nobody"]).stdout.toString().trim());

type Place = { folder: string; env: { DATABASE_PATH: string; DATABASE_URL?: string } };

/** A migrated database of its own: a SQLite file in `<name>/data/`, or a fresh PostgreSQL database. */
async function newPlace(name: string): Promise<Place> {
  const folder = join(root, name);
  const databasePath = join(folder, "data", "app.db");
  const databaseUrl = await testDatabaseUrl();
  const database = await openDatabase({ databaseUrl, databasePath });
  await database.close();
  return {
    folder,
    env: databaseUrl
      ? { DATABASE_PATH: databasePath, DATABASE_URL: databaseUrl }
      : { DATABASE_PATH: databasePath },
  };
}

/** `npm run backup -- args…` on `place` and nothing else. */
async function backup(place: Place, ...args: string[]) {
  const { code, stdout, stderr } = await runDemoScript(["scripts/backup.ts", ...args], place.env);
  return { code, stdout: stdout.trim(), stderr: stderr.trim() };
}

/** backups/ beside the data folder, made here with `mode` and, when given, handed to `owner`. */
function backupsFolder(place: Place, mode: number, owner?: number): string {
  const folder = join(place.folder, "backups");
  mkdirSync(folder, { recursive: true });
  chmodSync(folder, mode);
  if (owner !== undefined) chownSync(folder, owner, owner);
  return folder;
}

describe(`${testEngine()}: where a backup is written`, () => {
  test("a backups/ folder other users may write to is refused, naming it, and nothing is written there", async () => {
    const place = await newPlace("open-folder");
    const folder = backupsFolder(place, 0o777);
    const result = await backup(place);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `Refusing the backup folder ${folder}: other users may write to it (mode 777)`,
    );
    expect(readdirSync(folder)).toEqual([]);
  });

  test("a backups/ folder of another user is refused, naming it, and nothing is written there", async () => {
    const place = await newPlace("foreign-folder");
    const folder = backupsFolder(place, 0o700, nobody);
    const result = await backup(place);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Refusing the backup folder ${folder}: it belongs to user ${nobody}`);
    expect(readdirSync(folder)).toEqual([]);
  });

  test("a link at the target is refused, whether it leads nowhere yet or to a file, and what it leads to is untouched", async () => {
    const place = await newPlace("links");
    const folder = backupsFolder(place, 0o700);
    const elsewhere = join(root, "elsewhere");
    mkdirSync(elsewhere, { recursive: true });

    const planted = join(elsewhere, "planted.sqlite");
    const dangling = join(folder, "dangling.sqlite");
    symlinkSync(planted, dangling);
    const toNowhere = await backup(place, dangling);
    expect(toNowhere.code).toBe(1);
    expect(toNowhere.stderr).toContain(`${dangling} already exists (a symbolic link)`);
    expect(existsSync(planted)).toBe(false);

    const precious = join(elsewhere, "precious.txt");
    writeFileSync(precious, "someone else's file");
    const toFile = join(folder, "to-file.sqlite");
    symlinkSync(precious, toFile);
    const result = await backup(place, toFile);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${toFile} already exists (a symbolic link)`);
    expect(readFileSync(precious, "utf8")).toBe("someone else's file");

    // The folder itself is fine: a new name there is written, owner-only.
    const fine = await backup(place, join(folder, "fine.sqlite"));
    expect(fine.stderr).toBe("");
    expect(fine.code).toBe(0);
    expect(readdirSync(folder).sort()).toEqual(["dangling.sqlite", "fine.sqlite", "to-file.sqlite"]);
  });

  test("a link that appears at the target while the copy is written is refused, not written through", async () => {
    const folder = join(root, "race");
    mkdirSync(folder, { mode: 0o700 });
    const target = join(folder, "copy.sqlite");
    const planted = join(root, "race-planted.sqlite");
    const attempt = writeNewBackup(target, async (temporary) => {
      writeFileSync(temporary, "the copy");
      symlinkSync(planted, target);
    });
    await expect(attempt).rejects.toThrow(`${target} already exists (a symbolic link)`);
    expect(existsSync(planted)).toBe(false);
    // The private folder the copy was made in is gone; only the link someone left remains.
    expect(readdirSync(folder)).toEqual(["copy.sqlite"]);
  });
});
