import { Body, Container, Head, Heading, Html, Link, Preview, Section, Text } from "@react-email/components";
import type { ReactNode } from "react";
import { company } from "../../../../core/company";
import type { Language } from "../../../../core/languages";
import type { MailLinks } from "../kinds";
import type { MailWords } from "../mail-words";
import { palette, WrittenLink } from "./parts";

type LayoutProps = {
  language: Language;
  subject: string;
  preview: string;
  heading: string;
  words: MailWords;
  links: MailLinks;
  /** The seller's line as the site's footer writes it (footer.company). */
  companyLine: string;
  children: ReactNode;
};

const fontFamily =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "PingFang SC", "Microsoft YaHei", Arial, sans-serif';
const small = { fontSize: "12px", lineHeight: "18px", color: palette.muted, margin: "0 0 8px" };

/** Every mail: the heading, its facts, the cabinet written out, and why and from whom it comes. */
export function MailLayout({
  language,
  subject,
  preview,
  heading,
  words,
  links,
  companyLine,
  children,
}: LayoutProps) {
  return (
    <Html lang={language} dir="ltr">
      <Head>
        <title>{subject}</title>
      </Head>
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: "#f3f4f6", margin: 0, padding: "24px 0", fontFamily }}>
        <Container style={{ maxWidth: "560px", padding: "0 12px" }}>
          <Text style={{ fontSize: "20px", fontWeight: 700, color: palette.brand, margin: "0 0 12px" }}>
            {company.productName}
          </Text>
          <Section style={{ backgroundColor: "#ffffff", borderRadius: "12px", padding: "28px 28px 12px" }}>
            <Heading
              as="h1"
              style={{ fontSize: "22px", lineHeight: "30px", color: palette.ink, margin: "0 0 16px" }}
            >
              {heading}
            </Heading>
            {children}
            <WrittenLink
              label={words.t("mail.common.cabinetLink")}
              href={links.cabinetUrl}
              colon={words.colon}
            />
          </Section>
          <Section style={{ padding: "16px 4px 0" }}>
            <Text style={small}>{words.t("mail.common.why")}</Text>
            <Text style={small}>
              {words.t("mail.common.questions")}{" "}
              <Link href={`mailto:${company.supportEmail}`} style={{ color: palette.muted }}>
                {company.supportEmail}
              </Link>
            </Text>
            <Text style={small}>{companyLine}</Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}
