/// The team server's schema on PostgreSQL, as numbered migrations applied in order at open; the table
/// `schema_migrations` records each one applied. Never edit a released migration: add the next number, beside the
/// SQLite migration that makes the same change (migrations.ts).
///
/// The first one is the SQLite schema as it stands after its 24 migrations: the same tables, columns (in the same
/// order), keys, unique constraints, indexes (partial where SQLite's are) and checks, so that the store's modules
/// read both alike:
/// - TEXT stays text, for the ISO timestamps and the JSON too: they compare, sort and round-trip as in SQLite;
/// - INTEGER is bigint (SQLite's are 64 bits), and integer for the 0/1 flags (no boolean: the code writes and reads
///   0 and 1 in both); the pool reads bigint back as a JS number, like libsql;
/// - REAL is double precision, BLOB is bytea;
/// - INTEGER PRIMARY KEY AUTOINCREMENT is an identity column: ids only grow and are never reused, and one written by
///   hand is refused (ALWAYS) rather than colliding with the sequence later;
/// - the trigger is a PL/pgSQL function raising the same message.
///
/// Text compares and sorts byte by byte, as SQLite's BINARY collation does, only in a database created with the C
/// collation (`CREATE DATABASE … LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0`): under a language's collation
/// 'B' sorts after 'a' and the `'~'` that ends every id sorts before some of them. `PostgresDatabase.open` refuses
/// a database that sorts otherwise.
export const POSTGRES_MIGRATIONS: readonly string[] = [
  // 1: the SQLite schema after its migration 24.
  `
  CREATE TABLE organizations (
    id text PRIMARY KEY,
    name text NOT NULL,
    is_default integer NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
    created_at text NOT NULL
  );
  CREATE UNIQUE INDEX organizations_one_default ON organizations (is_default) WHERE is_default = 1;

  CREATE TABLE tokens (
    id text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    name text,
    scope text NOT NULL CHECK (scope IN ('read', 'write')),
    hash text NOT NULL UNIQUE,
    created_at text NOT NULL,
    revoked_at text,
    session_expires_at text
  );
  CREATE INDEX tokens_by_organization ON tokens (organization_id);

  CREATE TABLE ledger_entries (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    kind text NOT NULL CHECK (kind IN ('grant', 'charge', 'refund')),
    amount bigint NOT NULL CHECK (amount > 0),
    subject text,
    created_at text NOT NULL
  );
  CREATE INDEX ledger_by_organization ON ledger_entries (organization_id);
  -- A check is charged once and refunded at most once, whatever races.
  CREATE UNIQUE INDEX ledger_one_charge ON ledger_entries (subject) WHERE kind = 'charge' AND subject IS NOT NULL;
  CREATE UNIQUE INDEX ledger_one_refund ON ledger_entries (subject) WHERE kind = 'refund' AND subject IS NOT NULL;

  -- The balance may never go below zero, whatever code path writes a charge. Unlike SQLite's single writer, two
  -- transactions under READ COMMITTED each see the balance without the other's charge and both pass: the engine
  -- writes an organization's charges under its lock (lockOrg), which makes them one after the other.
  CREATE FUNCTION ledger_never_negative() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.amount > (
      SELECT COALESCE(SUM(CASE kind WHEN 'charge' THEN -amount ELSE amount END), 0)
      FROM ledger_entries WHERE organization_id = NEW.organization_id
    ) THEN
      RAISE EXCEPTION 'insufficient_credits' USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
  END
  $$;
  CREATE TRIGGER ledger_never_negative BEFORE INSERT ON ledger_entries
  FOR EACH ROW WHEN (NEW.kind = 'charge') EXECUTE FUNCTION ledger_never_negative();

  CREATE TABLE webhook_secrets (
    id text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    secret text NOT NULL,
    created_at text NOT NULL,
    expires_at text
  );
  CREATE INDEX webhook_secrets_by_organization ON webhook_secrets (organization_id, created_at);

  CREATE TABLE documents (
    id text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    text text NOT NULL,
    tiers text NOT NULL,
    created_at text NOT NULL,
    unit_prices text,
    expires_at text
  );
  CREATE INDEX documents_expiring ON documents (expires_at) WHERE expires_at IS NOT NULL;

  CREATE TABLE claims (
    id text PRIMARY KEY,
    document_id text NOT NULL REFERENCES documents (id),
    text text NOT NULL,
    char_start bigint NOT NULL,
    char_end bigint NOT NULL,
    statement text,
    parts text,
    resolver_input_tokens bigint,
    resolver_output_tokens bigint,
    statement_state text
  );
  CREATE INDEX claims_by_document ON claims (document_id, char_start);

  CREATE TABLE checks (
    id text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    document_id text NOT NULL REFERENCES documents (id),
    status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
    name text,
    author text,
    source_url text,
    callback_url text,
    tiers text NOT NULL,
    claim_count bigint NOT NULL,
    unit_prices text NOT NULL,
    charged bigint NOT NULL,
    refunded bigint NOT NULL DEFAULT 0,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    completed_at text,
    error_code text,
    error_message text,
    manuscript_id text,
    manuscript_part bigint,
    manuscript_parts bigint,
    source_policy text
  );
  CREATE INDEX checks_by_organization ON checks (organization_id, id);
  CREATE INDEX checks_by_manuscript ON checks (organization_id, manuscript_id) WHERE manuscript_id IS NOT NULL;

  -- One unit of work per claim x tier (x model where a tier has several).
  CREATE TABLE units (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    check_id text NOT NULL REFERENCES checks (id),
    claim_id text NOT NULL REFERENCES claims (id),
    tier text NOT NULL,
    model text NOT NULL DEFAULT '',
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'done', 'failed', 'cancelled')),
    attempts bigint NOT NULL DEFAULT 0,
    available_at text NOT NULL,
    lease_until text,
    last_error text,
    UNIQUE (check_id, claim_id, tier, model)
  );
  CREATE INDEX units_ready ON units (status, available_at);
  CREATE INDEX units_by_check ON units (check_id, status);

  CREATE TABLE consensus (
    check_id text NOT NULL REFERENCES checks (id),
    claim_id text NOT NULL REFERENCES claims (id),
    tier text NOT NULL,
    verdict text NOT NULL,
    confidence double precision NOT NULL,
    agreement double precision NOT NULL,
    reasoning text NOT NULL,
    citations text NOT NULL,
    correction text,
    decided_at text NOT NULL,
    input_tokens bigint,
    output_tokens bigint,
    detail text,
    sourced integer NOT NULL DEFAULT 0 CHECK (sourced IN (0, 1)),
    sources bigint NOT NULL DEFAULT 0,
    decided_by text,
    parts text,
    carried_from text,
    calibrated_confidence double precision,
    fallbacks text NOT NULL DEFAULT '[]',
    PRIMARY KEY (check_id, claim_id, tier)
  );

  CREATE TABLE claim_issues (
    check_id text NOT NULL REFERENCES checks (id),
    claim_id text NOT NULL REFERENCES claims (id),
    position bigint NOT NULL,
    char_start bigint NOT NULL,
    char_end bigint NOT NULL,
    message text NOT NULL,
    suggestions text NOT NULL,
    rule text NOT NULL,
    PRIMARY KEY (check_id, claim_id, position)
  );

  CREATE TABLE idempotency_keys (
    organization_id text NOT NULL REFERENCES organizations (id),
    key text NOT NULL,
    request_hash text NOT NULL,
    check_id text NOT NULL REFERENCES checks (id),
    created_at text NOT NULL,
    PRIMARY KEY (organization_id, key)
  );

  -- Webhooks: the outbox of events (at most one per check, written with the check's ending) and its attempts.
  CREATE TABLE webhook_events (
    id text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    check_id text NOT NULL UNIQUE REFERENCES checks (id),
    type text NOT NULL CHECK (type IN ('check.completed', 'check.failed')),
    url text NOT NULL,
    body text NOT NULL,
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts bigint NOT NULL DEFAULT 0,
    created_at text NOT NULL,
    next_attempt_at text,
    last_attempt_at text,
    last_status_code bigint,
    last_error text
  );
  CREATE INDEX webhook_events_due ON webhook_events (status, next_attempt_at);

  CREATE TABLE webhook_attempts (
    event_id text NOT NULL REFERENCES webhook_events (id),
    attempt bigint NOT NULL,
    attempted_at text NOT NULL,
    status_code bigint,
    error text,
    PRIMARY KEY (event_id, attempt)
  );

  -- A panel model's vote on a claim text, reused for 24 hours within the organization.
  CREATE TABLE vote_cache (
    organization_id text NOT NULL REFERENCES organizations (id),
    model_key text NOT NULL,
    claim_hash text NOT NULL,
    verdict text NOT NULL,
    confidence double precision NOT NULL,
    rationale text NOT NULL,
    created_at text NOT NULL,
    detail text,
    PRIMARY KEY (organization_id, model_key, claim_hash)
  );

  -- Deep research: one row per run; its state holds the steps done so far, so a restart resumes after the last.
  CREATE TABLE research (
    id text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    claim_id text REFERENCES claims (id),
    text text NOT NULL,
    context text NOT NULL DEFAULT '',
    status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
    charged bigint NOT NULL,
    refunded bigint NOT NULL DEFAULT 0,
    state text NOT NULL DEFAULT '{}',
    attempts bigint NOT NULL DEFAULT 0,
    result text,
    error_code text,
    error_message text,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    completed_at text,
    available_at text,
    leased integer NOT NULL DEFAULT 0
  );
  CREATE INDEX research_open ON research (status, created_at);

  -- The app's settings (JSON per part) and its API keys, encrypted by the engine's secret box before they land.
  CREATE TABLE settings (
    name text PRIMARY KEY,
    value text NOT NULL,
    updated_at text NOT NULL
  );
  CREATE TABLE secrets (
    name text PRIMARY KEY,
    sealed bytea NOT NULL,
    updated_at text NOT NULL
  );

  -- "Check when online": checks waiting for their providers, each with the Idempotency-Key it is submitted with.
  CREATE TABLE pending_checks (
    id text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    token_id text NOT NULL REFERENCES tokens (id),
    request text NOT NULL,
    label text NOT NULL,
    idempotency_key text NOT NULL,
    status text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'submitted', 'cancelled', 'failed')),
    attempts bigint NOT NULL DEFAULT 0,
    next_attempt_at text,
    last_error text,
    check_id text REFERENCES checks (id),
    error_code text,
    error_message text,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    UNIQUE (organization_id, idempotency_key)
  );
  CREATE INDEX pending_checks_due ON pending_checks (status, next_attempt_at);
  CREATE INDEX pending_checks_by_organization ON pending_checks (organization_id, id);

  -- Drafts: the writer's open texts, autosaved, with the file each came from and its last check's claim anchors.
  -- Their text, title and file path are JSON strings (SQLite's migration 13).
  CREATE TABLE drafts (
    id text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    title text NOT NULL,
    file_path text,
    text text NOT NULL,
    file_digest text,
    -- No foreign key: the desktop app may check on a remote service, whose checks are not in this store.
    last_check_id text,
    anchors text NOT NULL DEFAULT '[]',
    created_at text NOT NULL,
    updated_at text NOT NULL,
    opened_at text NOT NULL
  );
  CREATE INDEX drafts_recent ON drafts (organization_id, opened_at);
  CREATE UNIQUE INDEX drafts_by_file ON drafts (organization_id, file_path) WHERE file_path IS NOT NULL;

  -- A vote per model and debate round.
  CREATE TABLE evaluations (
    check_id text NOT NULL REFERENCES checks (id),
    claim_id text NOT NULL REFERENCES claims (id),
    tier text NOT NULL,
    model text NOT NULL,
    round bigint NOT NULL DEFAULT 1 CHECK (round IN (1, 2)),
    verdict text NOT NULL,
    confidence double precision NOT NULL,
    rationale text NOT NULL,
    citations text NOT NULL,
    created_at text NOT NULL,
    input_tokens bigint,
    output_tokens bigint,
    cached integer NOT NULL DEFAULT 0 CHECK (cached IN (0, 1)),
    detail text,
    parts text,
    carried_from text,
    PRIMARY KEY (check_id, claim_id, tier, model, round)
  );

  -- Estimates that expired, kept a while to tell a late submission so.
  CREATE TABLE expired_documents (
    id text PRIMARY KEY,
    organization_id text NOT NULL,
    expired_at text NOT NULL
  );
  CREATE INDEX expired_documents_by_age ON expired_documents (expired_at);
  `,
  // 2: the leases' tokens (SQLite's migration 25).
  `
  ALTER TABLE units ADD COLUMN lease_id text;
  ALTER TABLE research ADD COLUMN lease_until text;
  ALTER TABLE research ADD COLUMN lease_id text;
  ALTER TABLE webhook_events ADD COLUMN lease_until text;
  ALTER TABLE webhook_events ADD COLUMN lease_id text;
  ALTER TABLE pending_checks ADD COLUMN lease_until text;
  ALTER TABLE pending_checks ADD COLUMN lease_id text;
  `,
  // 3: SQLite's migration 26, the keys the replicas share (engineKeys.ts).
  `
  CREATE TABLE engine_keys (
    name text PRIMARY KEY,
    key bytea,
    fingerprint text NOT NULL,
    created_at text NOT NULL
  );
  `,
  // 4 (SQLite's 27): report events in order, shared by the replicas (base/events.ts). Each append takes the events'
  // lock (store/events.ts), so ids are committed in the order they are given and a reader that goes on from the
  // last id it read skips none.
  `
  CREATE TABLE events (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organization_id text NOT NULL,
    body text NOT NULL,
    created_at text NOT NULL
  );
  CREATE INDEX events_by_organization ON events (organization_id, id);
  `,
  // 5: an Idempotency-Key is taken first in its check's transaction, before the check is written: its reference to
  // the check may wait for COMMIT (SET CONSTRAINTS … DEFERRED; SQLite's transaction says PRAGMA defer_foreign_keys).
  `
  ALTER TABLE idempotency_keys ALTER CONSTRAINT idempotency_keys_check_id_fkey DEFERRABLE INITIALLY IMMEDIATE;
  `,
  // 6 (SQLite's 28): the requests of the last minute that the per-minute limits count, shared by the replicas
  // (store/recentRequests.ts).
  `
  CREATE TABLE recent_requests (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organization_id text NOT NULL,
    limit_name text NOT NULL,
    made_at text NOT NULL
  );
  CREATE INDEX recent_requests_by_limit ON recent_requests (organization_id, limit_name, made_at);
  `,
]
