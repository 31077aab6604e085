/**
 * Replaces `{{name}}` placeholders; shared by the build-time translator and the islands' runtime.
 * A value that ends a sentence's abbreviation ("22 ноября 2026 г.") before the text's own
 * full stop gives one full stop, not two.
 */
export function interpolate(text: string, values: Record<string, string | number> = {}): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}(\.?)/g, (whole, name: string, stop: string) => {
    if (!(name in values)) return whole;
    const value = String(values[name]);
    return stop && value.endsWith(".") ? value : value + stop;
  });
}
