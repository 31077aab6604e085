import { chmodSync, lstatSync, realpathSync, unlinkSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Database } from "../../db/database";
import { logger } from "./logger";
import { assertOwnSocket } from "./private-path";

/**
 * The server's private door for the operator's own programs on the same machine (npm run
 * backup): a Unix domain socket in the data folder, owner-only like everything there
 * (DESIGN §12). It exists because the server holds its SQLite file exclusively: another
 * process cannot read the database while the server runs, so work on the live file is asked
 * of the server. Only for a SQLite file; PostgreSQL has its own tools and any number of
 * instances.
 */
export const controlSocketName = "control.sock";

export const controlSocketPath = (dataDirectory: string) => join(resolve(dataDirectory), controlSocketName);

/** A refusal with its HTTP status, answered as `{ error }`. */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Answers one request's JSON body with a JSON object; throws ControlError to refuse. */
export type ControlHandler = (body: unknown, database: Database) => Promise<Record<string, unknown>>;

export type ControlSocket = {
  path: string;
  /** Stops listening once the requests under way are answered (a backup is not cut short). */
  stop(): Promise<void>;
};

/** The database file a path names, the same however it was spelled (relative, through a link). */
export function canonicalDatabasePath(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    // Not there yet: its folder may be.
    try {
      return join(realpathSync(dirname(absolute)), absolute.slice(dirname(absolute).length + 1));
    } catch {
      return absolute;
    }
  }
}

export type ControlProbe =
  | { state: "absent" }
  /** A socket file nobody listens on: its server was killed before it could remove it. */
  | { state: "stale" }
  /** A server answers, for this database file. */
  | { state: "answering"; database: string; pid: number };

/**
 * Whether a server listens at `path`, and for which database. Throws, before anything is
 * sent, when the socket is another user's or open to their writes: whoever answers there
 * would be handed operator commands and backup paths.
 */
export async function probeControlSocket(path: string): Promise<ControlProbe> {
  try {
    lstatSync(path);
  } catch {
    return { state: "absent" };
  }
  assertOwnSocket(path);
  try {
    const response = await fetch("http://control/status", { unix: path, signal: AbortSignal.timeout(5_000) });
    const status = (await response.json()) as { database?: unknown; pid?: unknown };
    if (response.ok && typeof status.database === "string" && typeof status.pid === "number") {
      return { state: "answering", database: status.database, pid: status.pid };
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT") return { state: "absent" };
    if (code !== "ECONNREFUSED") throw error;
  }
  return { state: "stale" };
}

/** Sends one request to the server at `path`: its JSON answer, or an Error with the server's reason. */
export async function askControlSocket(
  path: string,
  route: `${"GET" | "POST"} /${string}`,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const [method, pathname] = route.split(" ") as [string, string];
  const response = await fetch(`http://control${pathname}`, {
    unix: path,
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) throw new Error(String(answer.error ?? `the server answered ${response.status}`));
  return answer;
}

const answer = (status: number, body: Record<string, unknown>) => Response.json(body, { status });

/**
 * Listens at `path` until stopped (or the process exits), answering `GET /status` (which
 * database this server holds) and each `"METHOD /path"` of `handlers`. Gives up with a
 * warning, and the server runs without it, when the socket cannot be had: another server's
 * socket in a shared folder is left alone, and a path over the system's limit (about 100
 * bytes) cannot be listened on.
 */
export async function startControlSocket(options: {
  path: string;
  databasePath: string;
  database: Database;
  handlers: Record<string, ControlHandler>;
}): Promise<ControlSocket | undefined> {
  const { path, database, handlers } = options;
  const databasePath = canonicalDatabasePath(options.databasePath);
  const probe = await probeControlSocket(path).catch((error: unknown) => {
    logger.warn("control socket answers oddly; this server runs without it", { path, error: String(error) });
    return undefined;
  });
  if (!probe) return undefined;
  if (probe.state === "answering") {
    logger.warn("control socket held by another server; this one runs without it", {
      path,
      database: probe.database,
    });
    return undefined;
  }
  // This server holds its database exclusively, so no server of this database listens:
  // what is left is a killed server's.
  if (probe.state === "stale") unlinkSync(path);

  let server: ReturnType<typeof Bun.serve>;
  try {
    server = Bun.serve({
      unix: path,
      development: false,
      async fetch(request, self) {
        // A copy of a large database takes longer than Bun's 10 s idle limit.
        self.timeout(request, 0);
        const route = `${request.method} ${new URL(request.url).pathname}`;
        if (route === "GET /status") return answer(200, { database: databasePath, pid: process.pid });
        const handler = handlers[route];
        if (!handler) return answer(404, { error: `No such request: ${route}` });
        let body: unknown;
        try {
          body = await request.json();
        } catch {
          return answer(400, { error: "The body must be JSON." });
        }
        try {
          return answer(200, await handler(body, database));
        } catch (error) {
          if (error instanceof ControlError) return answer(error.status, { error: error.message });
          logger.error("control request failed", { route, error: String(error) });
          return answer(500, { error: error instanceof Error ? error.message : String(error) });
        }
      },
    });
  } catch (error) {
    logger.warn("control socket unavailable; backups need the server stopped", {
      path,
      error: String(error),
    });
    return undefined;
  }
  // The data folder is already owner-only; the socket is too, whatever the umask was.
  chmodSync(path, 0o600);
  const inode = lstatSync(path).ino;

  /** Removes the socket file if it is still this server's (Bun leaves it behind at exit). */
  const removeFile = () => {
    try {
      if (lstatSync(path).ino === inode) unlinkSync(path);
    } catch {
      // Already gone.
    }
  };
  process.once("exit", removeFile);
  let stopped = false;
  return {
    path,
    async stop() {
      if (stopped) return;
      stopped = true;
      process.removeListener("exit", removeFile);
      await server.stop();
      removeFile();
    },
  };
}
