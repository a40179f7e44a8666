/**
 * Submitting and moderating product reviews and blog comments (docs/contract/storefront.md §4 'Reviews and
 * comments'). A submission is checked in WordPress's order (the item, closed comments, who may comment, the fields,
 * duplicates, the flood limits) and stored as pending; nothing is stored when any check refuses it. Moderation is
 * the function the REST API and the admin call: it sets the status and keeps the product's rating columns true.
 */
import type { Db } from "../db/client.ts";
import type { SiteConfig } from "../config/site-config.ts";
import * as comments from "../db/repositories/comments.ts";
import { findCustomerProfile, type CustomerProfile } from "../db/repositories/customers.ts";
import {
  COMMENT_MESSAGES,
  MODERATION_ACTIONS,
  parseCommentForm,
  type CommentField,
  type CommentFlash,
  type CommentsSectionData,
  type ModerationAction,
  withoutOrphans,
} from "../domain/comments/comments.ts";
import { consumeLimits } from "./rate-limits.ts";
import type { ShopSession } from "./session.ts";

export interface CommentSubmission {
  /** comment_post_ID as posted: the product's or the post's id. */
  targetId: number | null;
  form: { author?: string | undefined; email?: string | undefined; comment?: string | undefined; rating?: string | undefined };
  customerId: number | null;
  /** Who is counted by the flood limits: the browser (its key or session) and its address. */
  client: { key: string; address: string };
  now: Date;
  settings: SiteConfig["comments"];
}

export type SubmitRefusal = {
  ok: false;
  /** WordPress's error codes; `status` is the HTTP status wp-comments-post.php answers with. */
  code: "comment_id_not_found" | "comment_closed" | "not_logged_in" | "invalid" | "not_verified" | "comment_duplicate" | "comment_flood";
  status: number;
  message: string;
  field: CommentField | null;
  target: comments.CommentTarget | null;
};

export type SubmitResult = { ok: true; id: number; target: comments.CommentTarget; verified: boolean } | SubmitRefusal;

const HOUR = 3_600_000;

/** The name a signed-in author's comments carry (WordPress's display name). */
const authorName = (p: CustomerProfile) => p.displayName || [p.firstName, p.lastName].filter(Boolean).join(" ") || p.email.split("@")[0]!;

export async function submitComment(db: Db, s: CommentSubmission): Promise<SubmitResult> {
  const refuse = (
    code: SubmitRefusal["code"],
    status: number,
    message: string,
    target: comments.CommentTarget | null,
    field: CommentField | null = null,
  ): SubmitRefusal => ({
    ok: false,
    code,
    status,
    message,
    field,
    target,
  });
  const target = s.targetId === null ? null : await comments.findCommentTarget(db, s.targetId);
  if (!target) return refuse("comment_id_not_found", 404, COMMENT_MESSAGES.notFound, null);
  if (!target.open) return refuse("comment_closed", 403, COMMENT_MESSAGES.closed, target);
  const profile = s.customerId ? await findCustomerProfile(db, s.customerId) : null;
  if (!profile && !s.settings.allowGuests) return refuse("not_logged_in", 403, COMMENT_MESSAGES.mustLogIn, target);
  const account = profile ? { name: authorName(profile), email: profile.email } : null;
  const parsed = parseCommentForm(s.form, { kind: target.kind, account });
  if (!parsed.ok) return refuse("invalid", 400, parsed.message, target, parsed.field);
  const input = parsed.value;
  const verified = target.kind === "review" && (await comments.customerBoughtProduct(db, { customerId: profile?.id ?? null, email: input.email }, target.id));
  if (target.kind === "review" && s.settings.reviewsVerifiedOnly && !(profile && verified))
    return refuse("not_verified", 403, COMMENT_MESSAGES.verifiedOnly, target);
  const duplicate = await comments.isDuplicateComment(db, { targetId: target.id, kind: target.kind, customerId: profile?.id ?? null, ...input });
  if (duplicate) return refuse("comment_duplicate", 409, COMMENT_MESSAGES.duplicate, target, "comment");
  const taken = await consumeLimits(db, s.now, [
    { kind: "comment_flood", scope: "session", subject: s.client.key, max: 1, windowMs: s.settings.floodSeconds * 1000 },
    { kind: "comment", scope: "session", subject: s.client.key, max: s.settings.perClientPerHour, windowMs: HOUR },
    { kind: "comment", scope: "address", subject: s.client.address, max: s.settings.perAddressPerHour, windowMs: HOUR },
  ]);
  if (!taken.ok) return refuse("comment_flood", 429, COMMENT_MESSAGES.flood, target);
  const id = await comments.insertComment(db, {
    kind: target.kind,
    targetId: target.id,
    customerId: profile?.id ?? null,
    author: input.author,
    email: input.email,
    content: input.content,
    rating: input.rating,
    verified,
    status: "pending",
    at: s.now,
  });
  return { ok: true, id, target, verified };
}

