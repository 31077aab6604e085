import type { Database } from "bun:sqlite";
import type { Clock } from "./clock";
import type { Config } from "./config";

/** What every feature module is built from; tests build it around an in-memory database. */
export type AppContext = {
  config: Config;
  database: Database;
  clock: Clock;
};
