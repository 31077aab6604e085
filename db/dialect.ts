import type { Database } from "./database";

/**
 * The few words the two engines spell differently, kept in one place so a query is still
 * written once. Each returns a fixed text per engine, so the statement caches see two
 * texts at most.
 */

/** SQLite's two-argument MIN is PostgreSQL's LEAST. */
export const smallerOf = (db: Database) => (db.engine === "postgres" ? "LEAST" : "MIN");

/** SQLite's two-argument MAX is PostgreSQL's GREATEST. */
export const largerOf = (db: Database) => (db.engine === "postgres" ? "GREATEST" : "MAX");

/**
 * Row locks for claiming work among several instances: PostgreSQL skips rows another
 * instance holds; SQLite has one writer at a time, so there is nothing to skip.
 */
export const skipLocked = (db: Database) => (db.engine === "postgres" ? "FOR UPDATE SKIP LOCKED" : "");