/**
 * Moderates one comment (approve, unapprove, spam, trash): sets its status and, for a review, recounts the product's
 * average rating and review count in the same transaction. Null when there is no such comment.
 */
export async function moderateComment(db: Db, id: number, action: ModerationAction): Promise<comments.ModerationRow | null> {
  return db.transaction(async (tx) => {
    const row = await comments.updateCommentStatus(tx, id, MODERATION_ACTIONS[action]);
    if (row?.kind === "review") await comments.recountProductRating(tx, row.targetId);
    return row;
  });
}

// ---------------------------------------------------------------------------------------------------
// What the session remembers between the post and the page it redirects back to
// ---------------------------------------------------------------------------------------------------

/** The ids of this browser's own pending comments (shown to it with the moderation notice), newest last. */
const OWN_COMMENTS_KEY = "own_comments";
/** A refused no-JavaScript submission (CommentFlash), shown once on the form it came from. */
const COMMENT_FLASH_KEY = "comment_form";
const OWN_COMMENTS_KEPT = 20;

export async function rememberOwnComment(shop: ShopSession, id: number): Promise<void> {
  await shop.updateSessionData((d) => {
    const ids = Array.isArray(d[OWN_COMMENTS_KEY]) ? (d[OWN_COMMENTS_KEY] as unknown[]).filter((x): x is number => Number.isInteger(x)) : [];
    d[OWN_COMMENTS_KEY] = [...ids, id].slice(-OWN_COMMENTS_KEPT);
  });
}

export async function ownCommentIds(shop: ShopSession): Promise<number[]> {
  const ids = (await shop.session())?.data[OWN_COMMENTS_KEY];
  return Array.isArray(ids) ? ids.filter((x): x is number => Number.isInteger(x)) : [];
}

export async function setCommentFlash(shop: ShopSession, flash: CommentFlash): Promise<void> {
  const cut = (v: string) => v.slice(0, 10_000);
  const values = { author: cut(flash.values.author), email: cut(flash.values.email), comment: cut(flash.values.comment), rating: cut(flash.values.rating) };
  await shop.updateSessionData((d) => void (d[COMMENT_FLASH_KEY] = { ...flash, values }));
}

/** The flash for this item, taken (shown once); a flash for another item stays for its own page. */
export async function takeCommentFlash(shop: ShopSession, targetId: number): Promise<CommentFlash | null> {
  const flash = (await shop.session())?.data[COMMENT_FLASH_KEY] as CommentFlash | undefined;
  if (!flash || flash.targetId !== targetId) return null;
  await shop.updateSessionData((d) => delete d[COMMENT_FLASH_KEY]);
  return flash;
}

/**
 * What an item's page shows of its comments: the approved ones and the visitor's own pending ones, who may post,
 * and the refused submission to show again (taken once). Null when the id names no published product or post.
 */
export async function commentsSection(db: Db, shop: ShopSession, settings: SiteConfig["comments"], targetId: number): Promise<CommentsSectionData | null> {
  await shop.session();
  const customerId = shop.customerId() || null;
  const target = await comments.findCommentTarget(db, targetId);
  if (!target) return null;
  const [list, flash, profile] = await Promise.all([
    comments.visibleComments(db, target, { customerId, ownIds: await ownCommentIds(shop) }),
    takeCommentFlash(shop, target.id),
    customerId ? findCustomerProfile(db, customerId) : null,
  ]);
  return {
    kind: target.kind,
    targetId: target.id,
    title: target.title,
    open: target.open,
    comments: withoutOrphans(list),
    account: profile ? { name: authorName(profile) } : null,
    mayPost: profile !== null || settings.allowGuests,
    verifiedOnly: target.kind === "review" && settings.reviewsVerifiedOnly,
    flash,
  };
}
