import { runOperatorCommand } from "./operator-commands";
import { ControlError, type ControlHandler } from "./platform/control-socket";

/** `POST /operator {args}` on the control socket: the CLI's command, run by the server that holds the file. */
export const operatorRequest: ControlHandler = async (body, database) => {
  const args = (body as { args?: unknown } | null)?.args;
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === "string") || args.length > 8)
    throw new ControlError(400, "args must be the command's words, as strings.");
  return runOperatorCommand(database, args, Date.now());
};
