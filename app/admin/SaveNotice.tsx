/**
 * An editor's save result above its form (Coupon, Store notice): a status, or an alert; after a refusal because
 * someone saved in between ("changed since you opened it"), a button that reloads what is stored.
 */
import { Button, Notice } from "@wordpress/components";
import { useCallback, useEffect, useRef, type RefObject } from "react";
import type { RestError } from "./api.ts";

/**
 * What an editor shows when the API refuses a save: "changed since you opened it" for the screen's conflict code;
 * otherwise each named field's error with a one-line summary (the screen then moves focus with useFocusFirstInvalid).
 */
export function refusedSave(
  error: RestError,
  changedCode: string,
  thing: string,
  errorsOf: (e: RestError) => Record<string, string>,
): { note: SaveNote; errors: Record<string, string> | null } {
  if (error.code === changedCode) return { note: { status: "error", text: error.message, conflict: true }, errors: null };
  const errors = errorsOf(error);
  const named = Object.keys(errors).length;
  const text = named ? `The ${thing} was not saved: ${named === 1 ? "a field needs" : "some fields need"} correcting.` : error.message;
  return { note: { status: "error", text }, errors };
}

/**
 * Focus on the first field marked invalid, once React has rendered the marks. A frame scheduled at the refusal can
 * run before that render (state set after an await is rendered in a later task), so the focus waits for the commit.
 */
export function useFocusFirstInvalid(): () => void {
  const pending = useRef(false);
  useEffect(() => {
    if (!pending.current) return;
    const field = document.querySelector<HTMLElement>("[aria-invalid=true]");
    if (!field) return;
    pending.current = false;
    field.focus();
  });
  return useCallback(() => {
    pending.current = true;
  }, []);
}

/**
 * ComboboxControl names its open list with aria-owns only; ARIA 1.2 (and axe) want aria-controls on an expanded
 * combobox. Mirrors the one into the other on the combobox inside `box` while it is `shown`.
 */
export function useComboboxControls(box: RefObject<HTMLElement | null>, shown: boolean): void {
  useEffect(() => {
    const input = box.current?.querySelector("input");
    if (!input) return;
    const mirror = () => {
      const owns = input.getAttribute("aria-owns");
      if (owns) {
        if (input.getAttribute("aria-controls") !== owns) input.setAttribute("aria-controls", owns);
      } else if (input.hasAttribute("aria-controls")) input.removeAttribute("aria-controls");
    };
    mirror();
    const observer = new MutationObserver(mirror);
    observer.observe(input, { attributes: true, attributeFilter: ["aria-owns"] });
    return () => observer.disconnect();
  }, [box, shown]);
}

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
