/**
 * Reading one environment variable into a value. Every setting of the server goes through
 * these (config.ts), so a value that is not what the variable takes stops the start with
 * one kind of sentence: the variable's name, what it accepts, and what was given.
 */

export type Environment = Readonly<Record<string, string | undefined>>;

/** The variable's text, trimmed; blank counts as unset (an empty line of an env file). */
export function textOf(environment: Environment, name: string): string | undefined {
  const value = environment[name]?.trim();
  return value ? value : undefined;
}

/** `NAME must be {accepts}, got "{raw}".` — the one wording of a refused value. */
export function refuse(name: string, accepts: string, raw: string): never {
  throw new Error(`${name} must be ${accepts}, got "${raw}".`);
}

export type WholeNumberRule = {
  min: number;
  max: number;
  /** The value when the variable is unset. */
  fallback: number;
  /** What one counts, for the message: "days", "seconds". */
  unit?: string;
  /** A word on a value with a special meaning, for the message: "0 turns it off". */
  note?: string;
};

/**
 * Decimal digits only: `Number()` would also take "1e3", "0x10" or "1.0", and a unit
 * written after the number ("1m", "90d") must be refused, not read as something else.
 */
export function wholeNumber(name: string, raw: string | undefined, rule: WholeNumberRule): number {
  if (raw === undefined) return rule.fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (value >= rule.min && value <= rule.max) return value;
  const unit = rule.unit ? ` of ${rule.unit}` : "";
  const note = rule.note ? ` (${rule.note})` : "";
  return refuse(name, `a whole number${unit} from ${rule.min} to ${rule.max}${note}`, raw);
}

/** A retention period: whole days from 1 to 3650 (ten years). */
export function days(name: string, raw: string | undefined, fallback: number): number {
  return wholeNumber(name, raw, { min: 1, max: 3650, fallback, unit: "days" });
}

/**
 * One of a fixed list, written exactly as listed (numbers as their digits). `accepts`
 * says the list in words, with what each value means where that helps.
 */
export function oneOf<Value extends string | number, Fallback = Value>(
  name: string,
  raw: string | undefined,
  values: readonly Value[],
  rule: { fallback: Fallback; accepts: string },
): Value | Fallback {
  if (raw === undefined) return rule.fallback;
  const value = values.find((candidate) => String(candidate) === raw);
  return value ?? refuse(name, rule.accepts, raw);
}

const yes = ["1", "true", "yes", "on"];
const no = ["0", "false", "no", "off"];

/** A switch: 1, true, yes or on; 0, false, no or off (any letter case). */
export function flag(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined) return fallback;
  const word = raw.toLowerCase();
  if (yes.includes(word)) return true;
  if (no.includes(word)) return false;
  return refuse(name, "1, true, yes or on, or 0, false, no or off", raw);
}
