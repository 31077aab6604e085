import { randomUuid } from "../../platform/random";

/** An answer of the sandbox's API: its HTTP status and JSON body (YooKassa's error object on a refusal). */
export type ApiAnswer = { status: number; body: unknown };

/** YooKassa's error object. */
export const errorAnswer = (
  status: number,
  code: string,
  description: string,
  parameter?: string,
): ApiAnswer => ({
  status,
  body: { type: "error", id: randomUuid(), code, description, ...(parameter ? { parameter } : {}) },
});
