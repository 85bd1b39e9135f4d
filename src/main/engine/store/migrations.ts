/// Numbered migrations, applied in order at open; `PRAGMA user_version` records the last one applied.
/// Never edit a released migration: add the next number.
export const MIGRATIONS: readonly string[] = [
  // 1: organizations, tokens, the credits ledger, webhook signing secrets.
  `
  CREATE TABLE organizations (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    is_default INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
    created_at TEXT NOT NULL
  );
  CREATE UNIQUE INDEX organizations_one_default ON organizations (is_default) WHERE is_default = 1;

  CREATE TABLE tokens (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    name TEXT,
    scope TEXT NOT NULL CHECK (scope IN ('read', 'write')),
    hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    revoked_at TEXT
  );
  CREATE INDEX tokens_by_organization ON tokens (organization_id);

  CREATE TABLE ledger_entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    kind TEXT NOT NULL CHECK (kind IN ('grant', 'charge', 'refund')),
    amount INTEGER NOT NULL CHECK (amount > 0),
    subject TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX ledger_by_organization ON ledger_entries (organization_id);

  -- The balance may never go below zero, whatever code path writes a charge.
  CREATE TRIGGER ledger_never_negative BEFORE INSERT ON ledger_entries
  WHEN NEW.kind = 'charge' AND NEW.amount > (
    SELECT COALESCE(SUM(CASE kind WHEN 'charge' THEN -amount ELSE amount END), 0)
    FROM ledger_entries WHERE organization_id = NEW.organization_id
  )
  BEGIN
    SELECT RAISE(ABORT, 'insufficient_credits');
  END;

  CREATE TABLE webhook_secrets (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    secret TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT
  );
  CREATE INDEX webhook_secrets_by_organization ON webhook_secrets (organization_id, created_at);
  `,
]
