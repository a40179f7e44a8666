/** What the admin's screens show while they load, when a read fails, and after an action (a status, or an alert for an error). */
import { Notice, Spinner } from "@wordpress/components";
import type { RestError } from "./api.ts";

export function Loading({ what }: { what: string }) {
  return (
    <p role="status">
      <Spinner /> Loading {what}…
    </p>
  );
}

export function LoadError({ error }: { error: RestError }) {
  return (
    <Notice status="error" isDismissible={false}>
      {error.message}
    </Notice>
  );
}

export type ActionResult = { status: "success" | "error"; text: string } | null;

/** Always in the page, so a screen reader announces the result when it appears. */
export function ResultNotice({ result }: { result: ActionResult }) {
  return (
    <div role={result?.status === "error" ? "alert" : "status"}>
      {result ? (
        <Notice status={result.status} isDismissible={false}>
          {result.text}
        </Notice>
      ) : null}
    </div>
  );
}
