/**
 * An editor's save result above its form (Coupon, Store notice): a status, or an alert; after a refusal because
 * someone saved in between ("changed since you opened it"), a button that reloads what is stored.
 */
import { Button, Notice } from "@wordpress/components";

export type SaveNote = { status: "success" | "error" | "warning"; text: string; conflict?: boolean } | null;

export function SaveNotice({ id, note, reloadLabel, onReload }: { id: string; note: SaveNote; reloadLabel: string; onReload: () => void }) {
  return (
    <div id={id} role={note?.status === "error" ? "alert" : "status"}>
      {note ? (
        <Notice status={note.status} isDismissible={false}>
          <p>{note.text}</p>
          {note.conflict ? (
            <p>
              <Button variant="secondary" onClick={onReload}>
                {reloadLabel}
              </Button>
            </p>
          ) : null}
        </Notice>
      ) : null}
    </div>
  );
}
