import { unlinkSync } from "node:fs";
import {
  type CommandResult,
  isOperatorCommand,
  operatorUsage,
  runOperatorCommand,
} from "./operator-commands";
import { openProductDatabase, shownDatabase } from "./operator-database";
import { type Config, loadConfig } from "./platform/config";
import {
  askControlSocket,
  canonicalDatabasePath,
  controlSocketPath,
  probeControlSocket,
} from "./platform/control-socket";

/**
 * npm run operator -- node <name>   (a VPN node's key, printed once)
 * npm run operator -- create <username> <admin|support> [password]
 *                   | reset-password <username> [password]
 *                   | disable <username>
 *                   | unlock <username>   (forgets the account's failed sign-ins)
 *                   | reset-factors <username>   (clears passkeys, authenticator app, recovery codes)
 * A password not given is generated and printed once. Works while the server runs: on the
 * SQLite file the running server holds, the command is handed to it over its control
 * socket; with no server running, or on PostgreSQL (DATABASE_URL), it runs here.
 *
 * First, on stderr, the database it works on ("Database: …"), so a script reading the
 * result's last word from stdout gets the key alone. Every command changes the product's
 * data, so none makes a database: one that is not there yet is refused (operator-database.ts).
 */
const args = process.argv.slice(2);

/** The command handed to the server that holds this very file, when one answers on its socket. */
async function viaRunningServer(config: Config): Promise<CommandResult | undefined> {
  if (config.databaseUrl !== undefined || config.databasePath === ":memory:") return undefined;
  const socket = controlSocketPath(config.dataDirectory);
  const probe = await probeControlSocket(socket);
  if (probe.state === "stale") unlinkSync(socket);
  // A server of another file in the same folder holds the socket: not this database.
  if (probe.state !== "answering" || probe.database !== canonicalDatabasePath(config.databasePath))
    return undefined;
  console.error(`Database: ${probe.database} (SQLite, through the running server, pid ${probe.pid})`);
  const answer = await askControlSocket(socket, "POST /operator", { args });
  return { exitCode: Number(answer.exitCode), output: String(answer.output) };
}

async function runHere(config: Config): Promise<CommandResult> {
  console.error(`Database: ${shownDatabase(config)}`);
  const database = await openProductDatabase(config, args);
  try {
    return await runOperatorCommand(database, args, Date.now());
  } finally {
    await database.close();
  }
}

async function main(): Promise<number> {
  // A command not understood touches no data at all.
  if (!isOperatorCommand(args)) {
    console.error(operatorUsage);
    return 2;
  }
  const config = loadConfig();
  const result = (await viaRunningServer(config)) ?? (await runHere(config));
  (result.exitCode === 0 ? console.log : console.error)(result.output);
  return result.exitCode;
}

try {
  process.exit(await main());
} catch (error) {
  // A refusal (say, a control socket of another user) is a sentence for the operator, not a stack.
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
