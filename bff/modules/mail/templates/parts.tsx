import { Button, Link, Text } from "@react-email/components";
import type { ReactNode } from "react";

/** Colours and type shared by the layout and the parts; inline, since mail clients drop style sheets. */
export const palette = {
  ink: "#111827",
  muted: "#6b7280",
  soft: "#f6f7f9",
  brand: "#0b1020",
};

const paragraph = { fontSize: "15px", lineHeight: "24px", color: palette.ink, margin: "0 0 16px" };

export function Paragraph({ children }: { children: ReactNode }) {
  return <Text style={paragraph}>{children}</Text>;
}

export type Fact = readonly [label: string, value: string];

/**
 * The facts a mail states, as label and value side by side. The rows carry data attributes
 * so the plain text writes each one on its own line as "label: value" (see render.ts).
 */
export function Facts({ facts }: { facts: readonly Fact[] }) {
  return (
    <table
      role="presentation"
      width="100%"
      cellPadding={0}
      cellSpacing={0}
      border={0}
      style={{ backgroundColor: palette.soft, borderRadius: "8px", margin: "0 0 20px" }}
    >
      <tbody>
        {facts.map(([label, value]) => (
          <tr key={label} data-fact="row">
            <td
              data-fact="label"
              style={{
                padding: "8px 16px",
                fontSize: "14px",
                color: palette.muted,
                width: "42%",
                verticalAlign: "top",
              }}
            >
              {label}
            </td>
            <td
              data-fact="value"
              style={{
                padding: "8px 16px",
                fontSize: "15px",
                color: palette.ink,
                fontWeight: 600,
                verticalAlign: "top",
              }}
            >
              {value}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The mail's main action. Left out of the plain text, which writes the same address out
 * with its label (WrittenLink, or the cabinet line every mail ends with).
 */
export function ActionButton({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Text style={{ margin: "4px 0 20px" }} data-skip-in-text="true">
      <Button
        href={href}
        style={{
          backgroundColor: palette.brand,
          color: "#ffffff",
          fontSize: "15px",
          fontWeight: 600,
          borderRadius: "8px",
          padding: "12px 20px",
        }}
      >
        {children}
      </Button>
    </Text>
  );
}

/** An address written out in full, for clients that hide buttons and for the plain text. */
export function WrittenLink({ label, href, colon }: { label: string; href: string; colon: string }) {
  return (
    <Text style={{ ...paragraph, fontSize: "14px", color: palette.muted, wordBreak: "break-all" }}>
      {label}
      {colon}
      <Link href={href} style={{ color: palette.ink, textDecoration: "underline" }}>
        {href}
      </Link>
    </Text>
  );
}
