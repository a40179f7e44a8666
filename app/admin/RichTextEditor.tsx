/**
 * The admin's rich-text editor (docs/contract/admin.md 'Edit Product', 'Pages and posts'; decisions 0046, 0049): TipTap
 * (ProseMirror) with bold, italic, headings 2–4, bulleted and numbered lists, links and undo/redo, its HTML handed to
 * `onChange` as WordPress stores a description or a page's content (the API sanitises it again, wp_kses_post). Loaded
 * on its own (React.lazy in RichTextField.tsx), so the admin's other screens and the storefront never fetch it.
 * The editable region is a labelled multi-line textbox; Ctrl+B / Ctrl+I and Ctrl+Z / Ctrl+Shift+Z work in it.
 */
import { useEffect, useId, useRef, useState } from "react";
import { EditorContent, useEditor, useEditorState, type Editor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { Button, TextControl } from "@wordpress/components";
import {
  formatBold,
  formatItalic,
  formatListBullets,
  formatListNumbered,
  headingLevel2,
  headingLevel3,
  headingLevel4,
  link as linkIcon,
  linkOff,
  redo as redoIcon,
  undo as undoIcon,
} from "@wordpress/icons";
import { autop } from "../../core/domain/text/kses.ts";
import { escapeHtml } from "../../core/domain/text/html.ts";

export interface RichTextProps {
  label: string;
  value: string;
  onChange: (html: string) => void;
  error?: string;
}

/** What the editor shows for a stored description: its HTML, or a text without tags as paragraphs (as the shop prints it). */
const editorHtml = (value: string) => (/<[a-z!/?]/i.test(value) ? value : autop(escapeHtml(value)));

const LEVELS = [
  { level: 2, icon: headingLevel2 },
  { level: 3, icon: headingLevel3 },
  { level: 4, icon: headingLevel4 },
] as const;

/** The editable region: a multi-line textbox named by the field's label, described by its error when there is one. */
const editableAttributes = (labelId: string, errorId: string | null): Record<string, string> => ({
  role: "textbox",
  "aria-multiline": "true",
  "aria-labelledby": labelId,
  class: "admin-rich-text__content",
  ...(errorId ? { "aria-invalid": "true", "aria-describedby": errorId } : {}),
});

function activeMarks(editor: Editor) {
  return {
    bold: editor.isActive("bold"),
    italic: editor.isActive("italic"),
    bulletList: editor.isActive("bulletList"),
    orderedList: editor.isActive("orderedList"),
    link: editor.isActive("link"),
    href: (editor.getAttributes("link").href as string | undefined) ?? "",
    heading: LEVELS.find((l) => editor.isActive("heading", { level: l.level }))?.level ?? 0,
    canUndo: editor.can().undo(),
    canRedo: editor.can().redo(),
  };
}

export default function RichTextEditor({ label, value, onChange, error }: RichTextProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const helpId = `${id}-help`;
  // The HTML this editor last reported: a `value` that differs came from outside (a reload, a save) and replaces the content.
  const emitted = useRef(value);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3, 4] },
        code: false,
        codeBlock: false,
        link: { openOnClick: false, autolink: true, defaultProtocol: "https", protocols: ["http", "https", "mailto", "tel"] },
      }),
    ],
    content: editorHtml(value),
    editorProps: { attributes: editableAttributes(labelId, error ? helpId : null) },
    onUpdate: ({ editor: e }) => {
      // Without the empty paragraph TipTap keeps after a closing list or heading (its trailing node): not the owner's text.
      const html = e.isEmpty ? "" : e.getHTML().replace(/(?:<p><\/p>)+$/, "");
      emitted.current = html;
      onChange(html);
    },
  });
  const state = useEditorState({ editor, selector: ({ editor: e }) => (e ? activeMarks(e) : null) });

  useEffect(() => {
    if (!editor || value === emitted.current) return;
    emitted.current = value;
    editor.commands.setContent(editorHtml(value), { emitUpdate: false });
  }, [editor, value]);

  useEffect(() => {
    editor?.setOptions({ editorProps: { attributes: editableAttributes(labelId, error ? helpId : null) } });
  }, [editor, error, labelId, helpId]);

  const [linkOpen, setLinkOpen] = useState(false);
  const [href, setHref] = useState("");

  const addressRef = useRef<HTMLInputElement>(null);
  // The address field takes the focus when it opens (a keyboard user lands in it).
  useEffect(() => {
    if (linkOpen) addressRef.current?.focus();
  }, [linkOpen]);
  const closeLink = () => {
    setLinkOpen(false);
    editor?.commands.focus();
  };
  const openLink = () => {
    setHref(state?.href ?? "");
    setLinkOpen(true);
  };
  const applyLink = () => {
    if (!editor) return;
    const url = href.trim();
    if (!url) {
      editor.chain().focus().extendMarkRange("link").unsetLink().run();
    } else if (editor.state.selection.empty && !editor.isActive("link")) {
      editor
        .chain()
        .focus()
        .insertContent({ type: "text", text: url, marks: [{ type: "link", attrs: { href: url } }] })
        .run();
    } else {
      editor.chain().focus().extendMarkRange("link").setLink({ href: url }).run();
    }
    setLinkOpen(false);
  };

  const chain = () => editor!.chain().focus();
  const tool = (name: string, icon: typeof formatBold, pressed: boolean | undefined, run: () => void, shortcut?: string) => (
    <Button
      size="compact"
      icon={icon}
      label={name}
      shortcut={shortcut}
      isPressed={pressed ?? false}
      aria-pressed={pressed ?? false}
      disabled={!editor}
      onClick={run}
    />
  );

  return (
    <div className={`admin-rich-text${error ? " has-error" : ""}`}>
      <div id={labelId} className="admin-rich-text__label">
        {label}
      </div>
      <div className="admin-rich-text__toolbar" role="toolbar" aria-label={`${label} formatting`}>
        {tool("Bold", formatBold, state?.bold, () => chain().toggleBold().run(), "Ctrl+B")}
        {tool("Italic", formatItalic, state?.italic, () => chain().toggleItalic().run(), "Ctrl+I")}
        {LEVELS.map((l) => (
          <span key={l.level}>{tool(`Heading ${l.level}`, l.icon, state?.heading === l.level, () => chain().toggleHeading({ level: l.level }).run())}</span>
        ))}
        {tool("Bulleted list", formatListBullets, state?.bulletList, () => chain().toggleBulletList().run())}
        {tool("Numbered list", formatListNumbered, state?.orderedList, () => chain().toggleOrderedList().run())}
        {tool("Link", linkIcon, state?.link, openLink)}
        {state?.link ? <Button size="compact" icon={linkOff} label="Remove link" onClick={() => chain().extendMarkRange("link").unsetLink().run()} /> : null}
        <Button
          size="compact"
          icon={undoIcon}
          label="Undo"
          shortcut="Ctrl+Z"
          disabled={!state?.canUndo}
          accessibleWhenDisabled
          onClick={() => chain().undo().run()}
        />
        <Button
          size="compact"
          icon={redoIcon}
          label="Redo"
          shortcut="Ctrl+Shift+Z"
          disabled={!state?.canRedo}
          accessibleWhenDisabled
          onClick={() => chain().redo().run()}
        />
      </div>
      {linkOpen ? (
        // Not a <form>: it sits inside the product's form; Enter in the address applies the link, Escape closes.
        <div className="admin-rich-text__link" role="group" aria-label="Link">
          <TextControl
            ref={addressRef}
            __next40pxDefaultSize
            label="Link URL"
            type="url"
            value={href}
            onChange={setHref}
            placeholder="https://"
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                applyLink();
              } else if (e.key === "Escape") closeLink();
            }}
          />
          <Button variant="secondary" onClick={applyLink}>
            Apply link
          </Button>
          <Button variant="tertiary" onClick={closeLink}>
            Cancel
          </Button>
        </div>
      ) : null}
      <EditorContent editor={editor} />
      {error ? (
        <p id={helpId} className="admin-field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
