import type { OperatorRole } from "../db/queries/operators";
import { createOperator, disableOperator, resetOperatorPassword } from "./modules/operators/accounts";
import { createNode } from "./modules/vpn/service";
import { loadConfig } from "./platform/config";
import { openDatabase } from "./platform/database";
import { AppError } from "./platform/errors";

/**
 * npm run operator -- node <name>   (a VPN node's key, printed once)
 * npm run operator -- create <username> <admin|support> [password]
 *                   | reset-password <username> [password]
 *                   | disable <username>
 * A password not given is generated and printed once. On the SQLite file, run it while
 * the server is stopped (the server holds the file exclusively); on PostgreSQL
 * (DATABASE_URL) it may run beside the servers.
 */
const [command, username, ...rest] = process.argv.slice(2);
const usage =
  "usage: npm run operator -- create <username> <admin|support> [password] | reset-password <username> [password] | disable <username>";

async function main(): Promise<number> {
  if (!command || !username) {
    console.error(usage);
    return 2;
  }
  const config = loadConfig();
  const database = await openDatabase(config);
  const now = Date.now();
  const generated = () => Buffer.from(crypto.getRandomValues(new Uint8Array(15))).toString("base64url");
  try {
    if (command === "node") {
      console.log(`Node "${username}" key (shown once): ${await createNode(database, username, now)}`);
    } else if (command === "create") {
      const role = rest[0] as OperatorRole | undefined;
      if (role !== "admin" && role !== "support") {
        console.error(usage);
        return 2;
      }
      const password = rest[1] ?? generated();
      await createOperator(database, username, password, role, now);
      console.log(`Created ${role} "${username}".${rest[1] ? "" : ` Password (shown once): ${password}`}`);
    } else if (command === "reset-password") {
      const password = rest[0] ?? generated();
      await resetOperatorPassword(database, username, password, now);
      console.log(`New password for "${username}"${rest[0] ? " set." : ` (shown once): ${password}`}`);
    } else if (command === "disable") {
      await disableOperator(database, username, now);
      console.log(`Disabled "${username}"; their sessions are revoked.`);
    } else {
      console.error(usage);
      return 2;
    }
    return 0;
  } catch (error) {
    console.error(error instanceof AppError ? error.message : String(error));
    return 1;
  } finally {
    await database.close();
  }
}

process.exit(await main());
