/**
 * The admin bundle's files (/wp-admin-app/admin.js and admin.css, built by scripts/build-admin.ts) under an address
 * that changes with their bytes: the admin's pages ask for `?v={version}`, and such a request is cached for a year,
 * so an owner's browser never runs last release's admin against this release's API (a plain 1 h cache could) and
 * never asks again for bytes it has. docs/contract/admin.md 'The admin's own files'.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import express from "express";

export const ADMIN_ASSETS_PATH = "/wp-admin-app";
const FILES = ["admin.js", "admin.css"];
/** A chunk admin.js imports (admin-core-{hash}.js, RichTextEditor-{hash}.js, decision 0046): its name changes with its bytes. */
const HASHED_CHUNK = /^\/[A-Za-z][\w-]*-[\w-]{8}\.js$/;

/** The version of the built admin files in `clientDir`: a hash of their bytes, or null when they are not built. */
export function adminAssetVersion(clientDir: string): string | null {
  const hash = createHash("sha256");
  try {
    for (const file of FILES) hash.update(readFileSync(path.join(clientDir, ADMIN_ASSETS_PATH, file)));
  } catch {
    return null;
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * Serves the admin's files: for a request naming the current version, and for a chunk whose name carries the hash of
 * its bytes, as immutable for a year; for any other (an
 * address without a version, or an old page's), to be revalidated each time (`no-cache`, answered 304 while the
 * bytes are the same).
 */
export function adminAssets(clientDir: string, version: string | null): express.RequestHandler {
  const dir = path.join(clientDir, ADMIN_ASSETS_PATH);
  const immutable = express.static(dir, { immutable: true, maxAge: "1y", index: false });
  const revalidated = express.static(dir, { maxAge: 0, index: false, setHeaders: (res) => res.setHeader("Cache-Control", "no-cache") });
  return (req, res, next) => ((version !== null && req.query.v === version) || HASHED_CHUNK.test(req.path) ? immutable : revalidated)(req, res, next);
}
