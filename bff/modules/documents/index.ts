import { Elysia } from "elysia";
import { renderOfferPdf } from "./offer-pdf";

let cachedOffer: Promise<Uint8Array<ArrayBuffer>> | undefined;

/** Public documents; the offer PDF is rendered once per process from the same text as /offer. */
export function documentsModule() {
  return new Elysia({ prefix: "/get/docs", tags: ["documents"] }).get(
    "/oferta_kannt.pdf",
    async () => {
      cachedOffer ??= renderOfferPdf();
      return new Response(await cachedOffer, {
        headers: {
          "content-type": "application/pdf",
          "content-disposition": 'inline; filename="oferta_kannt.pdf"',
          "cache-control": "public, max-age=3600",
        },
      });
    },
    { detail: { summary: "The public offer as a PDF (in Russian)" } },
  );
}
