/** Day arithmetic for the feed: days are UTC calendar days unless an offset is given. */
export const DAY_MS = 86_400_000;
