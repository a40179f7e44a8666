/**
 * A rich-text field of an admin editor (decision 0046, 0049): the one TipTap editor (RichTextEditor.tsx, its label,
 * toolbar and field error) loaded as its own chunk when a field is shown, with a status line until then. The product
 * editor's Description and Product short description and the page and post editor's Content use it, so the list
 * screens never fetch the editor.
 */
import { lazy, Suspense } from "react";
import { Spinner } from "@wordpress/components";
import type { RichTextProps } from "./RichTextEditor.tsx";
import "./rich-text.css";

const RichTextEditor = lazy(() => import("./RichTextEditor.tsx"));

export function RichTextField(props: RichTextProps) {
  return (
    <Suspense
      fallback={
        <p className="admin-rich-text admin-hint" role="status">
          <Spinner /> Loading the {props.label.toLowerCase()} editor…
        </p>
      }
    >
      <RichTextEditor {...props} />
    </Suspense>
  );
}
