import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { drawn } from "./drawn";

/** The WCAG 2.0, 2.1 and 2.2 level A and AA rules: the bar the issue sets for every screen. */
export const wcagTags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

export type Finding = {
  rule: string;
  impact: string;
  help: string;
  selector: string;
  /** The element's opening markup, for when the selector alone is not telling ("div"). */
  html: string;
  summary: string;
};

/** axe-core over the whole page as drawn now; one finding per rule and element. */
export async function axeFindings(page: Page): Promise<Finding[]> {
  const result = await new AxeBuilder({ page }).withTags(wcagTags).analyze();
  return result.violations.flatMap((violation) =>
    violation.nodes.map((node) => ({
      rule: violation.id,
      impact: node.impact ?? violation.impact ?? "unknown",
      help: violation.help,
      selector: node.target.map(String).join(" >> "),
      html: node.html.slice(0, 160),
      summary: (node.failureSummary ?? "").replace(/\s+/g, " ").trim(),
    })),
  );
}

/** Serious and critical findings block; moderate and minor ones are reported only. */
export const isBlocking = (finding: Finding) => finding.impact === "serious" || finding.impact === "critical";

/** One readable line per finding, for a failing test's message. */
export const describeFinding = (finding: Finding) =>
  `[${finding.impact}] ${finding.rule} at ${finding.selector} ${finding.html}: ${finding.help}. ${finding.summary}`;

/**
 * Serious and critical findings on the page as it is, at 1440 px and then at a phone's
 * 390 px (a phone's width changes what overflows and scrolls: scroll areas must take focus).
 */
export async function blockingAtBothWidths(page: Page): Promise<Finding[]> {
  await page.setViewportSize({ width: 1440, height: 900 });
  await drawn(page);
  const wide = (await axeFindings(page)).filter(isBlocking);
  await page.setViewportSize({ width: 390, height: 844 });
  await drawn(page);
  const narrow = (await axeFindings(page)).filter(isBlocking);
  return [
    ...wide.map((finding) => ({ ...finding, selector: `${finding.selector} (1440 px)` })),
    ...narrow.map((finding) => ({ ...finding, selector: `${finding.selector} (390 px)` })),
  ];
}

/**
 * Which languages a screen's accessibility is checked in: public pages differ per language
 * (their text is built into the HTML), so all four; the app screens share one markup
 * whatever the language, so Russian, the default audience's.
 */
export const checksAccessibilityIn = (area: string, language: string) =>
  area === "public" || language === "ru";
