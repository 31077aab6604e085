import type { Database } from "bun:sqlite";
import { yooKassaLedgerPayments } from "../../../db/queries/yookassa-ledger";
import { type ApiAnswer, errorAnswer } from "./api-answers";

const longestPage = 100;
const defaultPage = 10;

const invalid = (parameter: string, description: string) =>
  errorAnswer(400, "invalid_request", description, parameter);

/** A time filter's value: an ISO 8601 date-time, as YooKassa takes them. */
function timeOf(query: URLSearchParams, name: string): number | null | ApiAnswer {
  const text = query.get(name);
  if (text === null) return null;
  const time = /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isFinite(time) ? time : invalid(name, `${name} must be a date and time in ISO 8601.`);
}

/** The cursor names the last payment of the page before: its time and id, opaque to the caller. */
const cursorOf = (last: { created_at: number; id: string }) =>
  Buffer.from(JSON.stringify([last.created_at, last.id])).toString("base64url");

function afterOf(cursor: string): { createdAt: number; id: string } | undefined {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, "base64url").toString()) as unknown[];
    if (typeof createdAt === "number" && typeof id === "string") return { createdAt, id };
  } catch {}
  return undefined;
}

const isAnswer = (value: unknown): value is ApiAnswer =>
  typeof value === "object" && value !== null && "status" in value;

/**
 * `GET /v3/payments`: the shop's payments, newest first, filtered by when they were made
 * (`created_at.gte`, `.gt`, `.lte`, `.lt`), a page of `limit` (1–100, 10 by default) with
 * `next_cursor` while more follow, as YooKassa's list of payments answers. A shop finds by
 * it what a request past its Idempotence-Key's 24 hours made.
 */
export function listPayments(
  ledger: Database,
  view: (id: string) => { id: string } | undefined,
  query: URLSearchParams,
): ApiAnswer {
  const bounds = {
    gte: timeOf(query, "created_at.gte"),
    gt: timeOf(query, "created_at.gt"),
    lte: timeOf(query, "created_at.lte"),
    lt: timeOf(query, "created_at.lt"),
  };
  const { gte, gt, lte, lt } = bounds;
  if (isAnswer(gte)) return gte;
  if (isAnswer(gt)) return gt;
  if (isAnswer(lte)) return lte;
  if (isAnswer(lt)) return lt;
  const from = Math.max(gte ?? 0, gt === null ? 0 : gt + 1);
  const to = Math.min(lte ?? Number.MAX_SAFE_INTEGER, lt === null ? Number.MAX_SAFE_INTEGER : lt - 1);
  const limitText = query.get("limit");
  const limit = limitText === null ? defaultPage : Number(limitText);
  if (!/^\d+$/.test(limitText ?? "10") || limit < 1 || limit > longestPage)
    return invalid("limit", `limit must be a whole number from 1 to ${longestPage}.`);
  const cursor = query.get("cursor");
  const after = cursor === null ? undefined : afterOf(cursor);
  if (cursor !== null && !after) return invalid("cursor", "cursor is not one this API gave.");
  const rows = yooKassaLedgerPayments.madeBetween(ledger, from, to, after, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    status: 200,
    body: {
      type: "list",
      items: page.map((row) => view(row.id)),
      ...(rows.length > limit && last ? { next_cursor: cursorOf(last) } : {}),
    },
  };
}
