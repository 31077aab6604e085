-- The whole schema of the product (spec §3, DESIGN §4-8).
-- Conventions: times are integer Unix milliseconds; money is integer minor units
-- (kopecks, tiyn); fractions (discounts) are integer percent 0..100; every table
-- is STRICT; every look-up path has an explicit index.

-- Customers, identified by their identity provider's subject.
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  provider_id TEXT NOT NULL CHECK (provider_id IN ('google.com', 'yandex', 'demo')),
  uid TEXT NOT NULL,
  email TEXT NOT NULL,
  photo_url TEXT,
  language TEXT NOT NULL DEFAULT 'en' CHECK (language IN ('ru', 'en', 'zh', 'kk')),
  currency TEXT NOT NULL CHECK (currency IN ('RUB', 'KZT')),
  -- Own referral code, created on first request (12+ URL-safe characters).
  invitation_code TEXT UNIQUE,
  created_at INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX users_by_provider_uid ON users (provider_id, uid);
CREATE INDEX users_by_email ON users (email COLLATE NOCASE);

-- Case-insensitive substring search over e-mails for the panel (DESIGN §7):
-- a trigram index kept in step with users by triggers.
CREATE VIRTUAL TABLE users_email_search USING fts5 (
  email,
  content = 'users',
  content_rowid = 'id',
  tokenize = 'trigram'
);
CREATE TRIGGER users_email_search_insert AFTER INSERT ON users BEGIN
  INSERT INTO users_email_search (rowid, email) VALUES (new.id, new.email);
END;
CREATE TRIGGER users_email_search_delete AFTER DELETE ON users BEGIN
  INSERT INTO users_email_search (users_email_search, rowid, email) VALUES ('delete', old.id, old.email);
END;
CREATE TRIGGER users_email_search_update AFTER UPDATE OF email ON users BEGIN
  INSERT INTO users_email_search (users_email_search, rowid, email) VALUES ('delete', old.id, old.email);
  INSERT INTO users_email_search (rowid, email) VALUES (new.id, new.email);
END;

