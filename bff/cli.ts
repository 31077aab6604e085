import { unlinkSync } from "node:fs";
import { runOperatorCommand } from "./operator-commands";
import { type Config, loadConfig } from "./platform/config";
import { askControlSocket, controlSocketPath, probeControlSocket } from "./platform/control-socket";
import { prepareDataFolder } from "./platform/data-folder";
import { openDatabase } from "./platform/database";

/**
 * npm run operator -- node <name>   (a VPN node's key, printed once)
 * npm run operator -- create <username> <admin|support> [password]
 *                   | reset-password <username> [password]
 *                   | disable <username>
 *                   | unlock <username>   (forgets the account's failed sign-ins)
 * A password not given is generated and printed once. Works while the server runs: on the
 * SQLite file the running server holds, the command is handed to it over its control
 * socket; with no server running, or on PostgreSQL (DATABASE_URL), it runs here.
 */
const args = process.argv.slice(2);

async function viaRunningServer(config: Config): Promise<{ exitCode: number; output: string } | undefined> {
  if (config.databaseUrl !== undefined || config.databasePath === ":memory:") return undefined;
  const socket = controlSocketPath(config.dataDirectory);
  const probe = await probeControlSocket(socket);
  if (probe.state === "stale") unlinkSync(socket);
  if (probe.state !== "answering") return undefined;
  const answer = await askControlSocket(socket, "POST /operator", { args });
  return { exitCode: Number(answer.exitCode), output: String(answer.output) };
}

async function main(): Promise<number> {
  const config = prepareDataFolder(loadConfig());
  const result =
    (await viaRunningServer(config)) ??
    (await (async () => {
      const database = await openDatabase(config);
      try {
        return await runOperatorCommand(database, args, Date.now());
      } finally {
        await database.close();
      }
    })());
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
