import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import type { Database } from "../../../../db/database";
import { totp } from "../../../../db/queries/second-factor";
import { AppError } from "../../../platform/errors";
import { openSecret, sealSecret } from "./sealed-secret";

/** RFC 6238 as every authenticator app takes it: SHA-1, 6 digits, 30-second steps. */
const period = 30;
const authenticatorOf = (secret: Secret, username = "") =>
  new TOTP({ issuer: "Kannt panel", label: username, algorithm: "SHA1", digits: 6, period, secret });

/**
 * A new secret for the operator's authenticator app, sealed and kept unconfirmed until a
 * first code shows the app has it. The secret, its otpauth:// address and that address as
 * a QR code are answered this once and never again.
 */
export async function startTotp(
  services: { database: Database; jwtSecret: string },
  operator: { id: number; username: string },
  now: number,
) {
  const existing = await totp.ofOperator(services.database, operator.id);
  if (existing?.enabled_at) throw new AppError("totp_already_enabled");
  const secret = new Secret({ size: 20 });
  await totp.savePending(
    services.database,
    operator.id,
    await sealSecret(services.jwtSecret, secret.base32),
    now,
  );
  const uri = authenticatorOf(secret, operator.username).toString();
  return { secret: secret.base32, uri, qrSvg: await QRCode.toString(uri, { type: "svg", margin: 1 }) };
}

/**
 * Checks a 6-digit code against the operator's secret at `wallTime` (real time: the app
 * on the phone keeps it, not the billing test clock), one step either side, and spends its
 * step: a code is accepted once, and none from a step at or before one already accepted.
 * `pending` checks the unconfirmed secret of a set-up instead of the enabled one.
 */
export async function spendTotpCode(
  services: { database: Database; jwtSecret: string },
  operatorId: number,
  code: string,
  wallTime: number,
  pending = false,
): Promise<boolean> {
  const row = await totp.ofOperator(services.database, operatorId);
  if (!row || (row.enabled_at === null) !== pending) return false;
  const token = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(token)) return false;
  const base32 = await openSecret(services.jwtSecret, row.secret_sealed);
  if (!base32) return false;
  const delta = authenticatorOf(Secret.fromBase32(base32)).validate({
    token,
    timestamp: wallTime,
    window: 1,
  });
  if (delta === null) return false;
  const step = Math.floor(wallTime / 1000 / period) + delta;
  return (await totp.spendStep(services.database, operatorId, step)).changes === 1;
}

/** Whether the operator has a pending set-up (a secret no code has confirmed yet). */
export async function hasPendingTotp(database: Database, operatorId: number) {
  const row = await totp.ofOperator(database, operatorId);
  if (!row) return false;
  if (row.enabled_at !== null) throw new AppError("totp_already_enabled");
  return true;
}
