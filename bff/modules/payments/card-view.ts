import type { Database } from "../../../db/database";
import { savedCards } from "../../../db/queries/saved-cards";

const iso = (time: number | null | undefined) => (time ? new Date(time).toISOString() : null);

/** The saved card as the cabinet and the panel show it. */
export async function cardView(database: Database, userId: number) {
  const state = await savedCards.stateOf(database, userId);
  return { ...state, removedAt: iso(state.removedAt) };
}
