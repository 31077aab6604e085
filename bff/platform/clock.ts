/**
 * Time is injected so billing can be driven by a test clock (DESIGN §11) and unit
 * tests never depend on the wall clock.
 */
export type Clock = {
  now(): number;
};

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that runs with real time plus an offset that can only move forward. */
export class OffsetClock implements Clock {
  private offsetMs: number;

  constructor(offsetMs = 0) {
    this.offsetMs = offsetMs;
  }

  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(milliseconds: number): void {
    if (milliseconds < 0) throw new RangeError("The clock only moves forward.");
    this.offsetMs += milliseconds;
  }

  /** Takes a larger offset another instance set (clock-offset.ts); never goes back. */
  catchUp(offsetMs: number): void {
    this.offsetMs = Math.max(this.offsetMs, offsetMs);
  }

  get offset(): number {
    return this.offsetMs;
  }
}
