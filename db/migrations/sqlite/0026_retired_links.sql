-- Subscription links that no longer give access, kept so a client app still fetching one
-- reads why inside the app (DESIGN §8 "The subscription answer") instead of a bare 404,
-- after which apps keep showing the servers they last had. 'removed': the customer
-- unlinked the device; 'replaced': the customer made the device a new link. Only a
-- SHA-256 of the token is kept (hex): the link is never shown again, only recognised.
-- retired_at is the billing clock's; retention forgets them with the connection logs.
CREATE TABLE retired_links (
  token_hash TEXT PRIMARY KEY,
  device_id INTEGER NOT NULL REFERENCES devices (id),
  reason TEXT NOT NULL CHECK (reason IN ('removed', 'replaced')),
  retired_at INTEGER NOT NULL
) STRICT;
CREATE INDEX retired_links_by_device ON retired_links (device_id);
CREATE INDEX retired_links_by_time ON retired_links (retired_at);
