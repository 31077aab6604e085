/**
 * Hostile inputs for the every-route fuzz test (tests/bff/api/fuzz-every-route.test.ts).
 * Every value is a fixed catalogue entry or comes from a seeded generator, so a
 * failure names an input that reproduces on the next run.
 */

/** The part of an OpenAPI schema the fuzzer reads to name fields and build plausible values. */
export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  const?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  pattern?: string;
  format?: string;
  items?: Schema;
};

export function seedOf(text: string): number {
  let hash = 2_166_136_261;
  for (const character of text) hash = Math.imul(hash ^ (character.codePointAt(0) ?? 0), 16_777_619);
  return hash >>> 0;
}

// Bodies stay under the 64 KB limit with room for the other fields and the JSON around them.
const hugeLength = 60_000;
const emoji = "🙂👨‍👩‍👧‍👦🏳️‍🌈🇰🇿";

/** Strings of the right type whose content is hostile; they get past type checks and reach the code. */
export const hostileStrings: Record<string, string> = {
  empty: "",
  blank: "   ",
  nul: "fuzz\u0000@example.com",
  "only NUL": "\u0000",
  controls: "\u0001\u0007\b\u001b[31m\u007f\u0085",
  "CR LF": "a\r\nSet-Cookie: x=y",
  "bidi override": "\u202Emoc.elpmaxe@zzuf",
  "bidi isolates": "\u2066\u2067\u2068\u2069\u200F",
  "lone high surrogate": "fuzz\uD800",
  "lone low surrogate": "\uDFFFfuzz",
  emoji,
  "combining marks": "Z̴̡̛̙a̷̢l̸̨g̷o̶̧ ́́́́́́́́",
  "zero width and BOM": "\u200B\u200D\uFEFFfuzz",
  "line separators": "\u2028\u2029",
  noncharacter: "\uFFFF\uFFFE",
  "SQL quote": "' OR 1=1; DROP TABLE users; --",
  "FTS5 syntax": '"* NEAR( OR AND NOT ^',
  "LIKE wildcards": "%_\\%",
  "JSON-looking": '{"$gt":""}',
  "path traversal": "../../../../etc/passwd",
  markup: "<script>alert(1)</script>",
  "percent garbage": "%zz%%00%",
  "huge ASCII": "a".repeat(hugeLength),
  "huge emoji": emoji.repeat(Math.floor(hugeLength / new TextEncoder().encode(emoji).length)),
  "huge NUL": "\u0000".repeat(hugeLength / 6),
};

/**
 * Values as raw JSON text, so a body can hold what JSON.stringify cannot write
 * (1e309, -0, a 30-digit integer) and wrong types for every field.
 */
export const mistypedJsonValues: Record<string, string> = {
  "number as string": '"123"',
  "float as string": '"1.5"',
  "negative as string": '"-1"',
  "NaN as string": '"NaN"',
  "Infinity as string": '"Infinity"',
  "1e309 as string": '"1e309"',
  "hex as string": '"0x1F"',
  "padded number string": '" 1 "',
  "empty object": "{}",
  "operator object": '{"$gt":"","__proto__":{"polluted":true}}',
  "empty array": "[]",
  "string array": '["fuzz@example.com"]',
  "nested array": "[[[[[]]]]]",
  true: "true",
  false: "false",
  null: "null",
  zero: "0",
  "negative zero": "-0",
  "minus one": "-1",
  "float where an int is expected": "1.5",
  "tiny float": "5e-324",
  "below int32": "-2147483649",
  "above 2^53": "9007199254740993",
  "30-digit integer": "123456789012345678901234567890",
  "1e308": "1e308",
  "1e309 (overflows to Infinity)": "1e309",
  "-1e309": "-1e309",
  "1e-400 (underflows to 0)": "1e-400",
  "escaped lone surrogate": '"\\ud800"',
  "escaped NUL": '"\\u0000"',
};

/** The hostile strings as JSON values; only a string field lets them past validation. */
export const hostileStringValues: Record<string, string> = Object.fromEntries(
  Object.entries(hostileStrings).map(([label, text]) => [label, JSON.stringify(text)]),
);

const depth = 3000;

/** Bodies that are not the JSON object a route expects, sent as application/json. */
export const malformedJsonBodies: Record<string, string> = {
  empty: "",
  whitespace: " \n\t ",
  "lone brace": "{",
  "lone bracket": "[",
  "truncated object": '{"email": "fuzz@example.com", "uid": ',
  "truncated string": '{"email": "fuzz@exa',
  "missing value": '{"uid": }',
  "trailing comma": '{"uid": "u",}',
  "extra closing brace": '{"a":1}}',
  "single quotes": "{'uid': 'u'}",
  "unquoted keys": "{uid: 1}",
  comments: '{/* hi */"uid": "u"}',
  "NaN literal": '{"period": NaN}',
  "Infinity literal": '{"period": Infinity}',
  "empty array": "[]",
  "array of objects": '[{"uid":"u"}]',
  null: "null",
  string: '"str"',
  number: "123",
  true: "true",
  "not JSON": "not json at all",
  "form text": "uid=u&email=fuzz%40example.com",
  "BOM then object": '\uFEFF{"uid":"u"}',
  "NUL then object": '\u0000{"uid":"u"}',
  "escaped NUL key": '{"\\u0000":1}',
  "prototype keys": '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}',
  "deep arrays": `${"[".repeat(depth)}${"]".repeat(depth)}`,
  "deep objects": `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`,
  "deep unclosed": "[".repeat(depth * 10),
  "deep mixed": `${'[{"a":'.repeat(depth / 2)}1${"}]".repeat(depth / 2)}`,
  "many keys": `{${Array.from({ length: 4000 }, (_, index) => `"k${index}":${index}`).join(",")}}`,
  "huge array": `[${"0,".repeat(25_000)}0]`,
};

