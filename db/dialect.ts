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

/** 2^53 − 1: the largest whole number JavaScript holds exactly, and so the most any total may say. */
export const largestExactInteger = 9007199254740991;

/**
 * `SUM(expression)` over whole numbers (bytes) that can neither overflow nor exceed 2^53 − 1,
 * 0 over no rows. SQLite's SUM fails past 2^63 ("integer overflow"), so SQLite adds in
 * floating point (TOTAL), exact while the sum is below 2^53; PostgreSQL's SUM of BIGINT is
 * an exact NUMERIC. Either is then capped and made a whole number again.
 */
export const cappedSum = (db: Database, expression: string) =>
  db.engine === "postgres"
    ? `CAST(LEAST(COALESCE(SUM(${expression}), 0), ${largestExactInteger}) AS BIGINT)`
    : `CAST(MIN(TOTAL(${expression}), ${largestExactInteger}) AS INTEGER)`;

/**
 * Row locks for claiming work among several instances: PostgreSQL skips rows another
 * instance holds; SQLite has one writer at a time, so there is nothing to skip.
 */
export const skipLocked = (db: Database) => (db.engine === "postgres" ? "FOR UPDATE SKIP LOCKED" : "");

/**
 * Whether `column` is one of a list of ids sent as one parameter (a JSON array), so a
 * batch's statement is one text whatever its length: `WHERE ${isAmong(db, "id")}` with
 * `JSON.stringify(ids)`. PostgreSQL reads it as an array (an index scan, planned at once);
 * the text is sent as text, since a parameter typed json would be encoded once more.
 */
export const isAmong = (db: Database, column: string) =>
  db.engine === "postgres"
    ? `${column} = ANY(CAST(translate(CAST(? AS TEXT), '[]', '{}') AS BIGINT[]))`
    : `${column} IN (SELECT value FROM json_each(?))`;

/**
 * Rows sent as one parameter (a JSON array of objects), as a FROM item named `alias` with
 * the given columns: `FROM ${jsonRows(db, "j", [["id", "BIGINT"]])}` with
 * `JSON.stringify(rows)`. For writing a batch in one statement. The columns are fixed at
 * each call site, so each engine still sees one text per statement.
 */
export function jsonRows(db: Database, alias: string, columns: readonly (readonly [string, string])[]) {
  if (db.engine === "postgres")
    return `json_to_recordset(CAST(CAST(? AS TEXT) AS json)) AS ${alias}(${columns.map(([name, type]) => `${name} ${type}`).join(", ")})`;
  const fields = columns.map(([name]) => `json_extract(value, '$.${name}') AS ${name}`).join(", ");
  return `(SELECT ${fields} FROM json_each(?)) AS ${alias}`;
}
