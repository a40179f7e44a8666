/**
 * Moderation's rules for the Reviews & comments screen (docs/contract/admin.md 'Reviews & comments'): which actions a
 * row offers in each status, the request each action is for a review (`wc/v3/products/reviews`) or a post comment
 * (`wp/v2/comments`), and the status the screen shows before the server answers (the server's answer then wins).
 */
import { getWithHeaders, query, send } from "./api.ts";

export type Kind = "review" | "comment";
export type ModStatus = "hold" | "approved" | "spam" | "trash";
export type ModAction = "approve" | "unapprove" | "spam" | "unspam" | "trash" | "restore" | "delete";

export const STATUSES: readonly ModStatus[] = ["hold", "approved", "spam", "trash"];
export const STATUS_LABELS: Record<ModStatus, string> = { hold: "Pending", approved: "Approved", spam: "Spam", trash: "Trash" };
export const ACTION_LABELS: Record<ModAction, string> = {
  approve: "Approve",
  unapprove: "Unapprove",
  spam: "Spam",
  unspam: "Not spam",
  trash: "Trash",
  restore: "Restore",
  delete: "Delete permanently",
};
/** What a notice says happened ("Review by Ann approved."). */
export const ACTION_DONE: Record<ModAction, string> = {
  approve: "approved",
  unapprove: "unapproved",
  spam: "marked as spam",
  unspam: "restored from spam",
  trash: "moved to the trash",
  restore: "restored from the trash",
  delete: "deleted permanently",
};

export const ACTIONS_BY_STATUS: Record<ModStatus, readonly ModAction[]> = {
  hold: ["approve", "spam", "trash"],
  approved: ["unapprove", "spam", "trash"],
  spam: ["unspam", "delete"],
  trash: ["restore", "delete"],
};

/**
 * The status shown at once (null: the row is gone). Leaving spam or the trash returns a review to the status it had
 * before (the API remembers it); the screen shows Pending until the answer says which.
 */
export function optimisticStatus(action: ModAction): ModStatus | null {
  return action === "approve" ? "approved" : action === "spam" ? "spam" : action === "trash" ? "trash" : action === "delete" ? null : "hold";
}

/** One review or comment as the screen shows it, from either API. */
export interface ModRow {
  kind: Kind;
  id: number;
  author: string;
  email: string;
  text: string;
  status: ModStatus;
  date: string;
  /** The product or post it is on (a comment on a product is the shop's reply to one of its reviews). */
  targetId: number;
  onProduct: boolean;
  /** The review or comment it replies to, or 0. */
  parent: number;
  targetName: string;
  targetUrl: string;
  rating: number | null;
}

interface RestReview {
  id: number;
  date_created: string;
  product_id: number;
  product_name: string;
  product_permalink: string;
  status: string;
  reviewer: string;
  reviewer_email: string;
  review: string;
  rating: number;
}
interface RestComment {
  id: number;
  post: number;
  parent?: number;
  _links?: { up?: { post_type?: string }[] };
  author_name: string;
  author_email?: string;
  date: string;
  content: { raw?: string; rendered: string };
  link: string;
  status: string;
}

const asStatus = (s: string): ModStatus => ((STATUSES as readonly string[]).includes(s) ? (s as ModStatus) : "hold");

const fromReview = (r: RestReview): ModRow => ({
  kind: "review",
  id: r.id,
  author: r.reviewer,
  email: r.reviewer_email,
  text: r.review,
  status: asStatus(r.status),
  date: r.date_created,
  targetId: r.product_id,
  onProduct: true,
  parent: 0,
  targetName: r.product_name,
  targetUrl: r.product_permalink,
  rating: r.rating || null,
});

