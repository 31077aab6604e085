-- The pair a refresh token's rotation answered, for the 10 s in which the same token may
-- be presented again (parallel panel calls, a retry) on any instance. Sealed with a key
-- derived from the spent token itself: the database alone cannot open it.
CREATE TABLE refresh_replays (
  token_hash TEXT PRIMARY KEY,
  sealed TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
