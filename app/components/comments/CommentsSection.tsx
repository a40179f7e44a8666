/**
 * Product reviews and blog comments: the list (approved ones, and the visitor's own awaiting moderation) and the form,
 * in WooCommerce's and WordPress's markup (docs/contract/storefront.md §4 'Reviews and comments'). The form posts to
 * /wp-comments-post.php and works without JavaScript (the server redirects back); with it, the same post goes by
 * fetch, checked first with the server's own rules, and the outcome is announced without leaving the page.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useRevalidator } from "react-router";
import {
  COMMENT_MESSAGES,
  parseCommentForm,
  threadComments,
  type CommentField,
  type CommentsSectionData,
  type CommentThread,
} from "../../../core/domain/comments/comments.ts";
import { formatDate } from "../../lib/format.ts";
import { StarRating } from "../product/StarRating.tsx";
import { useHydrated } from "../../lib/use-hydrated.ts";

const POST_PATH = "/wp-comments-post.php";
const ERROR_ID = "comment-form-error";

/** A thread's replies, as WordPress nests them (`ul.children` inside the parent's `li`). */
function Replies({ thread, as: Item }: { thread: CommentThread; as: (p: { thread: CommentThread }) => ReactNode }) {
  return thread.replies.length ? (
    <ul className="children">
      {thread.replies.map((r) => (
        <Item key={r.comment.id} thread={r} />
      ))}
    </ul>
  ) : null;
}

function Review({ thread }: { thread: CommentThread }) {
  const c = thread.comment;
  return (
    <li className={`review comment${c.pending ? " comment-awaiting-moderation" : ""}`} id={`li-comment-${c.id}`}>
      <div id={`comment-${c.id}`} className="comment_container">
        <div className="comment-text">
          {c.rating ? <StarRating average={c.rating} count={1} /> : null}
          <p className="meta">
            {c.pending ? (
              <em className="woocommerce-review__awaiting-approval">{COMMENT_MESSAGES.reviewPending}</em>
            ) : (
              <>
                <strong className="woocommerce-review__author">{c.author}</strong>{" "}
                {c.verified ? <em className="woocommerce-review__verified verified">(verified owner)</em> : null}{" "}
                <span className="woocommerce-review__dash" aria-hidden="true">
                  –
                </span>{" "}
                <time className="woocommerce-review__published-date" dateTime={c.createdAt}>
                  {formatDate(c.createdAt)}
                </time>
              </>
            )}
          </p>
          <div className="description">
            <p>{c.content}</p>
          </div>
        </div>
      </div>
      <Replies thread={thread} as={Review} />
    </li>
  );
}

function Comment({ thread }: { thread: CommentThread }) {
  const c = thread.comment;
  return (
    <li className={`comment${c.pending ? " comment-awaiting-moderation" : ""}`} id={`comment-${c.id}`}>
      <article className="comment-body">
        <footer className="comment-meta">
          <div className="comment-author vcard">
            <b className="fn">{c.author}</b> <span className="says">says:</span>
          </div>
          <div className="comment-metadata">
            <time dateTime={c.createdAt}>{formatDate(c.createdAt)}</time>
          </div>
          {c.pending ? <em className="comment-awaiting-moderation">{COMMENT_MESSAGES.commentPending}</em> : null}
        </footer>
        <div className="comment-content">
          <p>{c.content}</p>
        </div>
      </article>
      <Replies thread={thread} as={Comment} />
    </li>
  );
}

