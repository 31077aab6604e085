import { supportBotUrl } from "../content/company";

/** Base64 of the e-mail's UTF-8 bytes; empty when there is no e-mail (spec §2 "Footer"). */
export function supportStartParameter(email: string | null | undefined): string {
  if (!email) return "";
  let binary = "";
  for (const byte of new TextEncoder().encode(email)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function supportLink(email: string | null | undefined): string {
  return supportBotUrl(supportStartParameter(email));
}
