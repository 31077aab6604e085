import { createChallenge, verifySolution } from "altcha-lib/v1";
import { captchaSolutions } from "../../../db/queries/captcha-solutions";
import type { AppContext } from "../../context";
import { AppError } from "../../platform/errors";

const challengeLifetimeMs = 10 * 60 * 1000;
/** An ALTCHA proof-of-work challenge, signed with a key only the server knows. */
export function newChallenge(context: Pick<AppContext, "config" | "clock">) {
  return createChallenge({
    hmacKey: context.config.jwtSecret,
    // The browser tries on average half of this many SHA-256 hashes.
    maxNumber: context.config.altchaMaxNumber,
    expires: new Date(context.clock.now() + challengeLifetimeMs),
  });
}

async function verifyRecaptcha(
  context: Pick<AppContext, "config" | "http">,
  token: string,
): Promise<boolean> {
  try {
    const response = await context.http.fetch(
      new Request("https://www.google.com/recaptcha/api/siteverify", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ secret: context.config.recaptchaSecret ?? "", response: token }),
      }),
    );
    const result = (await response.json()) as { success?: boolean };
    return result.success === true;
  } catch {
    return false;
  }
}

type AltchaPayload = { signature: string; salt: string };

/** The payload as altcha-lib reads it (base64 of JSON); undefined when it is not one. */
function decodePayload(solution: string): AltchaPayload | undefined {
  try {
    const payload = JSON.parse(atob(solution)) as Partial<AltchaPayload> | null;
    if (typeof payload?.signature !== "string" || typeof payload.salt !== "string") return undefined;
    return { signature: payload.signature, salt: payload.salt };
  } catch {
    return undefined;
  }
}

/** When the challenge stops being accepted (its signed `expires`), in milliseconds. */
function expiryOf(payload: AltchaPayload, fallback: number): number {
  const expires = Number(new URLSearchParams(payload.salt.split("?")[1] ?? "").get("expires"));
  return Number.isFinite(expires) && expires > 0 ? Math.max(expires * 1000, fallback) : fallback;
}

/**
 * Records an ALTCHA challenge as spent. The key is the challenge's signature, not the
 * text the client sent: the same solution re-encoded (other base64 padding, key order,
 * extra fields, the number as a string) is still the same challenge and is refused.
 */
async function spendChallenge(
  context: Pick<AppContext, "database" | "clock">,
  payload: AltchaPayload,
): Promise<boolean> {
  const { database, clock } = context;
  const now = clock.now();
  await captchaSolutions.deleteExpired(database, now);
  // One statement decides: of two instances spending one solution at once, one inserts it.
  const inserted = await captchaSolutions.spend(
    database,
    payload.signature.toLowerCase(),
    expiryOf(payload, now + challengeLifetimeMs),
  );
  return inserted.changes > 0;
}

/**
 * Checks a captcha solution and accepts it once: ALTCHA by default (signature, expiry,
 * proof of work), reCAPTCHA v2 when its keys are configured.
 */
export async function assertCaptcha(
  context: Pick<AppContext, "database" | "clock" | "config" | "http">,
  solution: string | undefined,
): Promise<void> {
  if (!solution) throw new AppError("captcha_not_solved");
  if (context.config.recaptchaSecret) {
    if (!(await verifyRecaptcha(context, solution))) throw new AppError("captcha_not_solved");
    return;
  }
  const payload = decodePayload(solution);
  let isValid = false;
  try {
    isValid = payload !== undefined && (await verifySolution(solution, context.config.jwtSecret, true));
  } catch {
    isValid = false;
  }
  if (!payload || !isValid) throw new AppError("captcha_not_solved");
  if (!(await spendChallenge(context, payload))) throw new AppError("captcha_used");
}
