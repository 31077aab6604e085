/**
 * Spec §3: the payment id of an anonymous purchase is the first 30 hex characters of
 * a SHA-256 of the time, the user agent and a random number, followed by the stored
 * `i` and `j` values, joined with underscores. It is also the prepaid token.
 */
export async function generatePaymentId(i: string | null, j: string | null): Promise<string> {
  const random = crypto.getRandomValues(new Uint32Array(4)).join("");
  const seed = `${Date.now()}${navigator.userAgent}${random}`;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(seed));
  const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return [hex.slice(0, 30), i ?? "", j ?? ""].join("_");
}