/** The 1–5 star choice: a native radio group (arrow keys move and choose), each star named for screen readers. */
function StarRatingInput({ defaultValue, invalid }: { defaultValue: string; invalid: boolean }) {
  return (
    <fieldset className={`comment-form-rating${invalid ? " is-invalid" : ""}`} aria-describedby={invalid ? ERROR_ID : undefined}>
      <legend>
        Your rating <span className="required">*</span>
      </legend>
      <div className="stars-input">
        {[1, 2, 3, 4, 5].map((n) => (
          <label key={n} className="star-option">
            <input type="radio" name="rating" value={n} required defaultChecked={defaultValue === String(n)} />
            <span className="star-glyph" aria-hidden="true">
              ★
            </span>
            <span className="screen-reader-text">{n === 1 ? "1 star" : `${n} stars`}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

type Outcome = { kind: "error"; message: string; field: CommentField | null } | { kind: "success"; message: string } | null;

function CommentForm({ data }: { data: CommentsSectionData }) {
  const review = data.kind === "review";
  const flash = data.flash;
  const [outcome, setOutcome] = useState<Outcome>(flash ? { kind: "error", message: flash.message, field: flash.field } : null);
  const [busy, setBusy] = useState(false);
  const enhanced = useHydrated();
  const [formKey, setFormKey] = useState(0);
  const errorRef = useRef<HTMLDivElement>(null);
  const statusRef = useRef<HTMLDivElement>(null);
  const revalidator = useRevalidator();
  // A refused submission (from the server's redirect or from this script) takes focus, so it is read out at once.
  useEffect(() => {
    if (outcome?.kind === "error") errorRef.current?.focus();
    if (outcome?.kind === "success") statusRef.current?.focus();
  }, [outcome]);

  const invalid = (f: CommentField) => outcome?.kind === "error" && outcome.field === f;
  const described = (f: CommentField) => (invalid(f) ? { "aria-invalid": true as const, "aria-describedby": ERROR_ID } : {});

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const fields = new FormData(form);
    const value = (name: string) => (typeof fields.get(name) === "string" ? (fields.get(name) as string) : undefined);
    const local = parseCommentForm(
      { author: value("author"), email: value("email"), comment: value("comment"), rating: value("rating") },
      { kind: data.kind, account: data.account ? { name: data.account.name, email: "" } : null },
    );
    if (!local.ok) return setOutcome({ kind: "error", message: local.message, field: local.field });
    setBusy(true);
    try {
      const body = new URLSearchParams();
      for (const [k, v] of fields) if (typeof v === "string") body.append(k, v);
      const res = await fetch(POST_PATH, { method: "POST", body, headers: { Accept: "application/json" }, credentials: "same-origin" });
      const answer = (await res.json().catch(() => null)) as { success?: boolean; data?: { message?: string; field?: CommentField | null } } | null;
      if (answer?.success) {
        setFormKey((k) => k + 1); // a fresh, empty form
        setOutcome({ kind: "success", message: answer.data?.message ?? COMMENT_MESSAGES.thanks[data.kind] });
        await revalidator.revalidate(); // the list now holds the new comment, awaiting moderation
      } else {
        setOutcome({
          kind: "error",
          message: answer?.data?.message ?? "Sorry, your submission could not be sent. Please try again.",
          field: answer?.data?.field ?? null,
        });
      }
    } catch {
      setOutcome({ kind: "error", message: "Sorry, your submission could not be sent. Please try again.", field: null });
    } finally {
      setBusy(false);
    }
  }

  const values = flash?.values ?? { author: "", email: "", comment: "", rating: "" };
  return (
    <div id="respond" className="comment-respond">
      <h3 id="reply-title" className="comment-reply-title">
        {review ? (data.comments.some((c) => !c.pending) ? "Add a review" : `Be the first to review “${data.title}”`) : "Leave a Reply"}
      </h3>
      <div
        ref={statusRef}
        tabIndex={-1}
        role="status"
        className={outcome?.kind === "success" ? "woocommerce-message comment-form-status" : "comment-form-status"}
      >
        {outcome?.kind === "success" ? outcome.message : null}
      </div>
      {outcome?.kind === "error" ? (
        <div ref={errorRef} tabIndex={-1} id={ERROR_ID} role="alert" className="woocommerce-error comment-form-error">
          {outcome.message}
        </div>
      ) : null}
      <form
        key={formKey}
        action={POST_PATH}
        method="post"
        id="commentform"
        className="comment-form"
        noValidate={enhanced}
        onSubmit={onSubmit}
        aria-labelledby="reply-title"
        aria-busy={busy || undefined}
      >
        {data.account ? (
          <p className="logged-in-as">
            Logged in as {data.account.name}. <a href="/my-account/">Your account</a>
          </p>
        ) : (
          <p className="comment-notes">
            <span id="email-notes">Your email address will not be published.</span> Required fields are marked <span className="required">*</span>
          </p>
        )}
        {review ? <StarRatingInput defaultValue={values.rating} invalid={invalid("rating")} /> : null}
        <p className="comment-form-comment">
          <label htmlFor="comment">
            {review ? "Your review" : "Comment"} <span className="required">*</span>
          </label>
          <textarea id="comment" name="comment" cols={45} rows={8} maxLength={5000} required defaultValue={values.comment} {...described("comment")} />
        </p>
        {data.account ? null : (
          <>
            <p className="comment-form-author">
              <label htmlFor="author">
                Name <span className="required">*</span>
              </label>
              <input id="author" name="author" type="text" autoComplete="name" maxLength={245} required defaultValue={values.author} {...described("author")} />
            </p>
            <p className="comment-form-email">
              <label htmlFor="email">
                Email <span className="required">*</span>
              </label>
              <input
                id="email"
                name="email"
                type="email"
                autoComplete="email"
                maxLength={100}
                required
                defaultValue={values.email}
                aria-describedby={invalid("email") ? `${ERROR_ID} email-notes` : "email-notes"}
                aria-invalid={invalid("email") || undefined}
              />
            </p>
          </>
        )}
        <p className="form-submit">
          <button type="submit" id="submit" className="submit button" disabled={busy}>
            {busy ? "Submitting…" : review ? "Submit" : "Post Comment"}
          </button>
          <input type="hidden" name="comment_post_ID" value={data.targetId} id="comment_post_ID" />
          <input type="hidden" name="comment_parent" value="0" id="comment_parent" />
        </p>
      </form>
    </div>
  );
}

/** Why there is no form: closed, sign-in required, or reviews kept for buyers. */
function NoForm({ data }: { data: CommentsSectionData }) {
  if (!data.open) return <p className="no-comments">{data.kind === "review" ? "Reviews are closed for this product." : "Comments are closed."}</p>;
  if (data.verifiedOnly && !data.account) return <p className="woocommerce-verification-required">{COMMENT_MESSAGES.verifiedOnly}</p>;
  return (
    <p className="must-log-in">
      You must be <a href="/my-account/">logged in</a> {data.kind === "review" ? "to post a review." : "to post a comment."}
    </p>
  );
}

/** The product page's reviews (below its 'Reviews (n)' heading). */
export function Reviews({ data }: { data: CommentsSectionData }) {
  return (
    <div id="review-list" className="woocommerce-Reviews">
      <div id="comments">
        {data.comments.length ? (
          <ol className="commentlist">
            {threadComments(data.comments).map((t) => (
              <Review key={t.comment.id} thread={t} />
            ))}
          </ol>
        ) : (
          <p className="woocommerce-noreviews">There are no reviews yet.</p>
        )}
      </div>
      <div id="review_form_wrapper">
        <div id="review_form">{data.open && data.mayPost ? <CommentForm data={data} /> : <NoForm data={data} />}</div>
      </div>
    </div>
  );
}

/** A blog post's comments section (the listing's 'Show Comments' links to #comments). */
export function Comments({ data }: { data: CommentsSectionData }) {
  const approved = data.comments.filter((c) => !c.pending).length;
  return (
    <section id="comments" className="comments-area" aria-labelledby="comments-title">
      <h2 id="comments-title" className="comments-title">
        {approved === 0 ? "Comments" : approved === 1 ? `One thought on “${data.title}”` : `${approved} thoughts on “${data.title}”`}
      </h2>
      {data.comments.length ? (
        <ol className="comment-list">
          {threadComments(data.comments).map((t) => (
            <Comment key={t.comment.id} thread={t} />
          ))}
        </ol>
      ) : (
        <p className="no-comments-yet">No comments yet.</p>
      )}
      {data.open && data.mayPost ? <CommentForm data={data} /> : <NoForm data={data} />}
    </section>
  );
}
