-- Live football: leagues, teams and matches behind the sports widgets (issue 7).
-- Written by the simulator or a provider's ingest; read by the hub's RPCs.
-- A match keeps its own copy of each team's score and periods; the team rows hold
-- what is shared between matches (name, badge, abbreviation).

CREATE TABLE sport_leagues (
  slug    text PRIMARY KEY,
  name    text NOT NULL,
  country text NOT NULL,
  image   text NOT NULL DEFAULT ''
);

CREATE TABLE sport_teams (
  slug         text PRIMARY KEY,
  name         text NOT NULL,
  image        text NOT NULL DEFAULT '',
  abbreviation text NOT NULL
);

CREATE TABLE sport_matches (
  slug          text PRIMARY KEY,
  league_slug   text NOT NULL REFERENCES sport_leagues (slug),
  home_slug     text NOT NULL REFERENCES sport_teams (slug),
  away_slug     text NOT NULL REFERENCES sport_teams (slug),
  kickoff       timestamptz NOT NULL,
  stage         text NOT NULL,
  match_time    jsonb NOT NULL DEFAULT 'null'::jsonb, -- a number, a string such as "45+2", or null
  home_score    integer CHECK (home_score >= 0),       -- NULL: unknown ('-')
  away_score    integer CHECK (away_score >= 0),
  home_periods  jsonb NOT NULL DEFAULT '{}'::jsonb,    -- {"1": 1, "2": 0, "et": null, "pen": 4}
  away_periods  jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sport_matches_kickoff_idx ON sport_matches (kickoff, slug);
CREATE INDEX sport_matches_stage_idx ON sport_matches (stage, kickoff);
