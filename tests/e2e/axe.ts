import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

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
