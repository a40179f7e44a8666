/**
 * POST /wp-comments-post.php: product reviews and blog comments, in WordPress's wire shape (docs/contract/storefront.md
 * §4 'Reviews and comments'). A form post (no JavaScript) is answered with a redirect back to the item: to the new
 * comment (shown to its author with the moderation notice) or, when refused, to the form with the message and what
 * was typed. The page's script posts the same form with `Accept: application/json` and gets the outcome as JSON.
 */
import express, { type Request, type Response } from "express";
import type { AppServices } from "../services.ts";
import type { Feature } from "./feature.ts";
import { firstString } from "../http/dispatch.ts";
import { rememberOwnComment, setCommentFlash, submitComment } from "../../core/commerce/comments.ts";
import { COMMENT_MESSAGES } from "../../core/domain/comments/comments.ts";
import { escapeHtml } from "../../core/domain/text/html.ts";

export const COMMENTS_POST_PATH = "/wp-comments-post.php";

/** comment_post_ID: a strict positive id, else null. */
function parseId(raw: unknown): number | null {
  const text = firstString(raw)?.trim() ?? "";
  if (!/^[1-9][0-9]{0,9}$/.test(text)) return null;
  const n = Number(text);
  return n <= 2_147_483_647 ? n : null;
}

/** WordPress's wp_die page for a refusal that has no form to go back to. */
function failurePage(message: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Comment Submission Failure</title></head><body><main><h1>Comment Submission Failure</h1><p role="alert">${escapeHtml(message)}</p><p><a href="/">Back to the shop</a></p></main></body></html>`;
}

async function handle(req: Request, res: Response, services: AppServices): Promise<void> {
  const wantsJson = /\bapplication\/json\b/.test(req.get("accept") ?? "");
  const body = (req.body && typeof req.body === "object" ? req.body : {}) as Record<string, unknown>;
  const field = (name: string) => firstString(body[name]);
  await req.shop.session();
  // The flood limits count the browser (its key, given now to a visitor who has seen only cached pages) and, apart, its
  // address (core/commerce/comments.ts).
  const browserKey = req.shop.browserKey();
  const address = req.ip ?? "unknown";
  const result = await submitComment(services.db, {
    targetId: parseId(body.comment_post_ID),
    form: { author: field("author"), email: field("email"), comment: field("comment"), rating: field("rating") },
    customerId: req.shop.customerId() || null,
    client: { key: `browser:${browserKey}`, address },
    now: services.now(),
    settings: services.config.comments,
  });
  if (result.ok) {
    await rememberOwnComment(req.shop, result.id);
    await req.shop.flush();
    const message = COMMENT_MESSAGES.thanks[result.target.kind];
    if (wantsJson) return void res.status(201).json({ success: true, data: { id: result.id, status: "pending", verified: result.verified, message } });
    return void res.redirect(302, `${result.target.path}#comment-${result.id}`);
  }
  if (wantsJson) return void res.status(result.status).json({ success: false, data: { code: result.code, message: result.message, field: result.field } });
  if (!result.target) return void res.status(result.status).type("html").send(failurePage(result.message));
  await setCommentFlash(req.shop, {
    targetId: result.target.id,
    message: result.message,
    field: result.field,
    values: { author: field("author") ?? "", email: field("email") ?? "", comment: field("comment") ?? "", rating: field("rating") ?? "" },
  });
  await req.shop.flush();
  res.redirect(302, `${result.target.path}#respond`);
}

export const commentsFeature: Feature = {
  name: "comments",
  routes(app, services) {
    const readForm = express.urlencoded({ extended: false, limit: services.config.limits.requestBodyBytes, parameterLimit: 100 });
    app.post(COMMENTS_POST_PATH, readForm, (req, res, next) => {
      handle(req, res, services).catch(next);
    });
    app.all(COMMENTS_POST_PATH, (_req, res) => {
      res.status(405).set("Allow", "POST").type("html").send(failurePage("Comments are submitted with the comment form."));
    });
  },
};
