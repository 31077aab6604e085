/** Dunning (DESIGN §5): retry 1 and 3 days after the due date, then the subscription expires. */
export const retryDelaysDays = [1, 3] as const;
