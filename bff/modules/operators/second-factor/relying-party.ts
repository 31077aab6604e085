import type { Config } from "../../../platform/config";

/**
 * The WebAuthn relying party is the product's public address (DESIGN §12): passkeys are
 * made for, and only answer to, the host of PUBLIC_URL, from its origin. A page served
 * under another name (an IP, a proxy's internal host) gets no passkey ceremony through.
 */
export function relyingParty(config: Pick<Config, "publicUrl">) {
  const url = new URL(config.publicUrl);
  return { id: url.hostname, origin: url.origin, name: "Kannt" };
}