-- Customer sessions (Lucia's design): the cookie carries id + secret, only a hash
-- of the secret is stored.
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  secret_hash BLOB NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX sessions_by_user ON sessions (user_id);
CREATE INDEX sessions_by_expiry ON sessions (expires_at);

-- Operator promo codes (spec §5, DESIGN §7).
CREATE TABLE promos (
  id INTEGER PRIMARY KEY,
  promo_code TEXT NOT NULL UNIQUE CHECK (length(promo_code) >= 5),
  promo_type TEXT NOT NULL,
  is_available INTEGER NOT NULL DEFAULT 1 CHECK (is_available IN (0, 1)),
  discount_percent INTEGER NOT NULL CHECK (discount_percent BETWEEN 20 AND 50 AND discount_percent % 5 = 0),
  -- Last day the code can be used, YYYY-MM-DD.
  expiration_date TEXT NOT NULL,
  created_by INTEGER REFERENCES operators (id),
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX promos_available ON promos (is_available, id DESC);

-- A customer's subscriptions; the newest row is the current one. A new purchase
-- after expiry starts a new row so receipts keep pointing at what they paid for.
CREATE TABLE subscriptions (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  status TEXT NOT NULL CHECK (status IN ('NOT_ACTIVE', 'ACTIVE', 'CANCELED', 'EXPIRED')),
  tariff_months INTEGER NOT NULL CHECK (tariff_months IN (1, 3, 6, 12)),
  trial_days INTEGER NOT NULL CHECK (trial_days BETWEEN 1 AND 30),
  currency TEXT NOT NULL CHECK (currency IN ('RUB', 'KZT')),
  first_payment INTEGER NOT NULL CHECK (first_payment >= 0),
  -- List price of one tariff period before discounts.
  period_price INTEGER NOT NULL CHECK (period_price >= 0),
  first_payment_paid INTEGER NOT NULL DEFAULT 0 CHECK (first_payment_paid IN (0, 1)),
  promo_id INTEGER REFERENCES promos (id),
  promo_discount_percent INTEGER NOT NULL DEFAULT 0 CHECK (promo_discount_percent BETWEEN 0 AND 100),
  extra_devices INTEGER NOT NULL DEFAULT 0 CHECK (extra_devices >= 0),
  start_date INTEGER,
  end_date INTEGER,
  -- When the renewal scheduler charges next; NULL when nothing will be charged.
  next_charge_at INTEGER,
  -- Which paid period the next charge opens (0 = first full charge after the trial).
  next_period_index INTEGER NOT NULL DEFAULT 0,
  -- Failed attempts for the current period (dunning: retry after 1 and 3 days).
  dunning_attempts INTEGER NOT NULL DEFAULT 0,
  card_token TEXT,
  card_last_four TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX subscriptions_by_user ON subscriptions (user_id, id DESC);
CREATE INDEX subscriptions_due ON subscriptions (next_charge_at)
  WHERE next_charge_at IS NOT NULL AND status = 'ACTIVE';

CREATE TABLE promo_activations (
  promo_id INTEGER NOT NULL REFERENCES promos (id),
  user_id INTEGER NOT NULL REFERENCES users (id),
  activated_at INTEGER NOT NULL,
  PRIMARY KEY (promo_id, user_id)
) STRICT;
CREATE INDEX promo_activations_by_user ON promo_activations (user_id);

-- Payments: orders, charge attempts and their outcomes; the receipts of the panel.
CREATE TABLE payments (
  id INTEGER PRIMARY KEY,
  -- NULL for an anonymous prepaid purchase until it is bound to an account.
  user_id INTEGER REFERENCES users (id),
  subscription_id INTEGER REFERENCES subscriptions (id),
  kind TEXT NOT NULL CHECK (kind IN ('first', 'renewal', 'device')),
  -- Our invoice id; for renewals it encodes (subscription, period, attempt).
  invoice_id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  amount INTEGER NOT NULL CHECK (amount >= 0),
  currency TEXT NOT NULL CHECK (currency IN ('RUB', 'KZT')),
  description TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'completed', 'declined', 'refunded')),
  transaction_id TEXT UNIQUE,
  ip_address TEXT,
  period_index INTEGER,
  attempt INTEGER NOT NULL DEFAULT 1,
  -- What the order buys, for first payments made before an account exists.
  tariff_months INTEGER CHECK (tariff_months IN (1, 3, 6, 12)),
  trial_days INTEGER CHECK (trial_days BETWEEN 1 AND 30),
  extra_devices INTEGER,
  prepaid_token TEXT UNIQUE,
  bound_at INTEGER,
  decline_reason_code INTEGER,
  decline_reason TEXT,
  refunded_amount INTEGER NOT NULL DEFAULT 0,
  refunded_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX payments_by_user ON payments (user_id, created_at DESC);
CREATE INDEX payments_by_subscription ON payments (subscription_id, created_at DESC);
CREATE INDEX payments_pending ON payments (status, created_at) WHERE status = 'pending';

-- Gateway notifications already applied; the key is inserted in the same
-- transaction as the effect, so a redelivery is a no-op.
CREATE TABLE webhook_events (
  kind TEXT NOT NULL CHECK (kind IN ('check', 'pay', 'fail', 'refund')),
  transaction_id TEXT NOT NULL,
  invoice_id TEXT,
  received_at INTEGER NOT NULL,
  PRIMARY KEY (kind, transaction_id)
) STRICT;

-- Referral invitations: an invitee is invited once, never by themself.
CREATE TABLE invitations (
  id INTEGER PRIMARY KEY,
  inviter_id INTEGER NOT NULL REFERENCES users (id),
  invitee_id INTEGER NOT NULL UNIQUE REFERENCES users (id),
  created_at INTEGER NOT NULL,
  CHECK (inviter_id <> invitee_id)
) STRICT;
CREATE INDEX invitations_by_inviter ON invitations (inviter_id, created_at DESC);

-- Devices of a customer, created and activated by the app (DESIGN §8).
CREATE TABLE devices (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  device_id TEXT NOT NULL,
  device_name TEXT NOT NULL,
  platform TEXT NOT NULL CHECK (platform IN ('ios', 'android', 'windows', 'desktop', 'other')),
  access_key_hash TEXT UNIQUE,
  is_active INTEGER NOT NULL DEFAULT 0 CHECK (is_active IN (0, 1)),
  created_at INTEGER NOT NULL,
  first_activation_at INTEGER,
  detached_at INTEGER
) STRICT;
CREATE UNIQUE INDEX devices_by_user_device ON devices (user_id, device_id);

-- VPN servers allowed to ask about access keys and report connections.
CREATE TABLE vpn_nodes (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  key_hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE connection_logs (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  device_id INTEGER REFERENCES devices (id),
  server_name TEXT,
  connected_at INTEGER NOT NULL,
  user_ip TEXT,
  success INTEGER NOT NULL CHECK (success IN (0, 1))
) STRICT;
CREATE INDEX connection_logs_by_user ON connection_logs (user_id, connected_at DESC);

-- Staff of the operator panel.
CREATE TABLE operators (
  id INTEGER PRIMARY KEY,
  username TEXT NOT NULL UNIQUE COLLATE NOCASE,
  password_hash TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('admin', 'support')),
  is_disabled INTEGER NOT NULL DEFAULT 0 CHECK (is_disabled IN (0, 1)),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

-- Operator refresh tokens, hashed, rotated on every use; a family shares one origin
-- login so reuse of a rotated token can revoke all of it.
CREATE TABLE refresh_tokens (
  id INTEGER PRIMARY KEY,
  operator_id INTEGER NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
  family_id TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  rotated_at INTEGER,
  revoked_at INTEGER
) STRICT;
CREATE INDEX refresh_tokens_by_family ON refresh_tokens (family_id);

-- Failed staff logins per key (account or address), for the cool-down.
CREATE TABLE login_throttle (
  throttle_key TEXT PRIMARY KEY,
  failures INTEGER NOT NULL,
  window_started_at INTEGER NOT NULL,
  locked_until INTEGER
) STRICT;

-- Captcha solutions already accepted (each is accepted once).
CREATE TABLE captcha_solutions (
  signature TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX captcha_solutions_by_expiry ON captcha_solutions (expires_at);

-- Who did what, when, from where and on whom.
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY,
  operator_id INTEGER REFERENCES operators (id),
  action TEXT NOT NULL,
  target_user_id INTEGER REFERENCES users (id),
  details TEXT NOT NULL DEFAULT '{}',
  ip_address TEXT,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX audit_log_by_time ON audit_log (created_at DESC);
CREATE INDEX audit_log_by_target ON audit_log (target_user_id, created_at DESC);

-- Small persistent settings, such as the demo test clock's offset.
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;
