/**
 * Seals a rotation's answer with a key only the spent refresh token yields (the database
 * keeps the token's SHA-256, never the token): whoever presents that token again within
 * the replay window gets the same pair, and a copy of the database opens nothing.
 */
export type TokenPair = { accessToken: string; refreshToken: string };

async function keyOf(spentToken: string): Promise<CryptoKey> {
  // A different hash input than the stored token hash, so the stored hash is not the key.
  const material = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(`replay-seal:${spentToken}`),
  );
  return crypto.subtle.importKey("raw", material, "AES-GCM", false, ["encrypt", "decrypt"]);
}

export async function sealPair(spentToken: string, pair: TokenPair): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    await keyOf(spentToken),
    new TextEncoder().encode(JSON.stringify(pair)),
  );
  return `${Buffer.from(iv).toString("base64url")}.${Buffer.from(sealed).toString("base64url")}`;
}

/** The pair, or undefined when the seal does not open with this token. */
export async function openPair(spentToken: string, sealed: string): Promise<TokenPair | undefined> {
  const [iv, body] = sealed.split(".");
  if (!iv || !body) return undefined;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: Buffer.from(iv, "base64url") },
      await keyOf(spentToken),
      Buffer.from(body, "base64url"),
    );
    return JSON.parse(new TextDecoder().decode(plain)) as TokenPair;
  } catch {
    return undefined;
  }
}
