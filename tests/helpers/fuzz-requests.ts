/**
 * The requests of the every-route fuzz test (tests/bff/api/fuzz-every-route.test.ts), built
 * from a route's entry in the OpenAPI document; credentials are added by the test.
 */
import {
  hostileQueryValues,
  hostileStringValues,
  malformedJsonBodies,
  mistypedJsonValues,
  objectText,
  plausibleValue,
  type Schema,
  seedOf,
  structuralQueries,
  takesStrings,
} from "./fuzz-inputs";
import { seededRandom } from "./seeded-random";

const bodyLimit = 64 * 1024;
const genericQueryNames = ["page", "size", "id", "userId", "emailPart"];
// A stack frame ("at fn (/x/y.ts:1:2)") or a source location anywhere in an answer.
const stackTrace = /\bat\s+\S+\s+\(|\n\s+at\s|\.(?:[cm]?[jt]sx?):\d|node_modules|\/work\//;

export type Parameter = { name: string; in: string; required?: boolean; schema?: Schema };
export type Operation = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};
export type OpenApiDocument = { paths: Record<string, Record<string, Operation>> };
export type Route = { method: string; path: string; operation: Operation };

/** One request's variable part; credentials are added per variant. */
export type Input = {
  label: string;
  body?: string | Uint8Array<ArrayBuffer> | FormData;
  contentType?: string | null;
  query?: string;
  path?: string;
  headers?: Record<string, string>;
};

export const bodySchemaOf = (route: Route) =>
  route.operation.requestBody?.content?.["application/json"]?.schema;

const pick = (values: Record<string, string>, labels: string[]) =>
  Object.fromEntries(labels.map((label) => [label, values[label] ?? "null"]));

/**
 * Bodies for a route: malformed JSON, the documented fields with one wrong at a time,
 * all wrong at once, seeded random mixes, and other content types. A route that reads
 * a body without documenting it is sent `fallbackNames`, every field name the document knows.
 */
export function bodyInputs(route: Route, known: Record<string, unknown>, fallbackNames: string[]): Input[] {
  const schema = bodySchemaOf(route);
  const properties = schema?.properties ?? Object.fromEntries(fallbackNames.map((name) => [name, {}]));
  const names = Object.keys(properties);
  const base = Object.fromEntries(
    names.map((name) => [name, JSON.stringify(plausibleValue(name, properties[name] ?? {}, known))]),
  );
  const json = (label: string, body: string): Input => ({ label, body, contentType: "application/json" });
  const inputs: Input[] = Object.entries(malformedJsonBodies).map(([label, body]) => json(label, body));
  inputs.push(json("plausible body", objectText(base)), json("no fields", "{}"));
  inputs.push(json("duplicate keys", `${objectText(base).slice(0, -1)},${objectText(base).slice(1)}`));
  inputs.push(
    json(
      "duplicate keys, second mistyped",
      `${objectText(base).slice(0, -1)},${names.map((name) => `"${name}":{}`).join(",")}}`,
    ),
  );
  const everyValue = { ...mistypedJsonValues, ...hostileStringValues };
  for (const [label, value] of Object.entries(everyValue))
    inputs.push(
      json(`every field = ${label}`, objectText(Object.fromEntries(names.map((name) => [name, value])))),
    );
  // Field by field only where the document names the fields; the fallback list is too long for that.
  // Hostile text only gets past validation in a text field; elsewhere a few samples show it is refused.
  for (const name of schema ? names : []) {
    const values = takesStrings(properties[name] ?? {})
      ? everyValue
      : { ...mistypedJsonValues, ...pick(hostileStringValues, ["nul", "emoji", "huge ASCII"]) };
    for (const [label, value] of Object.entries(values))
      inputs.push(json(`${name} = ${label}`, objectText({ ...base, [name]: value })));
  }
  for (const name of schema ? names : []) {
    const { [name]: _, ...rest } = base;
    inputs.push(json(`without ${name}`, objectText(rest)));
  }
  const random = seededRandom(seedOf(`${route.method} ${route.path}`));
  const values = Object.values(everyValue);
  for (let index = 0; index < 12; index++) {
    const mixed = Object.fromEntries(
      names.map((name) => [
        name,
        random() < 0.5 ? (base[name] ?? "null") : (values[Math.floor(random() * values.length)] ?? "null"),
      ]),
    );
    inputs.push(json(`random mix #${index}`, objectText(mixed)));
  }
  // Huge values in every field at once would exceed the 64 KB body limit, which is another test's subject.
  const fitsTheLimit = (input: Input) =>
    typeof input.body !== "string" || new TextEncoder().encode(input.body).length <= bodyLimit;
  return [...inputs, ...contentTypeInputs(names, base)].filter(fitsTheLimit);
}

