import { refreshReplayWindowMs } from "./tokens";

type TokenPair = { accessToken: string; refreshToken: string };

/**
 * The pairs recent rotations answered, by the spent token's hash, for the replay window
 * only. Kept in memory (the raw new token is never stored): after a restart a replay is
 * treated as reuse, which is the safe side.
 */
export function refreshReplays(now: () => number) {
  const answers = new Map<string, { at: number; pair: Promise<TokenPair> }>();
  const prune = () => {
    for (const [tokenHash, answer] of answers)
      if (now() - answer.at > refreshReplayWindowMs) answers.delete(tokenHash);
  };
  return {
    has(tokenHash: string): boolean {
      prune();
      return answers.has(tokenHash);
    },
    /** Set before the pair is signed, so a parallel replay waits on the same promise. */
    remember(tokenHash: string, pair: Promise<TokenPair>): void {
      prune();
      answers.set(tokenHash, { at: now(), pair });
    },
    answer(tokenHash: string): Promise<TokenPair> {
      const answer = answers.get(tokenHash);
      if (!answer) throw new Error("no remembered answer");
      return answer.pair;
    },
  };
}
