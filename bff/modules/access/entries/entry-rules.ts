import { alpnValues, fingerprints } from "../../../../core/entry-settings";
import { tariffMonths } from "../../../../core/prices";
import type { EntrySettings } from "../../../../db/queries/entries";
import { AppError } from "../../../platform/errors";
import { normalizeHost } from "../subscription/server-entries";

export { alpnValues, fingerprints };

/** What an operator may set on an entry, as the panel sends it; null gives a setting back to the inbound. */
export type EntryInput = {
  address?: string | null;
  port?: number | null;
  sni?: string | null;
  fingerprint?: string | null;
  alpn?: string[] | null;
  path?: string | null;
  hostHeader?: string | null;
  serviceName?: string | null;
  remark?: string;
  tags?: string[];
  tariffs?: number[];
  enabled?: boolean;
};

const invalid = (field: string) => new AppError("invalid_entry", { field });

/** A host a client dials or names in TLS: a domain (any script, kept as punycode) or an IP address. */
function hostSetting(value: string | null | undefined, field: string): string | null | undefined {
  if (value === undefined || value === null) return value;
  if (value.trim() === "") return null;
  const host = normalizeHost(value);
  if (!host) throw invalid(field);
  return host;
}

function textSetting(value: string | null | undefined, field: string, pattern: RegExp) {
  if (value === undefined || value === null) return value;
  if (value.trim() === "") return null;
  if (!pattern.test(value.trim())) throw invalid(field);
  return value.trim();
}

/** A remark names the entry in client apps' lists: one line, no control characters. */
const remarkPattern = /^[^\p{Cc}]{0,64}$/u;
const tagPattern = /^[\p{L}\p{N}._-]{1,32}$/u;

/**
 * An operator's input as the columns keep it, or 400 `invalid_entry` naming the field:
 * what every client format writes must be something each of them reads.
 */
export function entrySettings(input: EntryInput): EntrySettings {
  const settings: EntrySettings = {
    address: hostSetting(input.address, "address"),
    sni: hostSetting(input.sni, "sni"),
    host_header: hostSetting(input.hostHeader, "hostHeader"),
    path: textSetting(input.path, "path", /^\/[\x21-\x7e]{0,255}$/),
    service_name: textSetting(input.serviceName, "serviceName", /^[\x21-\x7e]{1,128}$/),
  };
  if (input.port !== undefined) {
    if (input.port !== null && !(Number.isInteger(input.port) && input.port >= 1 && input.port <= 65535))
      throw invalid("port");
    settings.port = input.port;
  }
  if (input.fingerprint !== undefined) {
    const value = input.fingerprint === "" ? null : input.fingerprint;
    if (value !== null && !(fingerprints as readonly string[]).includes(value)) throw invalid("fingerprint");
    settings.fingerprint = value;
  }
  if (input.alpn !== undefined) {
    const values = input.alpn ?? [];
    if (values.some((value) => !(alpnValues as readonly string[]).includes(value))) throw invalid("alpn");
    settings.alpn = values.length === 0 ? null : [...new Set(values)].join(",");
  }
  if (input.remark !== undefined) {
    if (!remarkPattern.test(input.remark)) throw invalid("remark");
    settings.remark = input.remark.trim();
  }
  if (input.tags !== undefined) {
    if (input.tags.length > 16 || input.tags.some((tag) => !tagPattern.test(tag))) throw invalid("tags");
    settings.tags = [...new Set(input.tags)].join(",");
  }
  if (input.tariffs !== undefined) {
    if (input.tariffs.some((months) => !(tariffMonths as readonly number[]).includes(months)))
      throw invalid("tariffs");
    settings.tariffs = [...new Set(input.tariffs)].sort((a, b) => a - b).join(",");
  }
  if (input.enabled !== undefined) settings.enabled = input.enabled ? 1 : 0;
  for (const key of Object.keys(settings) as (keyof EntrySettings)[])
    if (settings[key] === undefined) delete settings[key];
  return settings;
}

/** The tariffs an entry is for (months); empty: everyone. */
export const tariffsOf = (column: string): number[] =>
  column === "" ? [] : column.split(",").map(Number).filter(Number.isInteger);

export const listOf = (column: string | null): string[] =>
  column === null || column === "" ? [] : column.split(",");

/**
 * Camouflage names that are a risk for a REALITY entry: Russian sites (a server abroad that
 * "is" a Russian site is what the per-connection scoring looks for, Xray-core#6293) and the
 * Apple, iCloud and Microsoft names every guide copied, which censors now watch.
 */
const russianSuffixes = [".ru", ".su", ".xn--p1ai", ".xn--d1acj3b", ".moscow", ".tatar"];
const abusedNames = [
  "apple.com",
  "icloud.com",
  "microsoft.com",
  "live.com",
  "office.com",
  "windows.com",
  "bing.com",
];

export type RealityWarning = "russianTarget" | "abusedTarget";

export function realityWarning(serverName: string | undefined): RealityWarning | undefined {
  if (!serverName) return undefined;
  const name = `.${serverName.toLowerCase().replace(/\.$/, "")}`;
  if (russianSuffixes.some((suffix) => name.endsWith(suffix))) return "russianTarget";
  if (abusedNames.some((abused) => name.endsWith(`.${abused}`))) return "abusedTarget";
  return undefined;
}
