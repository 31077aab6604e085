-- See the SQLite migration 0026: links that no longer give access, kept as a hash so an app
-- still fetching one reads why.
CREATE TABLE retired_links (
  token_hash TEXT PRIMARY KEY,
  device_id BIGINT NOT NULL REFERENCES devices (id),
  reason TEXT NOT NULL CHECK (reason IN ('removed', 'replaced')),
  retired_at BIGINT NOT NULL
);
CREATE INDEX retired_links_by_device ON retired_links (device_id);
CREATE INDEX retired_links_by_time ON retired_links (retired_at);
