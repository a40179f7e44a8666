/**
 * Product reviews and blog comments: the rules of a submission (WordPress's wp_handle_comment_submission and
 * WooCommerce's review rating check), the moderation statuses and the rating summary. Pure: the same parse runs in
 * the browser (before posting) and on the server (which decides). docs/contract/storefront.md §4 'Reviews and comments'.
 */
import { isDeliverableAddress } from "../../mail/address.ts";

export type CommentKind = "review" | "comment";

/** WordPress's comment_approved: '0' (pending), '1' (approved), 'spam', 'trash'. */
export const COMMENT_STATUSES = ["pending", "approved", "spam", "trash"] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];

/** What a moderator may do to a comment (the admin's row actions); each sets one status. */
export const MODERATION_ACTIONS = { approve: "approved", unapprove: "pending", spam: "spam", trash: "trash" } as const satisfies Record<string, CommentStatus>;
export type ModerationAction = keyof typeof MODERATION_ACTIONS;

export function isModerationAction(value: string): value is ModerationAction {
  return Object.hasOwn(MODERATION_ACTIONS, value);
}

/** WordPress's column limits (wp_get_comment_fields_max_lengths), with the shop's own, shorter, text limit. */
export const COMMENT_LIMITS = { author: 245, email: 100, content: 5000 } as const;

/** WordPress's and WooCommerce's own texts. */
export const COMMENT_MESSAGES = {
  requireNameEmail: "Please fill the required fields.",
  invalidEmail: "Please enter a valid email address.",
  requireContent: "Please type your comment text.",
  requireRating: "Please rate the product.",
  invalidRating: "The rating must be a whole number of stars from 1 to 5.",
  authorTooLong: "Your name is too long.",
  emailTooLong: "Your email address is too long.",
  contentTooLong: "Your comment is too long.",
  notFound: "Sorry, the item you are commenting on does not exist.",
  closed: "Sorry, comments are closed for this item.",
  mustLogIn: "Sorry, you must be logged in to comment.",
  verifiedOnly: "Only logged in customers who have purchased this product may leave a review.",
  duplicate: "Duplicate comment detected; it looks as though you\u2019ve already said that!",
  flood: "You are posting comments too quickly. Slow down.",
  reviewPending: "Your review is awaiting approval",
  commentPending: "Your comment is awaiting moderation.",
  thanks: {
    review: "Thank you for your review. It will be published once it has been approved.",
    comment: "Thank you for your comment. It will be published once it has been approved.",
  },
} as const;

/** Which field a refusal is about (the form marks it invalid); null for the whole submission. */
export type CommentField = "author" | "email" | "comment" | "rating";

export interface CommentInput {
  author: string;
  email: string;
  content: string;
  /** 1–5 for a review; null for a blog comment. */
  rating: number | null;
}

export type CommentParse = { ok: true; value: CommentInput } | { ok: false; field: CommentField; message: string };

/** Drops control characters other than tab and newlines, normalises line ends, trims. */
function clean(text: string): string {
  // Control characters (U+0000–U+001F, U+007F) except tab and line feed; C1 characters are left alone.
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/[^\P{Cc}\t\n\x80-\x9f]/gu, "")
    .trim();
}

/**
 * A submitted form (`author`, `email`, `comment`, `rating`), checked in WordPress's order. A signed-in author's name
 * and e-mail come from their account (`account`), never from the form.
 */
