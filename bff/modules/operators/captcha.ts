import { createChallenge, verifySolution } from "altcha-lib/v1";
import { statement } from "../../../db/statements";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";

/** The text the spec shows when the captcha is not solved, on the client and the server alike. */
export const captchaNotSolved = "reCAPTCHA not solved!";
const challengeLifetimeMs = 10 * 60 * 1000;

/** An ALTCHA proof-of-work challenge, signed with a key only the server knows. */
export function newChallenge(context: AppContext) {
  return createChallenge({
    hmacKey: context.config.jwtSecret,
    maxNumber: 50_000,
    expires: new Date(context.clock.now() + challengeLifetimeMs),
  });
}

async function verifyRecaptcha(context: AppContext, token: string): Promise<boolean> {
  const response = await context.http.fetch(
    new Request("https://www.google.com/recaptcha/api/siteverify", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ secret: context.config.recaptchaSecret ?? "", response: token }),
    }),
  );
  const result = (await response.json()) as { success?: boolean };
  return result.success === true;
}

/**
 * Checks a captcha solution and accepts it once: ALTCHA by default (signature, expiry,
 * proof of work), reCAPTCHA v2 when its keys are configured.
 */
export async function assertCaptcha(context: AppContext, solution: string | undefined): Promise<void> {
  if (!solution) throw new AppError("BAD_REQUEST", captchaNotSolved);
  if (context.config.recaptchaSecret) {
    if (!(await verifyRecaptcha(context, solution))) throw new AppError("BAD_REQUEST", captchaNotSolved);
    return;
  }
  let isValid = false;
  try {
    isValid = await verifySolution(solution, context.config.jwtSecret, true);
  } catch {
    isValid = false;
  }
  if (!isValid) throw new AppError("BAD_REQUEST", captchaNotSolved);
  const { database, clock } = context;
  const key = new Bun.CryptoHasher("sha256").update(solution).digest("hex");
  statement(database, "DELETE FROM captcha_solutions WHERE expires_at < ?").run(clock.now());
  const inserted = statement(
    database,
    "INSERT OR IGNORE INTO captcha_solutions (signature, expires_at) VALUES (?, ?)",
  ).run(key, clock.now() + challengeLifetimeMs);
  if (inserted.changes === 0)
    throw new AppError("BAD_REQUEST", "This captcha was already used; solve a new one.");
}