/** JSON routes sent forms, plain text, other types or no type at all. */
function contentTypeInputs(names: string[], base: Record<string, string>): Input[] {
  const plain = Object.fromEntries(names.map((name) => [name, String(JSON.parse(base[name] ?? '""'))]));
  const form = new URLSearchParams(plain).toString();
  const jsonText = objectText(base);
  const multipart = new FormData();
  for (const name of names) multipart.append(name, plain[name] ?? "");
  const files = new FormData();
  for (const name of names) files.append(name, new Blob(["\u0000fuzz"]), "fuzz.bin");
  const bytes = (text: string) => new TextEncoder().encode(text);
  return [
    { label: "form", body: form, contentType: "application/x-www-form-urlencoded" },
    {
      label: "form with hostile values",
      body: `${names.map((name) => `${name}=%00%E2%80%AE%ED%A0%80%zz&${name}[]=1&${name}[a]=2`).join("&")}`,
      contentType: "application/x-www-form-urlencoded",
    },
    {
      label: "form with a huge value",
      body: `${names[0] ?? "a"}=${"a".repeat(60_000)}`,
      contentType: "application/x-www-form-urlencoded",
    },
    { label: "form text as JSON", body: form, contentType: "application/json" },
    { label: "JSON as form", body: jsonText, contentType: "application/x-www-form-urlencoded" },
    { label: "JSON as text/plain", body: jsonText, contentType: "text/plain" },
    { label: "JSON without content type", body: bytes(jsonText), contentType: null },
    { label: "JSON as XML", body: jsonText, contentType: "application/xml" },
    { label: "JSON as octet-stream", body: jsonText, contentType: "application/octet-stream" },
    { label: "JSON as multipart without boundary", body: jsonText, contentType: "multipart/form-data" },
    { label: "multipart fields", body: multipart },
    { label: "multipart files", body: files },
    { label: "JSON with parameters", body: jsonText, contentType: 'application/json; charset=utf-16; x="' },
    { label: "JSON type in capitals", body: jsonText, contentType: "APPLICATION/JSON" },
    { label: "vendor JSON type", body: jsonText, contentType: "application/vnd.api+json" },
    { label: "garbage content type", body: jsonText, contentType: ";;;=,/" },
    {
      label: "invalid UTF-8",
      body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0xc3, 0x7d]),
      contentType: "application/json",
    },
    {
      label: "UTF-16 bytes",
      body: new Uint8Array(Buffer.from(jsonText, "utf16le")),
      contentType: "application/json",
    },
  ];
}

/** Hostile values for the route's documented query parameters and for page, size, id, userId, emailPart. */
export function queryInputs(
  route: Route,
  known: Record<string, unknown>,
  customer: { userId: number },
): Input[] {
  const declared = (route.operation.parameters ?? []).filter((parameter) => parameter.in === "query");
  const plausible: Record<string, unknown> = {
    page: 0,
    id: customer.userId,
    userId: customer.userId,
    ...known,
  };
  const base = Object.fromEntries(
    declared
      .filter((parameter) => parameter.required || parameter.name in plausible)
      .map((parameter) => [
        parameter.name,
        String(plausibleValue(parameter.name, parameter.schema ?? {}, plausible)),
      ]),
  );
  const withValue = (fields: Record<string, string>) =>
    Object.entries(fields)
      .map(([name, value]) => `${encodeURIComponent(name)}=${value}`)
      .join("&");
  const encodedBase = Object.fromEntries(
    Object.entries(base).map(([name, value]) => [name, encodeURIComponent(value)]),
  );
  const inputs: Input[] = [{ label: "plausible query", query: withValue(encodedBase) }];
  const allNames = [...new Set([...declared.map((parameter) => parameter.name), ...genericQueryNames])];
  for (const [label, value] of Object.entries(hostileQueryValues)) {
    inputs.push({
      label: `query: every parameter = ${label}`,
      query: withValue(Object.fromEntries(allNames.map((name) => [name, value]))),
    });
    for (const { name } of declared)
      inputs.push({
        label: `query: ${name} = ${label}`,
        query: withValue({ ...encodedBase, [name]: value }),
      });
  }
  for (const [label, query] of Object.entries(structuralQueries(allNames)))
    inputs.push({ label: `query: ${label}`, query: `${withValue(encodedBase)}&${query}` });
  return inputs;
}

/** Broken credentials and proxy headers, sent without valid ones. */
export const headerInputs: Input[] = [
  ["cookie", "kannt_session="],
  ["cookie", "kannt_session=a.b.c"],
  ["cookie", "kannt_session=%ZZ; kannt_session=..; lang=%00"],
  ["cookie", `kannt_session=${"x".repeat(8000)}.${"y".repeat(8000)}`],
  ["cookie", ";;;=;=="],
  ["authorization", "Bearer "],
  ["authorization", "Bearer a.b.c"],
  ["authorization", "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIiwicm9sZSI6ImFkbWluIn0."],
  ["authorization", `Bearer ${"x".repeat(8000)}`],
  ["authorization", "Basic !!!"],
  ["authorization", `Basic ${btoa(":")}`],
  ["authorization", "OAuth \u00ff\u00fe"],
  ["x-node-key", "x".repeat(8000)],
  ["content-hmac", "!!!"],
  ["x-content-hmac", "=".repeat(100)],
  ["origin", "null"],
  ["sec-fetch-site", "cross-site"],
  ["x-forwarded-for", ":::,,,%00"],
  ["x-forwarded-for", "1.1.1.1,".repeat(1000)],
  ["accept-language", "zz-ZZ;q=abc,*;q=-1,\u00e9"],
].map(([name = "", value = ""]) => ({
  label: `header ${name}: ${value.slice(0, 40)}`,
  headers: { [name]: value },
}));

const isTextual = (type: string) => /json|text\/plain/.test(type);

/** What is wrong with an answer, or undefined when it is an acceptable answer to bad input. */
export async function problemWith(response: Response): Promise<string | undefined> {
  const type = response.headers.get("content-type") ?? "";
  if (response.status < 500 && !isTextual(type)) {
    await response.body?.cancel();
    return undefined;
  }
  const text = await response.text();
  if (response.status >= 500) return `status ${response.status}: ${text.slice(0, 200)}`;
  if (type.includes("json")) {
    try {
      JSON.parse(text);
    } catch {
      return `status ${response.status} with a body that is not JSON: ${text.slice(0, 120)}`;
    }
  }
  if (stackTrace.test(text)) return `status ${response.status} shows internals: ${text.slice(0, 200)}`;
  return undefined;
}
