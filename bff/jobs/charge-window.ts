/** A place in the window, taken before a gateway call and given back with how the call went. */
export type ChargeTicket = { readonly takenAt: number };

/**
 * How a call ended, for the window: answered, turned away (429), no answer at all, or the
 * place was given back without a call.
 */
export type CallOutcome = "answered" | "busy" | "silent" | "unused";

const defaultBusyPauseMs = 1_000;

/**
 * How many gateway calls a renewal pass keeps in flight. It starts at the configured most
 * and behaves like TCP's congestion window: a call the bank turned away (429) or left
 * unanswered halves it (once per round of calls, so 32 refusals at once halve it once, not
 * 32 times), and every `limit` answered calls grow it by one, back up to the most. A 429
 * also pauses new calls for as long as the bank asked (Retry-After), or a second. So a bank
 * that struggles is met with fewer calls, never with the same ones again sooner.
 */
export class ChargeWindow {
  private limit: number;
  private inFlight = 0;
  private answeredSinceGrowth = 0;
  private shrunkAt = Number.NEGATIVE_INFINITY;
  private pausedUntil = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly most: number,
    private readonly now: () => number = () => performance.now(),
    private readonly sleep: (ms: number) => Promise<unknown> = (ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.limit = Math.max(1, most);
  }

  /** The current number of calls allowed at once. */
  get size(): number {
    return this.limit;
  }

  /** Waits for a free place (and for a pause the bank asked for), then takes it. */
  async take(): Promise<ChargeTicket> {
    for (;;) {
      const pause = this.pausedUntil - this.now();
      if (pause > 0) await this.sleep(pause);
      else if (this.inFlight < this.limit) break;
      else await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.inFlight++;
    return { takenAt: this.now() };
  }

  give(ticket: ChargeTicket, outcome: CallOutcome, retryAfterMs?: number): void {
    this.inFlight--;
    if (outcome === "unused") {
      // Nothing learnt about the bank.
    } else if (outcome === "answered") {
      this.answeredSinceGrowth++;
      if (this.answeredSinceGrowth >= this.limit && this.limit < this.most) {
        this.limit++;
        this.answeredSinceGrowth = 0;
      }
    } else {
      // Only a call sent after the last halving may halve again: the calls already in
      // flight then were sent into the same congestion.
      if (ticket.takenAt >= this.shrunkAt) {
        this.limit = Math.max(1, Math.floor(this.limit / 2));
        this.shrunkAt = this.now();
        this.answeredSinceGrowth = 0;
      }
      if (outcome === "busy")
        this.pausedUntil = Math.max(this.pausedUntil, this.now() + (retryAfterMs ?? defaultBusyPauseMs));
    }
    // Wake as many as may now go; each checks again in take().
    for (let free = this.limit - this.inFlight; free > 0 && this.waiting.length > 0; free--)
      this.waiting.shift()?.();
  }
}
