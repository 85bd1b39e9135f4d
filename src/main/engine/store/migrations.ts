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
  // 2: documents and their claims, checks, the work queue, evaluations, consensus, spelling issues, idempotency.
  `
  CREATE TABLE documents (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    text TEXT NOT NULL,
    tiers TEXT NOT NULL,
    created_at TEXT NOT NULL
  );

  CREATE TABLE claims (
    id TEXT PRIMARY KEY,
    document_id TEXT NOT NULL REFERENCES documents (id),
    text TEXT NOT NULL,
    char_start INTEGER NOT NULL,
    char_end INTEGER NOT NULL
  );
  CREATE INDEX claims_by_document ON claims (document_id, char_start);

  CREATE TABLE checks (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    document_id TEXT NOT NULL REFERENCES documents (id),
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
    name TEXT,
    author TEXT,
    source_url TEXT,
    callback_url TEXT,
    tiers TEXT NOT NULL,
    claim_count INTEGER NOT NULL,
    unit_prices TEXT NOT NULL,
    charged INTEGER NOT NULL,
    refunded INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    completed_at TEXT,
    error_code TEXT,
    error_message TEXT
  );
  CREATE INDEX checks_by_organization ON checks (organization_id, id);

  -- One unit of work per claim x tier (x model where a tier has several).
  CREATE TABLE units (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    check_id TEXT NOT NULL REFERENCES checks (id),
    claim_id TEXT NOT NULL REFERENCES claims (id),
    tier TEXT NOT NULL,
    model TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'done', 'failed', 'cancelled')),
    attempts INTEGER NOT NULL DEFAULT 0,
    available_at TEXT NOT NULL,
    lease_until TEXT,
    last_error TEXT,
    UNIQUE (check_id, claim_id, tier, model)
  );
  CREATE INDEX units_ready ON units (status, available_at);
  CREATE INDEX units_by_check ON units (check_id, status);

  CREATE TABLE evaluations (
    check_id TEXT NOT NULL REFERENCES checks (id),
    claim_id TEXT NOT NULL REFERENCES claims (id),
    tier TEXT NOT NULL,
    model TEXT NOT NULL,
    verdict TEXT NOT NULL,
    confidence REAL NOT NULL,
    rationale TEXT NOT NULL,
    citations TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (check_id, claim_id, tier, model)
  );

  CREATE TABLE consensus (
    check_id TEXT NOT NULL REFERENCES checks (id),
    claim_id TEXT NOT NULL REFERENCES claims (id),
    tier TEXT NOT NULL,
    verdict TEXT NOT NULL,
    confidence REAL NOT NULL,
    agreement REAL NOT NULL,
    reasoning TEXT NOT NULL,
    citations TEXT NOT NULL,
    correction TEXT,
    decided_at TEXT NOT NULL,
    PRIMARY KEY (check_id, claim_id, tier)
  );

  CREATE TABLE claim_issues (
    check_id TEXT NOT NULL REFERENCES checks (id),
    claim_id TEXT NOT NULL REFERENCES claims (id),
    position INTEGER NOT NULL,
    char_start INTEGER NOT NULL,
    char_end INTEGER NOT NULL,
    message TEXT NOT NULL,
    suggestions TEXT NOT NULL,
    rule TEXT NOT NULL,
    PRIMARY KEY (check_id, claim_id, position)
  );

  CREATE TABLE idempotency_keys (
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    check_id TEXT NOT NULL REFERENCES checks (id),
    created_at TEXT NOT NULL,
    PRIMARY KEY (organization_id, key)
  );

  -- A check is charged once and refunded at most once, whatever races.
  CREATE UNIQUE INDEX ledger_one_charge ON ledger_entries (subject) WHERE kind = 'charge' AND subject IS NOT NULL;
  CREATE UNIQUE INDEX ledger_one_refund ON ledger_entries (subject) WHERE kind = 'refund' AND subject IS NOT NULL;
  `,
  // Webhooks: the outbox of events (at most one per check, written with the check's ending) and its attempts.
  `
  CREATE TABLE webhook_events (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    check_id TEXT NOT NULL UNIQUE REFERENCES checks (id),
    type TEXT NOT NULL CHECK (type IN ('check.completed', 'check.failed')),
    url TEXT NOT NULL,
    body TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    next_attempt_at TEXT,
    last_attempt_at TEXT,
    last_status_code INTEGER,
    last_error TEXT
  );
  CREATE INDEX webhook_events_due ON webhook_events (status, next_attempt_at);

  CREATE TABLE webhook_attempts (
    event_id TEXT NOT NULL REFERENCES webhook_events (id),
    attempt INTEGER NOT NULL,
    attempted_at TEXT NOT NULL,
    status_code INTEGER,
    error TEXT,
    PRIMARY KEY (event_id, attempt)
  );
  `,
  // t2: tokens and cache flag per vote, the judge's tokens per consensus, and the vote cache.
  `
  ALTER TABLE evaluations ADD COLUMN input_tokens INTEGER;
  ALTER TABLE evaluations ADD COLUMN output_tokens INTEGER;
  ALTER TABLE evaluations ADD COLUMN cached INTEGER NOT NULL DEFAULT 0 CHECK (cached IN (0, 1));
  ALTER TABLE consensus ADD COLUMN input_tokens INTEGER;
  ALTER TABLE consensus ADD COLUMN output_tokens INTEGER;

  -- A panel model's vote on a claim text, reused for 24 hours within the organization.
  CREATE TABLE vote_cache (
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    model_key TEXT NOT NULL,
    claim_hash TEXT NOT NULL,
    verdict TEXT NOT NULL,
    confidence REAL NOT NULL,
    rationale TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (organization_id, model_key, claim_hash)
  );
  `,
  // Deep research: one row per run; its state holds the steps done so far, so a restart resumes after the last.
  `
  CREATE TABLE research (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    claim_id TEXT REFERENCES claims (id),
    text TEXT NOT NULL,
    context TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
    charged INTEGER NOT NULL,
    refunded INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL DEFAULT '{}',
    attempts INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    error_code TEXT,
    error_message TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    completed_at TEXT
  );
  CREATE INDEX research_open ON research (status, created_at);
  `,
  // The app's settings (JSON per part) and its API keys, encrypted by the engine's secret box before they land.
  `
  CREATE TABLE settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE secrets (
    name TEXT PRIMARY KEY,
    sealed BLOB NOT NULL,
    updated_at TEXT NOT NULL
  );
  `,
  // "Check when online": checks waiting for their providers, each with the Idempotency-Key it is submitted with.
  `
  CREATE TABLE pending_checks (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    token_id TEXT NOT NULL REFERENCES tokens (id),
    request TEXT NOT NULL,
    label TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'submitted', 'cancelled', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT,
    last_error TEXT,
    check_id TEXT REFERENCES checks (id),
    error_code TEXT,
    error_message TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (organization_id, idempotency_key)
  );
  CREATE INDEX pending_checks_due ON pending_checks (status, next_attempt_at);
  CREATE INDEX pending_checks_by_organization ON pending_checks (organization_id, id);
  `,
  // Drafts: the writer's open texts, autosaved, with the file each came from and its last check's claim anchors.
  `
  CREATE TABLE drafts (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    title TEXT NOT NULL,
    file_path TEXT,
    text TEXT NOT NULL,
    file_digest TEXT,
    -- No foreign key: the desktop app may check on a remote service, whose checks are not in this store.
    last_check_id TEXT,
    anchors TEXT NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    opened_at TEXT NOT NULL
  );
  CREATE INDEX drafts_recent ON drafts (organization_id, opened_at);
  CREATE UNIQUE INDEX drafts_by_file ON drafts (organization_id, file_path) WHERE file_path IS NOT NULL;
  `,
  // The prices per claim an estimate quoted, so that its check is charged exactly that even if the prices
  // change in between (null: a document from before, charged at the prices of the day).
  `
  ALTER TABLE documents ADD COLUMN unit_prices TEXT;
  `,
  // Browser sessions of `factdesk web` are tokens that only the session cookie may carry, until they expire
  // (null: an API token, or the desktop app's own).
  `
  ALTER TABLE tokens ADD COLUMN session_expires_at TEXT;
  `,
  // Verdicts: a debate round's second vote beside the first (the key gains the round), and what a consensus
  // says of itself: the kind of misleading or unverifiable, whether a verified citation bears on it, how many
  // sites it cites, and whether a unanimous panel or the judge decided it.
  `
  CREATE TABLE evaluations_by_round (
    check_id TEXT NOT NULL REFERENCES checks (id),
    claim_id TEXT NOT NULL REFERENCES claims (id),
    tier TEXT NOT NULL,
    model TEXT NOT NULL,
    round INTEGER NOT NULL DEFAULT 1 CHECK (round IN (1, 2)),
    verdict TEXT NOT NULL,
    confidence REAL NOT NULL,
    rationale TEXT NOT NULL,
    citations TEXT NOT NULL,
    created_at TEXT NOT NULL,
    input_tokens INTEGER,
    output_tokens INTEGER,
    cached INTEGER NOT NULL DEFAULT 0 CHECK (cached IN (0, 1)),
    PRIMARY KEY (check_id, claim_id, tier, model, round)
  );
  INSERT INTO evaluations_by_round (check_id, claim_id, tier, model, round, verdict, confidence, rationale,
    citations, created_at, input_tokens, output_tokens, cached)
  SELECT check_id, claim_id, tier, model, 1, verdict, confidence, rationale, citations, created_at, input_tokens,
    output_tokens, cached FROM evaluations;
  DROP TABLE evaluations;
  ALTER TABLE evaluations_by_round RENAME TO evaluations;

  ALTER TABLE consensus ADD COLUMN detail TEXT;
  ALTER TABLE consensus ADD COLUMN sourced INTEGER NOT NULL DEFAULT 0 CHECK (sourced IN (0, 1));
  ALTER TABLE consensus ADD COLUMN sources INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE consensus ADD COLUMN decided_by TEXT;
  `,
  // Drafts keep whatever was typed: their text, title and file path become JSON strings, which escape U+0000 (the
  // driver cut text there) and half of a surrogate pair. A text stored before keeps all it held.
  `
  UPDATE drafts SET
    text = json_quote(text),
    title = json_quote(title),
    file_path = CASE WHEN file_path IS NULL THEN NULL ELSE json_quote(file_path) END;
  `,
  // Estimates expire when not submitted in time: the document and its claims are deleted, and its id is kept a
  // while to tell a late submission that it expired.
  `
  ALTER TABLE documents ADD COLUMN expires_at TEXT;
  UPDATE documents SET expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+24 hours')
  WHERE NOT EXISTS (SELECT 1 FROM checks WHERE checks.document_id = documents.id)
    AND NOT EXISTS (
      SELECT 1 FROM pending_checks
      WHERE status = 'waiting' AND json_extract(request, '$.documentId') = documents.id
    );
  CREATE INDEX documents_expiring ON documents (expires_at) WHERE expires_at IS NOT NULL;
  CREATE TABLE expired_documents (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    expired_at TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX expired_documents_by_age ON expired_documents (expired_at);
  `,
  // A vote's detail: which kind of misleading or unverifiable it says the claim is (the panel's own decision
  // reports the detail its votes agree on).
  `
  ALTER TABLE evaluations ADD COLUMN detail TEXT;
  `,
  // A claim as a self-contained statement, resolved once from its document by a model (null until then), the
  // atomic statements of a claim that states several facts (JSON, or null), and the resolver's tokens for it.
  `
  ALTER TABLE claims ADD COLUMN statement TEXT;
  ALTER TABLE claims ADD COLUMN parts TEXT;
  ALTER TABLE claims ADD COLUMN resolver_input_tokens INTEGER;
  ALTER TABLE claims ADD COLUMN resolver_output_tokens INTEGER;
  `,
  // The votes and the consensus of each part of a multi-fact claim (JSON arrays, in the claim's parts' order;
  // null for a claim of one fact).
  `
  ALTER TABLE evaluations ADD COLUMN parts TEXT;
  ALTER TABLE consensus ADD COLUMN parts TEXT;
  `,
  // Re-checks: results a check kept from an earlier one (its claim unchanged) name the check that found them, so
  // that they cost nothing and their tokens are not counted again.
  `
  ALTER TABLE evaluations ADD COLUMN carried_from TEXT;
  ALTER TABLE consensus ADD COLUMN carried_from TEXT;
  `,
  // Deep research runs on the job runner: when a run is next due (after a failed attempt, the runner's
  // backoff) and whether an attempt holds it now.
  `
  ALTER TABLE research ADD COLUMN available_at TEXT;
  ALTER TABLE research ADD COLUMN leased INTEGER NOT NULL DEFAULT 0;
  `,
  // A consensus's confidence through the calibration map fitted for its models (null without one).
  `
  ALTER TABLE consensus ADD COLUMN calibrated_confidence REAL;
  `,
  // A manuscript checked in parts: the manuscript each part's check belongs to, which part it is and of how many
  // (all null for a check of a whole text), found by the manuscript's id.
  `
  ALTER TABLE checks ADD COLUMN manuscript_id TEXT;
  ALTER TABLE checks ADD COLUMN manuscript_part INTEGER;
  ALTER TABLE checks ADD COLUMN manuscript_parts INTEGER;
  CREATE INDEX checks_by_manuscript ON checks (organization_id, manuscript_id) WHERE manuscript_id IS NOT NULL;
  `,
  // The steps of a model tier's verdict that fell back (a JSON list of Fallback; empty for verdicts before it).
  `
  ALTER TABLE consensus ADD COLUMN fallbacks TEXT NOT NULL DEFAULT '[]';
  `,
  // The source policy a check's t3 follows, as it stood when the check was submitted (JSON; null for a check
  // without t3, or one submitted before source policies).
  `
  ALTER TABLE checks ADD COLUMN source_policy TEXT;
  `,
  // How a claim's statement came to be (a StatementState; null until resolved): a claim the resolver failed on,
  // or whose statement was rejected, is checked as its words with the sentences around them after a restart
  // too. Statements resolved before were taken as they came.
  `
  ALTER TABLE claims ADD COLUMN statement_state TEXT;
  UPDATE claims SET statement_state = 'resolved' WHERE statement IS NOT NULL;
  `,
  // A cached vote keeps its kind (partly true, missing context, not checkable, no evidence); null for the votes
  // cached before it.
  `
  ALTER TABLE vote_cache ADD COLUMN detail TEXT;
  `,
  // Leases that replicas of a team server share (store/leases.ts): each lease of a unit, a research run, a webhook
  // event or a pending check carries a token, and its results are written only while the token is still the row's,
  // so that a holder whose lease expired and was taken over writes nothing. Webhook events and pending checks are
  // leased while an attempt runs, until lease_until; a unit or a run already had one.
  `
  ALTER TABLE units ADD COLUMN lease_id TEXT;
  ALTER TABLE research ADD COLUMN lease_until TEXT;
  ALTER TABLE research ADD COLUMN lease_id TEXT;
  ALTER TABLE webhook_events ADD COLUMN lease_until TEXT;
  ALTER TABLE webhook_events ADD COLUMN lease_id TEXT;
  ALTER TABLE pending_checks ADD COLUMN lease_until TEXT;
  ALTER TABLE pending_checks ADD COLUMN lease_id TEXT;
  `,
  // The keys a team server's replicas share, kept in its database (engineKeys.ts): the key that seals stored
  // secrets, or only its fingerprint when the key comes from FACTDESK_SECRET_KEY. A data folder's SQLite keeps this
  // table empty: its secrets are sealed with the folder's secret.key.
  `
  CREATE TABLE engine_keys (
    name TEXT PRIMARY KEY,
    key BLOB,
    fingerprint TEXT NOT NULL,
    created_at TEXT NOT NULL
  ) WITHOUT ROWID;
  `,
  // Report events in order, with an id that only grows (AUTOINCREMENT: never reused once pruned): a team server's
  // replicas share them through this table (base/events.ts); the body is the organization's `ReportUpdate` as
  // JSON. Kept a day at most.
  `
  CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    organization_id TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX events_by_organization ON events (organization_id, id);
  `,
  // The requests each organization made in the last minute, per limit (`limits.estimatesPerMinute`,
  // `limits.draftsPerMinute`): counted in the database, so that a team server's replicas count the same ones
  // (store/recentRequests.ts). A request's rows are forgotten once it is a minute old.
  `
  CREATE TABLE recent_requests (
    id INTEGER PRIMARY KEY,
    organization_id TEXT NOT NULL,
    limit_name TEXT NOT NULL,
    made_at TEXT NOT NULL
  );
  CREATE INDEX recent_requests_by_limit ON recent_requests (organization_id, limit_name, made_at);
  `,
]
