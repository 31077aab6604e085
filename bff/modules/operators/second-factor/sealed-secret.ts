/**
 * TOTP secrets are kept sealed (DESIGN §12): AES-256-GCM under a key derived (HKDF) from
 * JWT_SECRET, which lives outside the database, so a copy of the database alone does not
 * give anyone an operator's codes. Changing JWT_SECRET means setting the authenticator
 * apps up again (README, operator section).
 */
const keys = new Map<string, Promise<CryptoKey>>();

function keyFor(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = (async () => {
      const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), "HKDF", false, [
        "deriveKey",
      ]);
      return crypto.subtle.deriveKey(
        {
          name: "HKDF",
          hash: "SHA-256",
          salt: new TextEncoder().encode("kannt staff second factor"),
          info: new TextEncoder().encode("totp secret"),
        },
        material,
        { name: "AES-GCM", length: 256 },
        false,
        ["encrypt", "decrypt"],
      );
    })();
    keys.set(secret, key);
  }
  return key;
}

export async function sealSecret(jwtSecret: string, plain: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    await keyFor(jwtSecret),
    new TextEncoder().encode(plain),
  );
  return `${Buffer.from(iv).toString("base64url")}.${Buffer.from(sealed).toString("base64url")}`;
}

/** The secret, or undefined when it was sealed under another key (JWT_SECRET changed). */
export async function openSecret(jwtSecret: string, sealed: string): Promise<string | undefined> {
  const [iv, data] = sealed.split(".");
  if (!iv || !data) return undefined;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: Buffer.from(iv, "base64url") },
      await keyFor(jwtSecret),
      Buffer.from(data, "base64url"),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return undefined;
  }
}
