-- First-party analytics (DESIGN §16): one row per UTC day and event name, counted up in place,
-- so no visitor is ever identified and the table stays small (three names a day).
CREATE TABLE analytics_daily (
  day TEXT NOT NULL,
  name TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (day, name)
) STRICT, WITHOUT ROWID;
