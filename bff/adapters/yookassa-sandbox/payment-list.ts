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

const statuses = ["pending", "waiting_for_capture", "succeeded", "canceled"];
const methods = ["bank_card", "sbp"];

/** A time filter's four bounds (`{name}.gte`, `.gt`, `.lte`, `.lt`) as one range, or its refusal. */
function rangeOf(query: URLSearchParams, name: string): readonly [number, number] | null | ApiAnswer {
  const bounds = ["gte", "gt", "lte", "lt"].map((mode) => timeOf(query, `${name}.${mode}`));
  const refused = bounds.find(isAnswer);
  if (refused) return refused;
  const [gte, gt, lte, lt] = bounds as (number | null)[];
  if (bounds.every((bound) => bound === null)) return null;
  return [
    Math.max(gte ?? 0, gt == null ? 0 : gt + 1),
    Math.min(lte ?? Number.MAX_SAFE_INTEGER, lt == null ? Number.MAX_SAFE_INTEGER : lt - 1),
  ];
}

/** A filter that takes one of `allowed`, or its refusal. */
function oneOf(query: URLSearchParams, name: string, allowed: string[]): string | null | ApiAnswer {
  const value = query.get(name);
  if (value === null || allowed.includes(value)) return value;
  return invalid(name, `${name} must be one of: ${allowed.join(", ")}.`);
}

/**
 * `GET /v3/payments`: the shop's payments, newest first, as YooKassa's list answers it:
 * filtered by when they were made and captured (`created_at.gte`, `.gt`, `.lte`, `.lt`, the
 * same for `captured_at`), `status` and `payment_method`, a page of `limit` (1–100, 10 by
 * default) with `next_cursor` while more follow. A shop finds by it what a request past its
 * Idempotence-Key's 24 hours made.
 */
export function listPayments(
  ledger: Database,
  view: (id: string) => { id: string } | undefined,
  query: URLSearchParams,
): ApiAnswer {
  const created = rangeOf(query, "created_at");
  if (isAnswer(created)) return created;
  const captured = rangeOf(query, "captured_at");
  if (isAnswer(captured)) return captured;
  const status = oneOf(query, "status", statuses);
  if (isAnswer(status)) return status;
  const method = oneOf(query, "payment_method", methods);
  if (isAnswer(method)) return method;
  const limitText = query.get("limit");
  const limit = limitText === null ? defaultPage : Number(limitText);
  if (!/^\d+$/.test(limitText ?? "10") || limit < 1 || limit > longestPage)
    return invalid("limit", `limit must be a whole number from 1 to ${longestPage}.`);
  const cursor = query.get("cursor");
  const after = cursor === null ? undefined : afterOf(cursor);
  if (cursor !== null && !after) return invalid("cursor", "cursor is not one this API gave.");
  const rows = yooKassaLedgerPayments.listed(
    ledger,
    { created: created ?? [0, Number.MAX_SAFE_INTEGER], captured, status, method },
    after,
    limit + 1,
  );
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
