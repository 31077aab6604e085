-- Staff second factor (DESIGN §12). Passkeys: several per operator, named, with the
-- public key and signature counter the last assertion left. TOTP: one per operator, the
-- secret sealed with a key derived from JWT_SECRET (never stored in the clear), pending
-- until a first code confirms it; last_step is the newest time step a code was accepted
-- for, so no code is accepted twice. Recovery codes: hashed, each spent once.
CREATE TABLE operator_passkeys (
  id INTEGER PRIMARY KEY,
  operator_id INTEGER NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
  credential_id TEXT NOT NULL UNIQUE,
  public_key TEXT NOT NULL,
  counter INTEGER NOT NULL,
  transports TEXT NOT NULL,
  name TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER
) STRICT;
CREATE INDEX operator_passkeys_by_operator ON operator_passkeys (operator_id);
CREATE TABLE operator_totp (
  id INTEGER PRIMARY KEY,
  operator_id INTEGER NOT NULL UNIQUE REFERENCES operators (id) ON DELETE CASCADE,
  secret_sealed TEXT NOT NULL,
  enabled_at INTEGER,
  last_step INTEGER,
  created_at INTEGER NOT NULL
) STRICT;
CREATE TABLE operator_recovery_codes (
  id INTEGER PRIMARY KEY,
  operator_id INTEGER NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
  code_hash TEXT NOT NULL,
  used_at INTEGER,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX operator_recovery_codes_by_operator ON operator_recovery_codes (operator_id, code_hash);
-- WebAuthn challenges: single use (deleted as they are taken) and 60 s long. operator_id is
-- whose ceremony it is (NULL for a passkey-alone sign-in, where the passkey names them).
CREATE TABLE webauthn_challenges (
  id TEXT PRIMARY KEY,
  challenge TEXT NOT NULL,
  purpose TEXT NOT NULL CHECK (purpose IN ('sign-in', 'registration', 'check')),
  operator_id INTEGER REFERENCES operators (id) ON DELETE CASCADE,
  expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX webauthn_challenges_by_expiry ON webauthn_challenges (expires_at);
-- When a panel sign-in last proved who holds it (its password or a factor): adding or
-- removing a factor needs a proof from the last minutes.
CREATE TABLE operator_sign_in_checks (
  family_id TEXT PRIMARY KEY,
  checked_at INTEGER NOT NULL
) STRICT;
CREATE INDEX operator_sign_in_checks_by_time ON operator_sign_in_checks (checked_at);
