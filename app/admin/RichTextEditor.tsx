/**
 * The admin's rich-text editor (docs/contract/admin.md 'Edit Product', 'Pages and posts'; decisions 0046, 0049): TipTap
 * (ProseMirror) with bold, italic, headings 2–4, bulleted and numbered lists, links and undo/redo, its HTML handed to
 * `onChange` as WordPress stores a description or a page's content (the API sanitises it again, wp_kses_post). Loaded
 * on its own (React.lazy in RichTextField.tsx), so the admin's other screens and the storefront never fetch it.
 * The editable region is a labelled multi-line textbox; Ctrl+B / Ctrl+I and Ctrl+Z / Ctrl+Shift+Z work in it.
 * "Edit as HTML" (a toggle at the end of the toolbar, as the Classic editor's Text tab) shows the HTML in a monospace
 * text area with the field's label; switching back loads it into the editor. A value the editor would not keep whole
 * (images, tables, classes, block comments: rich-text-loss.ts) opens as HTML with a notice, and switching it to the
 * visual editor asks first, so opening and saving never drops content (decision 0049).
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { EditorContent, useEditor, useEditorState, type Editor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { Button, Notice, TextControl } from "@wordpress/components";
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
import { listOf, lostMarkup } from "./rich-text-loss.ts";

export interface RichTextProps {
  label: string;
  value: string;
  onChange: (html: string) => void;
  error?: string;
}

/** What the editor shows for a stored description: its HTML, or a text without tags as paragraphs (as the shop prints it). */
const editorHtml = (value: string) => (/<[a-z!/?]/i.test(value) ? value : autop(escapeHtml(value)));

const EXTENSIONS = [
  StarterKit.configure({
    heading: { levels: [2, 3, 4] },
    code: false,
    codeBlock: false,
    link: { openOnClick: false, autolink: true, defaultProtocol: "https", protocols: ["http", "https", "mailto", "tel"] },
  }),
];

/** The editor's HTML, without the empty paragraph TipTap keeps after a closing list or heading (its trailing node): not the owner's text. */
const editorValue = (editor: Editor) => (editor.isEmpty ? "" : editor.getHTML().replace(/(?:<p><\/p>)+$/, ""));

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
  // What the editor would drop from the value the field opened with: then it opens as HTML, nothing is lost.
  const [opened] = useState(() => lostMarkup(editorHtml(value), EXTENSIONS));
  const [mode, setMode] = useState<"visual" | "html">(opened.length ? "html" : "visual");
  const [notice, setNotice] = useState(opened);
  const [asking, setAsking] = useState<string[] | null>(null);
  const visual = mode === "visual";
  const editor = useEditor({
    extensions: EXTENSIONS,
    content: editorHtml(value),
    editorProps: { attributes: editableAttributes(labelId, error && visual ? helpId : null) },
    onUpdate: ({ editor: e }) => {
      const html = editorValue(e);
      emitted.current = html;
      onChange(html);
    },
  });
  const state = useEditorState({ editor, selector: ({ editor: e }) => (e ? activeMarks(e) : null) });

  useEffect(() => {
    // In the HTML view the text area holds the value; the editor takes it when the owner switches back.
    if (!editor || !visual || value === emitted.current) return;
    emitted.current = value;
    editor.commands.setContent(editorHtml(value), { emitUpdate: false });
  }, [editor, value, visual]);

  useEffect(() => {
    editor?.setOptions({ editorProps: { attributes: editableAttributes(labelId, error && visual ? helpId : null) } });
  }, [editor, error, labelId, helpId, visual]);

  const toggleRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) cancelRef.current?.focus();
  }, [asking]);
  const toVisual = (confirmed: boolean) => {
    if (!editor) return;
    const html = editorHtml(value);
    const lost = confirmed ? [] : lostMarkup(html, EXTENSIONS);
    if (lost.length) {
      setAsking(lost);
      return;
    }
    emitted.current = value;
    editor.commands.setContent(html, { emitUpdate: false });
    if (confirmed) {
      // The owner agreed to lose what the editor cannot keep: the field now holds the editor's HTML, to be saved.
      const kept = editorValue(editor);
      emitted.current = kept;
      onChange(kept);
    }
    setAsking(null);
    setNotice([]);
    setMode("visual");
    toggleRef.current?.focus();
  };
  const toggleMode = () => {
    if (visual) {
      setLinkOpen(false);
      setMode("html");
    } else toVisual(false);
  };
  const cancelSwitch = () => {
    setAsking(null);
    toggleRef.current?.focus();
  };
  const escapeCancels = (e: KeyboardEvent) => {
    if (e.key === "Escape") cancelSwitch();
  };

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
        {visual ? (
          <>
            {tool("Bold", formatBold, state?.bold, () => chain().toggleBold().run(), "Ctrl+B")}
            {tool("Italic", formatItalic, state?.italic, () => chain().toggleItalic().run(), "Ctrl+I")}
            {LEVELS.map((l) => (
              <span key={l.level}>{tool(`Heading ${l.level}`, l.icon, state?.heading === l.level, () => chain().toggleHeading({ level: l.level }).run())}</span>
            ))}
            {tool("Bulleted list", formatListBullets, state?.bulletList, () => chain().toggleBulletList().run())}
            {tool("Numbered list", formatListNumbered, state?.orderedList, () => chain().toggleOrderedList().run())}
            {tool("Link", linkIcon, state?.link, openLink)}
            {state?.link ? (
              <Button size="compact" icon={linkOff} label="Remove link" onClick={() => chain().extendMarkRange("link").unsetLink().run()} />
            ) : null}
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
          </>
        ) : null}
        <Button
          ref={toggleRef}
          size="compact"
          className="admin-rich-text__mode"
          isPressed={!visual}
          aria-pressed={!visual}
          disabled={!editor}
          accessibleWhenDisabled
          onClick={toggleMode}
        >
          Edit as HTML
        </Button>
      </div>
      {asking ? (
        <div className="admin-rich-text__confirm" role="group" aria-labelledby={`${id}-ask`}>
          <p id={`${id}-ask`}>Switching to the visual editor will remove {listOf(asking)}. Switch anyway?</p>
          <Button ref={cancelRef} variant="secondary" onClick={cancelSwitch} onKeyDown={escapeCancels}>
            Cancel
          </Button>
          <Button variant="tertiary" isDestructive onClick={() => toVisual(true)} onKeyDown={escapeCancels}>
            Switch anyway
          </Button>
        </div>
      ) : null}
      {!visual && notice.length ? (
        <Notice status="warning" isDismissible={false} className="admin-rich-text__notice">
          <span id={`${id}-notice`}>This content has formatting the visual editor cannot keep ({listOf(notice)}). It is shown as HTML so nothing is lost.</span>
        </Notice>
      ) : null}
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
      {visual ? null : (
        <textarea
          className="admin-rich-text__source"
          aria-labelledby={labelId}
          aria-describedby={[notice.length ? `${id}-notice` : "", error ? helpId : ""].filter(Boolean).join(" ") || undefined}
          aria-invalid={error ? true : undefined}
          spellCheck={false}
          rows={16}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      <div hidden={!visual}>
        <EditorContent editor={editor} />
      </div>
      {error ? (
        <p id={helpId} className="admin-field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
