/** CLDR's plural categories in their fixed order: a text lists its forms in this order. */
const categoryOrder: readonly Intl.LDMLPluralRule[] = ["zero", "one", "two", "few", "many", "other"];

function pluralForm(language: string, count: number, forms: string[]): string {
  const rules = new Intl.PluralRules(language);
  const categories = rules.resolvedOptions().pluralCategories;
  const index = categoryOrder
    .filter((category) => categories.includes(category))
    .indexOf(rules.select(count));
  return forms[Math.min(Math.max(index, 0), forms.length - 1)] ?? "";
}

/**
 * `{{count|form|…}}` in a catalogue text is the word that goes with the number `count` in
 * `language`, its forms given for the language's plural categories in CLDR order: English
 * one, other (`{{minutes|minute|minutes}}`); Russian one, few, many, then other, which falls
 * back to the last form given ("1 минуту", "3 минуты", "60 минут"). Both `translator` (the
 * server's answers, prerendered pages) and the islands' runtime apply it. Without the number
 * the placeholder stays visible, like any other.
 */
export function withPluralForms(
  text: string,
  values: Record<string, string | number> = {},
  language = "en",
): string {
  return text.replace(/\{\{\s*(\w+)\s*((?:\|[^|{}]*)+)\}\}/g, (whole, name: string, forms: string) => {
    const count = Number(values[name]);
    return name in values && Number.isFinite(count)
      ? pluralForm(language, count, forms.slice(1).split("|"))
      : whole;
  });
}
