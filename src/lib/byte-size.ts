const units = ["kilobyte", "megabyte", "gigabyte", "terabyte"] as const;

/**
 * Traffic as people read it, in their language: "1.2 GB", "1,2 ГБ". Decimal units, as
 * carriers and the client apps count them; never below kilobytes, so a device that used
 * nothing reads "0 kB" rather than a count of bytes.
 */
export function formatBytes(bytes: number, language: string): string {
  let value = Math.max(0, bytes) / 1000;
  let unit = 0;
  while (value >= 999.5 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return new Intl.NumberFormat(language, {
    style: "unit",
    unit: units[unit],
    maximumFractionDigits: value < 10 ? 1 : 0,
  }).format(value);
}
