/**
 * The TLS fingerprints client apps can present (uTLS names, as Xray, sing-box and Mihomo
 * read them). Censors ban fingerprints (Chrome's, in XTLS/Xray-core#5333): the operator
 * switches entries to another. The server checks an entry against these and the panel
 * offers them, so both read this one list.
 */
export const fingerprints = [
  "chrome",
  "firefox",
  "safari",
  "ios",
  "android",
  "edge",
  "360",
  "qq",
  "random",
  "randomized",
] as const;

export type Fingerprint = (typeof fingerprints)[number];

/** The ALPN values an entry may offer, in the order a client app lists them. */
export const alpnValues = ["h3", "h2", "http/1.1"] as const;

export type AlpnValue = (typeof alpnValues)[number];
