/**
 * A feature plugs into the server in up to three ways: named endpoints on the
 * WordPress-shaped entry points, plain Express routes (mounted before pages),
 * and a background task started after the server is up (stopped on shutdown).
 * Each feature lives in its own file in this folder and is listed in index.ts.
 */
import type express from "express";
import type { Env } from "../../core/config/env.server.ts";
import type { Registry } from "../http/dispatch.ts";
import type { RestRouter } from "../http/rest.ts";
import type { AppServices } from "../services.ts";
import type { Realtime } from "../realtime-wiring.ts";

/** The WordPress-shaped entry points a feature registers named endpoints on (server/app.ts builds them). */
export interface Endpoints {
  wcAjax: Registry;
  adminAjax: Registry;
  rest: RestRouter;
}

export interface StartContext {
  services: AppServices;
  realtime: Realtime;
  env: Env;
}

export interface Feature {
  name: string;
  endpoints?(endpoints: Endpoints, services: AppServices): void;
  routes?(app: express.Express, services: AppServices): void;
  /** Returns a function that stops what it started. */
  start?(ctx: StartContext): Promise<() => Promise<void>>;
}
