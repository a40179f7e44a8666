-- Marketing popups (docs/contract/storefront.md §3 'Popup settings', §4 'Popups'): each popup is one row whose
-- settings passed core/domain/popups/settings.ts (the seed, the REST API and later the admin all go through it).
CREATE TABLE popups (
  id         serial PRIMARY KEY,
  settings   jsonb NOT NULL CHECK (jsonb_typeof(settings) = 'object'),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- What shoppers did with each popup, posted by the browser (impression, close, do-not-show-again) or proved by an
-- order this session placed after the popup was shown (conversion, at most once per popup and order). client_key is
-- the browser's key (or its address), for the per-client limit and to tie a conversion to an earlier impression.
CREATE TABLE popup_events (
  id         bigserial PRIMARY KEY,
  popup_id   integer NOT NULL REFERENCES popups (id) ON DELETE CASCADE,
  kind       text NOT NULL CHECK (kind IN ('impression', 'close', 'do_not_show_again', 'conversion')),
  client_key text NOT NULL,
  order_id   integer REFERENCES orders (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX popup_events_popup_kind ON popup_events (popup_id, kind);
CREATE INDEX popup_events_client_time ON popup_events (client_key, created_at);
CREATE UNIQUE INDEX popup_events_one_conversion ON popup_events (popup_id, order_id) WHERE kind = 'conversion';
