/** Only the public origin decides; undefined reads as "not https". */
export type SecurityHeadersConfig = { publicUrl: string | undefined };

/**
 * The headers every response carries, pages and API alike (DESIGN §12). HSTS only when
 * the public origin is https: sent over plain http it is ignored, and a developer's
 * `localhost` must never be pinned to https.
 */
export function baseSecurityHeaders(config: SecurityHeadersConfig): Record<string, string> {
  const headers: Record<string, string> = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
  };
  if (config.publicUrl?.toLowerCase().startsWith("https://")) {
    headers["strict-transport-security"] = "max-age=31536000; includeSubDomains";
  }
  return headers;
}

/**
 * Sets the base headers on any Headers object and returns it. On a hot path, compute
 * `baseSecurityHeaders(config)` once and copy it instead.
 */
export function addBaseSecurityHeaders(headers: Headers, config: SecurityHeadersConfig): Headers {
  for (const [name, value] of Object.entries(baseSecurityHeaders(config))) headers.set(name, value);
  return headers;
}
