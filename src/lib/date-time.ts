import { formatDate } from "./format";

/** "21 November 2026, 17:05" in the interface language (24-hour time, the browser's zone). */
export function formatDateTime(iso: string, language: string): string {
  const time = new Intl.DateTimeFormat(language, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  return `${formatDate(iso, language)}, ${time.format(new Date(iso))}`;
}
