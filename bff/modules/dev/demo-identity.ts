import type { AppContext } from "../../context";
import { AppError } from "../../platform/errors";

/** Demo accounts get a stable uid per provider and e-mail, as a real provider would. */
export function demoUid(provider: string, email: string): string {
  const digest = new Bun.CryptoHasher("sha256")
    .update(`${provider}:${email.trim().toLowerCase()}`)
    .digest("hex");
  return `demo${digest.slice(0, 24)}`;
}

export function demoAvatarUrl(email: string): string {
  // The first character, not the first UTF-16 unit: an emoji's half is a lone surrogate, which
  // encodeURIComponent refuses with a URIError. toWellFormed() covers a lone surrogate typed as such.
  const letter = (Array.from(email.trim())[0] ?? "?").toWellFormed().toUpperCase();
  const hue = [...email].reduce((sum, character) => sum + character.charCodeAt(0), 0) % 360;
  return `/api/dev/idp/avatar?letter=${encodeURIComponent(letter)}&hue=${hue}`;
}

/** The demo identity provider, which exists only in demo mode. */
export function requireDemo(context: Pick<AppContext, "identity">) {
  const demo = context.identity.demo;
  if (!demo) throw new AppError("not_found");
  return demo;
}
