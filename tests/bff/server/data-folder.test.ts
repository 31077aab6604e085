import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { loadConfig } from "../../../bff/platform/config";
import { prepareDataFolder } from "../../../bff/platform/data-folder";
import { type RunningServer, startCapturedServer } from "../../helpers/captured-process";
import { signIn } from "../../helpers/customers";
import { cards, order, payWithCard } from "../../helpers/payments";
import { remoteApp } from "../../helpers/remote-app";

// DESIGN §12: the data folder is 0700 and its files 0600. It holds card tokens, sessions
// and signing secrets; only the server's own user may read them.

const root = mkdtempSync(join(tmpdir(), "kannt-data-folder-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const modeOf = (path: string) => statSync(path).mode & 0o777;
const octal = (mode: number) => `0${mode.toString(8)}`;

/** Each file of the folder with its permission bits, e.g. {"app.db": "0600"}. */
function fileModes(folder: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(folder)
      .sort()
      .map((name) => [name, octal(modeOf(join(folder, name)))]),
  );
}

/** Runs `check` against a server on `databasePath`, stopped afterwards whatever happens. */
async function withServer(databasePath: string, check: (server: RunningServer) => Promise<void>) {
  const server = await startCapturedServer({ DATABASE_PATH: databasePath, BILLING_INTERVAL_SECONDS: "0" });
  try {
    await check(server);
  } finally {
    await server.stop();
  }
}

/** One sign-in and one sandbox payment, so both databases, their WAL files and every secret exist. */
async function signInAndPay(origin: string, email: string): Promise<void> {
  const app = remoteApp(origin);
  const customer = await signIn(app, email);
  const options = await order(app, customer);
  expect((await payWithCard(app, options.invoiceId, cards.success)).success).toBe(true);
}

/** What the server keeps in its folder after a sign-in and a payment, WAL files included. */
const serverFiles = [
  "app.db",
  "app.db-wal",
  "sandbox-gateway.db",
  "sandbox-gateway.db-wal",
  "jwt-secret.secret",
  "cloudpayments-api-secret.secret",
  "demo-idp-key.jwk.json",
];

describe("data folder permissions", () => {
  const folder = join(root, "data");

  test("a fresh data folder is 0700 and every file in it, WAL files included, is 0600", async () => {
    await withServer(join(folder, "app.db"), async (server) => {
      await signInAndPay(server.origin, "folder@example.com");
      // Checked while the server runs: the WAL files exist only then.
      const modes = fileModes(folder);
      expect(Object.keys(modes)).toEqual(expect.arrayContaining(serverFiles));
      expect(octal(modeOf(folder))).toBe("0700");
      expect(Object.entries(modes).filter(([, mode]) => mode !== "0600")).toEqual([]);
    });
  });

  test("a data folder left 0755 with 0644 files (say, by an older version) is tightened at start", async () => {
    chmodSync(folder, 0o755);
    for (const name of readdirSync(folder)) chmodSync(join(folder, name), 0o644);
    expect(Object.values(fileModes(folder))).toContain("0644");
    await withServer(join(folder, "app.db"), async () => {
      expect(octal(modeOf(folder))).toBe("0700");
      expect(Object.entries(fileModes(folder)).filter(([, mode]) => mode !== "0600")).toEqual([]);
    });
  });

  test("a database in a shared folder leaves that folder's mode and the other files in it alone", async () => {
    const shared = join(root, "shared");
    mkdirSync(join(shared, "other-folder"), { recursive: true });
    const others = ["notes.txt", "other-app.db", "other-app.db-wal", "report.json"];
    for (const name of others) writeFileSync(join(shared, name), "not the server's\n");
    for (const name of [...others, "other-folder"]) chmodSync(join(shared, name), 0o644);
    chmodSync(join(shared, "other-folder"), 0o755);
    chmodSync(shared, 0o755);

    await withServer(join(shared, "kannt.db"), async (server) => {
      await signInAndPay(server.origin, "shared@example.com");
      const modes = fileModes(shared);
      expect(octal(modeOf(shared))).toBe("0755");
      expect(modes).toMatchObject({
        "notes.txt": "0644",
        "other-app.db": "0644",
        "other-app.db-wal": "0644",
        "report.json": "0644",
        "other-folder": "0755",
      });
      // The server's own files there are private all the same.
      const own = Object.keys(modes).filter((name) => !others.includes(name) && name !== "other-folder");
      expect(own).toEqual(expect.arrayContaining(["kannt.db", "kannt.db-wal", ...serverFiles.slice(2)]));
      expect(own.filter((name) => modes[name] !== "0600")).toEqual([]);
    });
  });

  test("a folder holding only other programs' databases and secrets is neither closed nor changed", () => {
    // Without a process: the folder is secured by the start's step that writes (not by loading).
    const shared = join(root, "databases");
    mkdirSync(shared);
    const others = ["billing.db", "billing.db-wal", "mail.secret"];
    for (const name of others) writeFileSync(join(shared, name), "not the server's\n", { mode: 0o644 });
    chmodSync(shared, 0o755);
    prepareDataFolder(loadConfig({ DATABASE_PATH: join(shared, "kannt.db"), JWT_SECRET: "j".repeat(40) }));
    expect(octal(modeOf(shared))).toBe("0755");
    expect(fileModes(shared)).toMatchObject({
      "billing.db": "0644",
      "billing.db-wal": "0644",
      "mail.secret": "0644",
      "cloudpayments-api-secret.secret": "0600",
    });
  });
});