export function parseCommentForm(
  form: { author?: string | undefined; email?: string | undefined; comment?: string | undefined; rating?: string | undefined },
  opts: { kind: CommentKind; account: { name: string; email: string } | null },
): CommentParse {
  const author = opts.account ? opts.account.name : clean(form.author ?? "");
  const email = opts.account ? opts.account.email : clean(form.email ?? "");
  const content = clean(form.comment ?? "");
  if (!opts.account) {
    if (author.length > COMMENT_LIMITS.author) return { ok: false, field: "author", message: COMMENT_MESSAGES.authorTooLong };
    if (email.length > COMMENT_LIMITS.email) return { ok: false, field: "email", message: COMMENT_MESSAGES.emailTooLong };
    if (!author) return { ok: false, field: "author", message: COMMENT_MESSAGES.requireNameEmail };
    if (!email) return { ok: false, field: "email", message: COMMENT_MESSAGES.requireNameEmail };
    if (!isDeliverableAddress(email)) return { ok: false, field: "email", message: COMMENT_MESSAGES.invalidEmail };
  }
  let rating: number | null = null;
  if (opts.kind === "review") {
    const raw = (form.rating ?? "").trim();
    if (raw === "" || raw === "0") return { ok: false, field: "rating", message: COMMENT_MESSAGES.requireRating };
    if (!/^[1-5]$/.test(raw)) return { ok: false, field: "rating", message: COMMENT_MESSAGES.invalidRating };
    rating = Number(raw);
  }
  if (!content) return { ok: false, field: "comment", message: COMMENT_MESSAGES.requireContent };
  if (content.length > COMMENT_LIMITS.content) return { ok: false, field: "comment", message: COMMENT_MESSAGES.contentTooLong };
  return { ok: true, value: { author: author.slice(0, COMMENT_LIMITS.author), email, content, rating } };
}

/** The product's average rating (two decimals, as WooCommerce stores it) and count, over its approved reviews. */
export function ratingSummary(ratings: readonly number[]): { average: number; count: number } {
  if (!ratings.length) return { average: 0, count: 0 };
  const sum = ratings.reduce((a, b) => a + b, 0);
  return { average: Math.round((sum / ratings.length) * 100) / 100, count: ratings.length };
}

/** A comment as a page shows it (never the author's e-mail). */
export interface CommentView {
  id: number;
  /** The comment or review it replies to (WordPress's comment_parent), or null. */
  parentId: number | null;
  author: string;
  content: string;
  rating: number | null;
  verified: boolean;
  /** Awaiting moderation: only ever shown to its own author. */
  pending: boolean;
  createdAt: string;
}

/** A comment with the replies shown under it. */
export interface CommentThread {
  comment: CommentView;
  replies: CommentThread[];
}

/**
 * WordPress's threaded comments: each reply under the comment (or review) it answers, replies in the order they were
 * written, top-level ones in the list's own order. A reply whose parent is not shown (held, spam, trash, or beyond
 * the list) is not shown either, as WordPress's walker leaves it out.
 */
export function threadComments(list: readonly CommentView[]): CommentThread[] {
  const shown = new Set(list.map((c) => c.id));
  const children = new Map<number, CommentView[]>();
  for (const c of list) if (c.parentId !== null && shown.has(c.parentId)) children.set(c.parentId, [...(children.get(c.parentId) ?? []), c]);
  const build = (c: CommentView, depth: number): CommentThread => ({
    comment: c,
    replies:
      depth > 10
        ? []
        : (children.get(c.id) ?? [])
            .slice()
            .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id - b.id))
            .map((r) => build(r, depth + 1)),
  });
  return list.filter((c) => c.parentId === null).map((c) => build(c, 0));
}

/** The list without the replies threadComments would leave out (so the page's data does not carry them either). */
export function withoutOrphans(list: readonly CommentView[]): CommentView[] {
  const kept = new Set<number>();
  const flatten = (t: CommentThread) => {
    kept.add(t.comment.id);
    t.replies.forEach(flatten);
  };
  threadComments(list).forEach(flatten);
  return list.filter((c) => kept.has(c.id));
}

/** A refused no-JavaScript submission: the message and what was typed, shown once on the form it came from. */
export interface CommentFlash {
  targetId: number;
  message: string;
  field: CommentField | null;
  values: { author: string; email: string; comment: string; rating: string };
}

/** What the item's page needs to show its comments and the form. */
export interface CommentsSectionData {
  kind: CommentKind;
  targetId: number;
  title: string;
  open: boolean;
  comments: CommentView[];
  /** The signed-in author's name (the form then asks for no name or e-mail), or null for a guest. */
  account: { name: string } | null;
  /** A guest may post (the shop allows guests) or the visitor is signed in. */
  mayPost: boolean;
  /** Only customers who bought the product may review it. */
  verifiedOnly: boolean;
  flash: CommentFlash | null;
}
