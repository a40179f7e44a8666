-- Application passwords (WordPress's, docs/contract/rest/auth.md): an account's passwords for integrations, sent as
-- HTTP Basic to the REST API only. The password itself is random (24 characters) and shown once; only a keyed
-- SHA-256 of it is stored (decision 0019). last_used_at / last_ip are refreshed at most once a minute.
CREATE TABLE application_passwords (
  uuid          uuid PRIMARY KEY,
  customer_id   integer NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  app_id        text NOT NULL DEFAULT '',
  name          text NOT NULL,
  password_hash text NOT NULL UNIQUE,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz,
  last_ip       text
);
CREATE INDEX application_passwords_customer_idx ON application_passwords (customer_id, created_at);