const fromComment = (c: RestComment, titles: Map<number, string>): ModRow => ({
  kind: "comment",
  id: c.id,
  author: c.author_name,
  email: c.author_email ?? "",
  text: c.content.raw ?? c.content.rendered,
  status: asStatus(c.status),
  date: c.date,
  targetId: c.post,
  onProduct: c._links?.up?.[0]?.post_type === "product",
  parent: c.parent ?? 0,
  targetName: titles.get(c.post) ?? `${c._links?.up?.[0]?.post_type === "product" ? "Product" : "Post"} ${c.post}`,
  targetUrl: c.link.replace(/#comment-\d+$/, ""),
  rating: null,
});

const base = (kind: Kind) => (kind === "review" ? "/wc/v3/products/reviews" : "/wp/v2/comments");

/** A page of one status, newest first, with the totals. */
export async function loadPage(kind: Kind, status: ModStatus, page: number, perPage: number) {
  const q = query({ status, page, per_page: perPage, context: "edit", order: "desc" });
  if (kind === "review") {
    const { body, headers } = await getWithHeaders<RestReview[]>(`${base(kind)}?${q}`);
    return { rows: body.map(fromReview), total: Number(headers.get("X-WP-Total") ?? body.length), pages: Number(headers.get("X-WP-TotalPages") ?? 1) };
  }
  const { body, headers } = await getWithHeaders<RestComment[]>(`${base(kind)}?${q}`);
  const onProduct = (c: RestComment) => c._links?.up?.[0]?.post_type === "product";
  const ids = [...new Set(body.filter((c) => !onProduct(c)).map((c) => c.post))];
  const productIds = [...new Set(body.filter(onProduct).map((c) => c.post))];
  const titles = new Map<number, string>();
  const [posts, products] = await Promise.all([
    // The posts' titles (any status: a comment may sit on a draft), and the products' names for replies to reviews.
    ids.length
      ? getWithHeaders<{ id: number; title: { rendered: string } }[]>(
          `/wp/v2/posts?${query({ include: ids.join(","), per_page: 100, status: "any", _fields: "id,title" })}`,
        ).catch(() => null)
      : null,
    productIds.length
      ? getWithHeaders<{ id: number; name: string }[]>(`/wc/v3/products?${query({ include: productIds.join(","), per_page: 100, status: "any" })}`).catch(
          () => null,
        )
      : null,
  ]);
  for (const p of posts?.body ?? []) titles.set(p.id, new DOMParser().parseFromString(p.title.rendered, "text/html").body.textContent ?? "");
  for (const p of products?.body ?? []) titles.set(p.id, p.name);
  return {
    rows: body.map((c) => fromComment(c, titles)),
    total: Number(headers.get("X-WP-Total") ?? body.length),
    pages: Number(headers.get("X-WP-TotalPages") ?? 1),
  };
}

/** Each status's count (the list's X-WP-Total for one row). */
export async function loadCounts(kind: Kind): Promise<Record<ModStatus, number>> {
  const answers = await Promise.all(STATUSES.map((s) => getWithHeaders<unknown[]>(`${base(kind)}?${query({ status: s, per_page: 1, _fields: "id" })}`)));
  return Object.fromEntries(answers.map((a, i) => [STATUSES[i]!, Number(a.headers.get("X-WP-Total") ?? 0)])) as Record<ModStatus, number>;
}

/** The status field each action sends (a review leaves spam and the trash by `unspam` / `untrash`, to its earlier status). */
function statusSent(kind: Kind, action: Exclude<ModAction, "delete">): string {
  if (action === "approve") return "approved";
  if (action === "unapprove") return "hold";
  if (action === "spam") return "spam";
  if (action === "trash") return "trash";
  if (kind === "review") return action === "unspam" ? "unspam" : "untrash";
  return "hold"; // wp/v2/comments keeps no earlier status: a comment taken out of spam or the trash waits in Pending
}

/** The server's row after the action, or null when it was deleted; throws the API's RestError. */
export async function perform(row: ModRow, action: ModAction): Promise<ModRow | null> {
  const path = `${base(row.kind)}/${row.id}`;
  if (action === "delete") {
    await send(`${path}?force=true`, "DELETE", undefined);
    return null;
  }
  const { body } = await send<RestReview & RestComment>(`${path}?context=edit`, "PUT", { status: statusSent(row.kind, action) });
  return row.kind === "review" ? fromReview(body) : { ...fromComment(body, new Map()), targetName: row.targetName };
}

/**
 * A reply as the shop (the signed-in staff member), approved at once: WordPress's `POST wp/v2/comments` with the
 * product's or post's id and the review or comment as `parent` (threaded under it on the storefront).
 */
export async function replyTo(row: ModRow, content: string): Promise<void> {
  await send("/wp/v2/comments", "POST", { post: row.targetId, parent: row.id, content });
}

/** New text for a review (`review` of wc/v3/products/reviews) or a comment (`content` of wp/v2/comments); the server's row. */
export async function editText(row: ModRow, text: string): Promise<ModRow> {
  if (row.kind === "review") {
    const { body } = await send<RestReview>(`${base("review")}/${row.id}?context=edit`, "PUT", { review: text });
    return fromReview(body);
  }
  const { body } = await send<RestComment>(`${base("comment")}/${row.id}?context=edit`, "POST", { content: text });
  return { ...fromComment(body, new Map()), targetName: row.targetName };
}
