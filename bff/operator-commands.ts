import type { Database } from "../db/database";
import type { OperatorRole } from "../db/queries/operators";
import { addNode } from "./modules/access/nodes/panel-nodes";
import { addProbe } from "./modules/access/nodes/probes/probe-keys";
import {
  createOperator,
  disableOperator,
  resetOperatorFactors,
  resetOperatorPassword,
  unlockOperator,
} from "./modules/operators/accounts";
import { AppError } from "./platform/errors";
import { randomToken } from "./platform/random";

export const operatorUsage =
  "usage: npm run operator -- create <username> <admin|support> [password] | reset-password <username> [password] | disable <username> | unlock <username> | reset-factors <username> | node <name> | probe <name>";

/** What a command printed and how it ended: 0 done, 1 refused, 2 not understood. */
export type CommandResult = { exitCode: number; output: string };

const commands = new Set(["node", "probe", "create", "reset-password", "unlock", "reset-factors", "disable"]);

/**
 * Whether `args` is a command the CLI runs, told before any data is touched: every one of
 * them changes the product's data, so a mistyped one must not open (or make) a database.
 */
export function isOperatorCommand(args: readonly string[]): boolean {
  const [command, name, role] = args;
  if (!command || !name || !commands.has(command)) return false;
  return command !== "create" || role === "admin" || role === "support";
}

/**
 * `npm run operator -- …` (DESIGN §16), run where the database is: by the CLI itself, or by
 * the running server it asks over the control socket (the server holds the SQLite file).
 * A password not given is made here and printed once.
 */
export async function runOperatorCommand(
  database: Database,
  args: readonly string[],
  now: number,
): Promise<CommandResult> {
  const [command, name, ...rest] = args;
  const done = (output: string) => ({ exitCode: 0, output });
  if (!command || !name) return { exitCode: 2, output: operatorUsage };
  try {
    switch (command) {
      case "node": {
        // The panel's rule and audit entry; the key is last on its line, for scripts to take.
        const node = await addNode(database, name, now, { id: null });
        return done(`Node "${node.name}" key (shown once): ${node.key}`);
      }
      case "probe": {
        // A probe agent's key (AGENT_MODE=probe), last on its line like a node's.
        const probe = await addProbe(database, name, now, { id: null });
        return done(`Probe "${probe.name}" key (shown once): ${probe.key}`);
      }
      case "create": {
        const role = rest[0];
        if (role !== "admin" && role !== "support") return { exitCode: 2, output: operatorUsage };
        const password = rest[1] ?? randomToken(15);
        await createOperator(database, name, password, role satisfies OperatorRole, now);
        return done(`Created ${role} "${name}".${rest[1] ? "" : ` Password (shown once): ${password}`}`);
      }
      case "reset-password": {
        const password = rest[0] ?? randomToken(15);
        await resetOperatorPassword(database, name, password, now);
        return done(`New password for "${name}"${rest[0] ? " set." : ` (shown once): ${password}`}`);
      }
      case "unlock":
        await unlockOperator(database, name, now);
        return done(`Unlocked "${name}": its failed sign-ins are forgotten.`);
      case "reset-factors":
        await resetOperatorFactors(database, name, now);
        return done(
          `Cleared the second factors of "${name}" (passkeys, authenticator app, recovery codes); their sessions are revoked.`,
        );
      case "disable":
        await disableOperator(database, name, now);
        return done(`Disabled "${name}"; their sessions are revoked.`);
      default:
        return { exitCode: 2, output: operatorUsage };
    }
  } catch (error) {
    if (error instanceof AppError) return { exitCode: 1, output: error.message };
    throw error;
  }
}
