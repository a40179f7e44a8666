-- Every write through the staff REST API (and the admin, its client) leaves a line here: who, when, what
-- (docs/contract/wire.md §2.4 'Audit log'). `changes` holds the fields written, before and after where the route
-- knows them. Readable by administrators at GET /wp-json/shop/v1/audit-log.
CREATE TABLE audit_log (
  id          bigserial PRIMARY KEY,
  at          timestamptz NOT NULL DEFAULT now(),
  actor_id    integer REFERENCES customers (id) ON DELETE SET NULL,
  actor_label text NOT NULL,
  via         text NOT NULL,
  action      text NOT NULL,
  object_type text NOT NULL,
  object_id   text NOT NULL,
  changes     jsonb NOT NULL DEFAULT '{}'::jsonb,
  address     text
);
CREATE INDEX audit_log_at_idx ON audit_log (at DESC);
CREATE INDEX audit_log_object_idx ON audit_log (object_type, object_id, at DESC);