/** Query values as they appear in a URL (already percent-encoded where needed). */
export const hostileQueryValues: Record<string, string> = {
  empty: "",
  word: "abc",
  "minus one": "-1",
  zero: "0",
  "negative zero": "-0",
  float: "1.5",
  "exponent 1e309": "1e309",
  "exponent 1e3": "1e3",
  NaN: "NaN",
  Infinity: "Infinity",
  hex: "0x10",
  "padded number": "%201%20",
  "30 digits": "123456789012345678901234567890",
  "above 2^53": "9007199254740993",
  nul: "fuzz%00x",
  "only NUL": "%00",
  controls: "%01%07%1B%7F",
  "CR LF": "a%0D%0Ab",
  "bidi override": "%E2%80%AEfuzz",
  "encoded lone surrogate (invalid UTF-8)": "%ED%A0%80",
  "invalid UTF-8 bytes": "%FF%FE%C3",
  emoji: encodeURIComponent(emoji),
  "combining marks": encodeURIComponent("Z̴̡̛̙a̷̢l̸̨g̷o̶̧"),
  "raw emoji": emoji,
  "lone percent": "%",
  "bad escape": "%zz",
  "double percent": "%%",
  "FTS5 syntax": encodeURIComponent('"* NEAR( OR'),
  "LIKE wildcards": "%25_%5C",
  "JSON-looking": encodeURIComponent('{"$gt":""}'),
  "huge ASCII": "a".repeat(hugeLength),
  "huge emoji": encodeURIComponent(emoji).repeat(hugeLength / 100),
};

/** Query strings broken in their structure rather than in one value. */
export function structuralQueries(names: string[]): Record<string, string> {
  const name = names[0] ?? "page";
  return {
    "repeated parameter": `${name}=1&${name}=2&${name}=x`,
    "bracket array": `${name}[]=1&${name}[]=2`,
    "bracket object": `${name}[a]=1&${name}[b][c]=2`,
    "prototype names": "__proto__[polluted]=1&constructor[prototype][x]=1&__proto__=1",
    "no value": name,
    "equals only": "=&==&&&",
    "encoded name": `${encodeURIComponent(name)}%00=1`,
    "many parameters": Array.from({ length: 2000 }, (_, index) => `p${index}=${index}`).join("&"),
  };
}

/** Path parameter values, percent-encoded as they would arrive in a URL. */
export const hostilePathValues: Record<string, string> = {
  zero: "0",
  "minus one": "-1",
  word: "abc",
  float: "1.5",
  "exponent 1e309": "1e309",
  "30 digits": "123456789012345678901234567890",
  nul: "%00",
  "bidi override": "%E2%80%AE",
  "invalid UTF-8": "%ED%A0%80",
  emoji: encodeURIComponent(emoji),
  "encoded slash": "..%2F..%2Fetc",
  "bad escape": "%zz",
  "huge ASCII": "a".repeat(8000),
};

const firstType = (schema: Schema) =>
  (Array.isArray(schema.type) ? schema.type.find((type) => type !== "null") : schema.type) ?? "string";

/** A plausible value for a field, so the other fields of a body get past validation. */
/** Whether a documented field takes free text (not a number, an enum or a constant). */
export function takesStrings(schema: Schema): boolean {
  if (schema.const !== undefined || schema.enum) return false;
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return options.some(takesStrings);
  // Elysia documents numeric strings as strings with a format.
  if (schema.format) return false;
  return schema.type === undefined || [schema.type].flat().includes("string");
}

export function plausibleValue(name: string, schema: Schema, known: Record<string, unknown>): unknown {
  if (name in known) return known[name];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const options = schema.anyOf ?? schema.oneOf ?? [];
  // Elysia documents numeric fields as "a numeric string or a number": prefer the plain form.
  const option = options.find((candidate) => !("format" in candidate)) ?? options[0];
  if (option) {
    const { anyOf: _any, oneOf: _one, ...constraints } = schema;
    return plausibleValue(name, { ...constraints, ...option }, known);
  }
  switch (firstType(schema)) {
    case "number":
    case "integer":
      return Math.min(Math.max(1, schema.minimum ?? 1), schema.maximum ?? 1);
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return {};
    default: {
      const candidates = ["fuzz@example.com", "2026-01-01", "1", "fuzz"];
      const pattern = schema.pattern ? new RegExp(schema.pattern) : undefined;
      const text = candidates.find((candidate) => !pattern || pattern.test(candidate)) ?? "fuzz";
      return text.padEnd(schema.minLength ?? 0, "z");
    }
  }
}

/** The JSON text of an object whose values are raw JSON texts (see hostileJsonValues). */
export function objectText(fields: Record<string, string>): string {
  return `{${Object.entries(fields)
    .map(([name, value]) => `${JSON.stringify(name)}:${value}`)
    .join(",")}}`;
}
