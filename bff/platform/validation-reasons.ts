import { type TranslationKey, translator } from "../../core/i18n";
import type { Language } from "../../core/languages";

/** One failure of a request's schema, as the validator reports it (TypeBox's ValueError, passed on by Elysia). */
export type SchemaFailure = { path?: string; value?: unknown; schema?: unknown };

/** Why a value was refused, as core/i18n `validation.*` words it. */
export type Reason = { key: TranslationKey; values?: Record<string, string | number> };

type Schema = {
  type?: unknown;
  const?: unknown;
  anyOf?: unknown;
  format?: unknown;
  pattern?: unknown;
  minLength?: unknown;
  maxLength?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  exclusiveMinimum?: unknown;
  exclusiveMaximum?: unknown;
  minItems?: unknown;
  maxItems?: unknown;
};

const numberIn = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);
const asSchema = (value: unknown): Schema => (typeof value === "object" && value !== null ? value : {});

/** "must be a whole number from 1 to 12": what kind of number, and its bounds when it has both. */
function numberKind(schema: Schema, isWhole: boolean): Reason {
  const min = numberIn(schema.minimum);
  const max = numberIn(schema.maximum);
  if (min !== undefined && max !== undefined)
    return { key: isWhole ? "validation.wholeNumberRange" : "validation.numberRange", values: { min, max } };
  return { key: isWhole ? "validation.wholeNumber" : "validation.number" };
}

function numberReason(schema: Schema, value: unknown, isWhole: boolean): Reason {
  if (typeof value !== "number" || !Number.isFinite(value) || (isWhole && !Number.isInteger(value)))
    return numberKind(schema, isWhole);
  const bounds: [unknown, (limit: number) => boolean, TranslationKey][] = [
    [schema.minimum, (limit) => value < limit, "validation.atLeast"],
    [schema.exclusiveMinimum, (limit) => value <= limit, "validation.above"],
    [schema.maximum, (limit) => value > limit, "validation.atMost"],
    [schema.exclusiveMaximum, (limit) => value >= limit, "validation.below"],
  ];
  for (const [limit, isBroken, key] of bounds)
    if (typeof limit === "number" && isBroken(limit)) return { key, values: { limit } };
  return { key: "validation.invalid" };
}

function stringReason(schema: Schema, value: unknown): Reason {
  if (typeof value !== "string") return { key: "validation.text" };
  const min = numberIn(schema.minLength);
  const max = numberIn(schema.maxLength);
  if (min !== undefined && value.length < min) return { key: "validation.shortest", values: { count: min } };
  if (max !== undefined && value.length > max) return { key: "validation.longest", values: { count: max } };
  return {
    key:
      schema.pattern !== undefined || schema.format !== undefined ? "validation.form" : "validation.invalid",
  };
}

function listReason(schema: Schema, value: unknown): Reason {
  if (!Array.isArray(value)) return { key: "validation.list" };
  const min = numberIn(schema.minItems);
  const max = numberIn(schema.maxItems);
  if (min !== undefined && value.length < min)
    return { key: "validation.fewestItems", values: { count: min } };
  if (max !== undefined && value.length > max) return { key: "validation.mostItems", values: { count: max } };
  return { key: "validation.invalid" };
}

/** Elysia's numbers from text (`t.Integer`, `t.Numeric`) are a number or a string of one. */
const isNumeric = (member: Schema) =>
  member.type === "integer" ||
  member.type === "number" ||
  (member.type === "string" && (member.format === "integer" || member.format === "numeric"));

/** Either of several kinds: named values ("must be one of: a, b"), a number as such, or just invalid. */
function unionReason(schema: Schema, value: unknown): Reason {
  const members = (Array.isArray(schema.anyOf) ? schema.anyOf : []).map(asSchema);
  if (members.length > 0 && members.every((member) => "const" in member))
    return {
      key: "validation.oneOf",
      values: { values: members.map((member) => String(member.const)).join(", ") },
    };
  if (members.length === 0 || !members.every(isNumeric)) return { key: "validation.invalid" };
  const isWhole = members.some((member) => member.type === "integer" || member.format === "integer");
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  const bounded = members.find((member) => member.type === "integer" || member.type === "number") ?? {};
  return numberReason({ ...bounded, ...schema }, number, isWhole);
}

/**
 * Why the validator refused a value, in words of every interface language rather than the
 * validator's English. Read from the schema and the value, not from the validator's own
 * error numbers, which are another library's to change.
 */
export function reasonOf(failure: SchemaFailure): Reason {
  const schema = asSchema(failure.schema);
  const { value } = failure;
  if (value === undefined) return { key: "validation.missing" };
  if (Array.isArray(schema.anyOf)) return unionReason(schema, value);
  if ("const" in schema) return { key: "validation.oneOf", values: { values: String(schema.const) } };
  switch (schema.type) {
    case "string":
      return stringReason(schema, value);
    case "integer":
    case "number":
      return numberReason(schema, value, schema.type === "integer");
    case "boolean":
      return { key: "validation.yesOrNo" };
    case "array":
      return listReason(schema, value);
    case "object":
      return {
        key: typeof value === "object" && value !== null ? "validation.invalid" : "validation.object",
      };
    default:
      return { key: "validation.invalid" };
  }
}

/** A reason in `language`; `subject` puts it in a sentence of its own when no field is named ("A value must…"). */
export function reasonWords(reason: Reason, language: Language, subject = false): string {
  const t = translator(language);
  const words = t(reason.key, reason.values);
  return subject ? t("validation.value", { reason: words }) : words;
}
