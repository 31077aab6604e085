import { isoTime } from "../../../core/date-time";
import type { Database } from "../../../db/database";
import { savedCards } from "../../../db/queries/saved-cards";

/** The saved card as the cabinet and the panel show it. */
export async function cardView(database: Database, userId: number) {
  const state = await savedCards.stateOf(database, userId);
  return { ...state, removedAt: isoTime(state.removedAt) };
}
