import type { Database } from "../database";
import { statement } from "../database";

/** The cheapest round trip: answers once the database does (GET /health). */
export const liveness = {
  ping: (db: Database) => statement(db, "SELECT 1").get(),
};
