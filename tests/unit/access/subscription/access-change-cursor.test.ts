import { describe, expect, test } from "vitest";
import {
  advanceCursor,
  gapSettleMs,
} from "../../../../bff/modules/access/subscription/allowlist/change-cursor";

/** DESIGN §8: an agent's cursor over the allow-list's change log never skips a change. */
const wallNow = 1_800_000_000_000;
const recent = wallNow - 1_000;
const settled = wallNow - gapSettleMs - 1;
const rows = (...entries: [number, number][]) =>
  entries.map(([version, changedAt]) => ({ version, changed_at: changedAt }));

describe("the allow-list cursor", () => {
  test("moves to the last of versions that follow each other", () => {
    expect(advanceCursor(4, rows([5, recent], [6, recent], [7, recent]), wallNow)).toBe(7);
  });

  test("stays where it is when nothing is new", () => {
    expect(advanceCursor(9, [], wallNow)).toBe(9);
  });

  test("stops before a gap that may still fill: a transaction still open holds that version", () => {
    // 6 was handed out and not committed yet, 7 and 8 were: the agent may not pass 5.
    expect(advanceCursor(4, rows([5, recent], [7, recent], [8, recent]), wallNow)).toBe(5);
    expect(advanceCursor(4, rows([6, recent]), wallNow)).toBe(4);
  });

  test("passes a gap whose next row was written more than 30 s ago: that transaction rolled back", () => {
    expect(advanceCursor(4, rows([5, recent], [7, settled], [8, recent]), wallNow)).toBe(8);
    expect(advanceCursor(4, rows([6, wallNow - gapSettleMs]), wallNow)).toBe(4);
    expect(advanceCursor(4, rows([6, wallNow - gapSettleMs - 1]), wallNow)).toBe(6);
  });

  test("stops at the first recent gap even when older ones were passed", () => {
    expect(advanceCursor(0, rows([2, settled], [3, settled], [5, recent], [6, recent]), wallNow)).toBe(3);
  });

  test("never moves back: rows at or below the cursor, sent again, are skipped", () => {
    expect(advanceCursor(7, rows([5, recent], [7, recent], [8, recent]), wallNow)).toBe(8);
    expect(advanceCursor(7, rows([3, recent]), wallNow)).toBe(7);
  });

  test("passes a recent gap once every transaction still open began after the next row (PostgreSQL)", () => {
    const gapBefore7 = rows([5, recent], [7, recent], [8, recent]);
    // A transaction open since before 7 took its version may hold 6: wait.
    expect(advanceCursor(4, gapBefore7, wallNow, recent - 5)).toBe(5);
    expect(advanceCursor(4, gapBefore7, wallNow, recent + 1)).toBe(5);
    // Every open one began later (or none is open): 6 rolled back.
    expect(advanceCursor(4, gapBefore7, wallNow, recent + 2)).toBe(8);
    expect(advanceCursor(4, gapBefore7, wallNow, Number.POSITIVE_INFINITY)).toBe(8);
    // Unknown (SQLite): only time settles it.
    expect(advanceCursor(4, gapBefore7, wallNow, null)).toBe(5);
  });
});
