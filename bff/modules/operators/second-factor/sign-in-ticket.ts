import { jwtVerify, SignJWT } from "jose";
import { AppError } from "../../../platform/errors";

/** How long the step between a right password and the second factor may take. */
export const ticketLifetimeMs = 5 * 60 * 1000;
const issuer = "kannt-panel-second-factor";
const key = (secret: string) => new TextEncoder().encode(secret);

/**
 * What a right password earns an operator with a second factor: no tokens, only this
 * signed ticket naming them, which the second step (a code or a passkey) must present
 * within five minutes. It proves the password, so its holder may try codes, each counted
 * by the login limits like a password.
 */
export async function signTicket(secret: string, operatorId: number, now: number) {
  const expiresAt = now + ticketLifetimeMs;
  const ticket = await new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(operatorId))
    .setIssuer(issuer)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(key(secret));
  return { ticket, expiresAt };
}

/** The operator a ticket names, or 401 second_factor_ticket_invalid. */
export async function operatorOfTicket(secret: string, ticket: string, now: number): Promise<number> {
  try {
    const { payload } = await jwtVerify(ticket, key(secret), {
      issuer,
      algorithms: ["HS256"],
      currentDate: new Date(now),
    });
    const id = Number(payload.sub);
    if (!Number.isSafeInteger(id) || id <= 0) throw new Error("bad subject");
    return id;
  } catch {
    throw new AppError("second_factor_ticket_invalid");
  }
}
