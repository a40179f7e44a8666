import { describe, expect, it } from "vitest";
import {
  COMMENT_LIMITS,
  COMMENT_MESSAGES,
  MODERATION_ACTIONS,
  isModerationAction,
  parseCommentForm,
  ratingSummary,
  threadComments,
  withoutOrphans,
  type CommentView,
} from "./comments.ts";

const guest = { kind: "review" as const, account: null };
const valid = { author: "Ada", email: "ada@example.com", comment: "Lovely mask.", rating: "4" };

describe("parseCommentForm", () => {
  it("accepts a guest's review and cleans the text", () => {
    const r = parseCommentForm({ ...valid, author: "  Ada ", comment: " a\u0000b\r\nc\u007f\td " }, guest);
    expect(r).toEqual({ ok: true, value: { author: "Ada", email: "ada@example.com", content: "ab\nc\td", rating: 4 } });
  });

  it("takes a signed-in author's name and e-mail from the account, never from the form", () => {
    const r = parseCommentForm(
      { author: "Someone else", email: "", comment: "Nice", rating: "5" },
      { kind: "review", account: { name: "Ada L", email: "ada@x.org" } },
    );
    expect(r).toEqual({ ok: true, value: { author: "Ada L", email: "ada@x.org", content: "Nice", rating: 5 } });
  });

  it("refuses missing or malformed fields with WordPress's and WooCommerce's messages, naming the field", () => {
    const cases: [Partial<typeof valid>, string, string][] = [
      [{ author: "" }, "author", COMMENT_MESSAGES.requireNameEmail],
      [{ email: " " }, "email", COMMENT_MESSAGES.requireNameEmail],
      [{ email: "not-an-address" }, "email", COMMENT_MESSAGES.invalidEmail],
      [{ email: "a@b.com, c@d.com" }, "email", COMMENT_MESSAGES.invalidEmail],
      [{ rating: "" }, "rating", COMMENT_MESSAGES.requireRating],
      [{ rating: "0" }, "rating", COMMENT_MESSAGES.requireRating],
      [{ rating: "6" }, "rating", COMMENT_MESSAGES.invalidRating],
      [{ rating: "4.5" }, "rating", COMMENT_MESSAGES.invalidRating],
      [{ rating: "-1" }, "rating", COMMENT_MESSAGES.invalidRating],
      [{ comment: " \u0000 " }, "comment", COMMENT_MESSAGES.requireContent],
      [{ comment: "x".repeat(COMMENT_LIMITS.content + 1) }, "comment", COMMENT_MESSAGES.contentTooLong],
      [{ author: "x".repeat(COMMENT_LIMITS.author + 1) }, "author", COMMENT_MESSAGES.authorTooLong],
      [{ email: `${"x".repeat(COMMENT_LIMITS.email)}@example.com` }, "email", COMMENT_MESSAGES.emailTooLong],
    ];
    for (const [change, field, message] of cases) expect(parseCommentForm({ ...valid, ...change }, guest)).toEqual({ ok: false, field, message });
  });

  it("a blog comment has no rating: one posted anyway is ignored", () => {
    expect(parseCommentForm({ ...valid, rating: "9" }, { kind: "comment", account: null })).toEqual({
      ok: true,
      value: { author: "Ada", email: "ada@example.com", content: "Lovely mask.", rating: null },
    });
  });

  it("keeps markup as text (the page escapes it when it prints)", () => {
    const r = parseCommentForm({ ...valid, comment: "<script>alert(1)</script>" }, guest);
    expect(r.ok && r.value.content).toBe("<script>alert(1)</script>");
  });
});

describe("ratingSummary", () => {
  it("averages to two decimals and counts", () => {
    expect(ratingSummary([])).toEqual({ average: 0, count: 0 });
    expect(ratingSummary([5, 4, 4])).toEqual({ average: 4.33, count: 3 });
    expect(ratingSummary([1, 2])).toEqual({ average: 1.5, count: 2 });
  });
});

describe("moderation actions", () => {
  it("name one status each; anything else is not an action", () => {
    expect(MODERATION_ACTIONS).toEqual({ approve: "approved", unapprove: "pending", spam: "spam", trash: "trash" });
    expect(isModerationAction("approve")).toBe(true);
    expect(isModerationAction("toString")).toBe(false);
    expect(isModerationAction("delete")).toBe(false);
  });
});

describe("threadComments (WordPress's threaded comments)", () => {
  const c = (id: number, parentId: number | null, createdAt: string): CommentView => ({
    id,
    parentId,
    author: `a${id}`,
    content: `c${id}`,
    rating: parentId === null ? 5 : null,
    verified: false,
    pending: false,
    createdAt,
  });

  it("puts each reply under its parent, oldest first, keeping the top level's own order", () => {
    // Reviews come newest first; their replies read as a conversation.
    const list = [c(3, null, "2026-01-03"), c(5, 1, "2026-01-05"), c(4, 1, "2026-01-04"), c(1, null, "2026-01-01"), c(6, 4, "2026-01-06")];
    const threads = threadComments(list);
    expect(threads.map((t) => t.comment.id)).toEqual([3, 1]);
    expect(threads[1]!.replies.map((t) => t.comment.id)).toEqual([4, 5]);
    expect(threads[1]!.replies[0]!.replies.map((t) => t.comment.id)).toEqual([6]);
  });

  it("leaves out a reply whose parent is not shown, and its own replies, from the threads and the page's data", () => {
    const list = [c(1, null, "2026-01-01"), c(2, 9, "2026-01-02"), c(3, 2, "2026-01-03")];
    expect(threadComments(list).map((t) => t.comment.id)).toEqual([1]);
    expect(withoutOrphans(list).map((x) => x.id)).toEqual([1]);
  });
});
