import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import PDFDocument from "pdfkit";
import { offerEffectiveDate, offerSections, offerTitle } from "../../../core/offer";

const require = createRequire(import.meta.url);
// DejaVu covers Cyrillic; the PDF standard fonts do not.
const fontDirectory = join(dirname(require.resolve("dejavu-fonts-ttf/package.json")), "ttf");
const regularFont = join(fontDirectory, "DejaVuSans.ttf");
const boldFont = join(fontDirectory, "DejaVuSans-Bold.ttf");

/** Renders the public offer to PDF bytes; the caller caches the result. */
export function renderOfferPdf(): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const document = new PDFDocument({
      size: "A4",
      margin: 56,
      info: { Title: offerTitle, Subject: offerEffectiveDate },
    });
    const chunks: Buffer[] = [];
    document.on("data", (chunk: Buffer) => chunks.push(chunk));
    document.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    document.on("error", reject);

    document.registerFont("regular", regularFont);
    document.registerFont("bold", boldFont);
    document.font("bold").fontSize(16).text(offerTitle, { align: "center" });
    document.moveDown(0.3).font("regular").fontSize(10).text(offerEffectiveDate, { align: "center" });
    for (const section of offerSections) {
      document.moveDown(1).font("bold").fontSize(12).text(section.heading);
      for (const paragraph of section.paragraphs) {
        document.moveDown(0.4).font("regular").fontSize(10.5).text(paragraph, { align: "justify" });
      }
    }
    document.end();
  });
}
