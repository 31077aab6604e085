import { supportBotUrl } from "../../core/company";

/** Telegram's limit for a bot's start parameter: 64 characters of A–Z, a–z, 0–9, _ and -. */
const startParameterLimit = 64;

/**
 * The e-mail's UTF-8 bytes as base64url without padding (spec §2 "Footer" asks for base64;
 * Telegram's start parameter takes only A-Za-z0-9_-, so + and / become - and _, and the =
 * padding is dropped). Empty when there is no e-mail, or when the e-mail is too long to fit
 * (over 48 bytes): the bot then asks for it instead of receiving half an address.
 */
export function supportStartParameter(email: string | null | undefined): string {
  if (!email) return "";
  let binary = "";
  for (const byte of new TextEncoder().encode(email)) binary += String.fromCharCode(byte);
  const encoded = btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return encoded.length <= startParameterLimit ? encoded : "";
}

export function supportLink(email: string | null | undefined): string {
  return supportBotUrl(supportStartParameter(email));
}
