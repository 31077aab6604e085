/**
 * The little YAML the Clash format needs, written by hand instead of shipping a YAML
 * library for one document: block mappings and sequences of plain values. Every string
 * is written double-quoted in JSON's escaping, which YAML's double-quoted style reads the
 * same way, so no name (a colon, a "#", a leading "-", "yes") can change the structure.
 */
export type YamlValue = string | number | boolean | YamlValue[] | { [key: string]: YamlValue | undefined };

const scalar = (value: string | number | boolean) =>
  typeof value === "string" ? JSON.stringify(value) : String(value);

const isScalar = (value: YamlValue): value is string | number | boolean => typeof value !== "object";

/** A key as written: plain when it is a safe word, quoted otherwise. */
const keyOf = (key: string) => (/^[A-Za-z][A-Za-z0-9_-]*$/.test(key) ? key : JSON.stringify(key));

function lines(value: YamlValue, indent: string): string[] {
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${indent}[]`];
    return value.flatMap((item) => {
      if (isScalar(item)) return [`${indent}- ${scalar(item)}`];
      const [first, ...rest] = lines(item, `${indent}  `);
      if (first === undefined) return [`${indent}- ${Array.isArray(item) ? "[]" : "{}"}`];
      return [`${indent}- ${first.trimStart()}`, ...rest];
    });
  }
  if (isScalar(value)) return [`${indent}${scalar(value)}`];
  const out: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined) continue;
    if (isScalar(child)) out.push(`${indent}${keyOf(key)}: ${scalar(child)}`);
    else if (Array.isArray(child) && child.length === 0) out.push(`${indent}${keyOf(key)}: []`);
    else if (!Array.isArray(child) && Object.keys(child).length === 0) out.push(`${indent}${keyOf(key)}: {}`);
    else out.push(`${indent}${keyOf(key)}:`, ...lines(child, `${indent}  `));
  }
  return out;
}

/** A YAML document of `value` (a mapping at the top). */
export function yamlDocument(value: { [key: string]: YamlValue | undefined }): string {
  return `${lines(value, "").join("\n")}\n`;
}
