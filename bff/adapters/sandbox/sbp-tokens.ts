import type { Database } from "bun:sqlite";
import { ledgerSbpTokens, type SbpAccountBehaviour } from "../../../db/queries/sandbox-ledger-sbp";
import type { Clock } from "../../platform/clock";
import { randomToken } from "../../platform/random";

export type { SbpAccountBehaviour };

export const sbpAccountBehaviours = [
  "ok",
  "declinesLater",
  "revoked",
  "silent",
] as const satisfies readonly SbpAccountBehaviour[];

/**
 * SBP autopay bindings: a QR paid with SaveCard leaves one, and the shop charges it through
 * the same token charge as a card. The payer chose on the bank page how their bank answers
 * those later charges (`behaviour`), the SBP counterpart of the test cards.
 */
export function createSbpTokenBook(ledger: Database, clock: Clock) {
  return {
    create(accountId: string, behaviour: SbpAccountBehaviour, qrId: string): string {
      // Its own prefix: one look at a token tells a card's (tk_) from an SBP binding's.
      const token = `sbp_${randomToken(18)}`;
      ledgerSbpTokens.insert(ledger, {
        token,
        account_id: accountId,
        behaviour,
        qr_id: qrId,
        created_at: clock.now(),
      });
      return token;
    },

    byToken(token: string) {
      return ledgerSbpTokens.byToken(ledger, token) ?? undefined;
    },
  };
}

export type SbpTokenBook = ReturnType<typeof createSbpTokenBook>;
