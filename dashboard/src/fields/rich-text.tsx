import { useEffect, useRef, useState } from "preact/hooks";
import type { Editor } from "@tiptap/core";

/**
 * The rich-text editor (Tiptap, loaded only on screens that need it). It produces the
 * tags the service keeps when it cleans rich text: paragraphs, headings, bold, italic,
 * strike, code, links, lists, quotes and rules.
 */
export function RichText(props: {
  labelId: string;
  value: string;
  error?: string | undefined;
  errorId?: string | undefined;
  onChange: (html: string) => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const [editor, setEditor] = useState<Editor | null>(null);
  const [, setTick] = useState(0);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;

  useEffect(() => {
    let ed: Editor | null = null;
    let live = true;
    void Promise.all([import("@tiptap/core"), import("@tiptap/starter-kit")]).then(([{ Editor }, { StarterKit }]) => {
      if (!live || !host.current) return;
      ed = new Editor({
        element: host.current,
        extensions: [StarterKit.configure({ link: { openOnClick: false, HTMLAttributes: { target: null, rel: null } }, underline: false })],
        content: props.value,
        injectCSS: false,
        editorProps: {
          attributes: {
            role: "textbox",
            "aria-multiline": "true",
            "aria-labelledby": props.labelId,
            ...(props.errorId ? { "aria-describedby": props.errorId } : {}),
            class: "prose",
          },
        },
        onUpdate: ({ editor: e }) => onChange.current(e.isEmpty ? "" : e.getHTML()),
        onSelectionUpdate: () => setTick((t) => t + 1),
        onTransaction: () => setTick((t) => t + 1),
      });
      setEditor(ed);
    });
    return () => {
      live = false;
      ed?.destroy();
    };
  }, []);

  const button = (label: string, active: boolean, run: (e: Editor) => void) => (
    <button
      type="button"
      class="tool"
      aria-pressed={active}
      disabled={!editor}
      // A mouse click keeps the caret and focus in the text; keyboard users reach the buttons by Tab.
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => editor && run(editor)}
    >
      {label}
    </button>
  );
  const link = (e: Editor) => {
    const previous = (e.getAttributes("link").href as string | undefined) ?? "https://";
    const url = window.prompt("Link address", previous);
    if (url === null) return;
    if (url === "") e.chain().focus().unsetLink().run();
    else e.chain().focus().extendMarkRange("link").setLink({ href: url }).run();
  };
  return (
    <div class={props.error ? "rich-text has-error" : "rich-text"}>
      <div class="toolbar-rt" role="toolbar" aria-label="Formatting">
        {button("Bold", editor?.isActive("bold") ?? false, (e) => e.chain().focus().toggleBold().run())}
        {button("Italic", editor?.isActive("italic") ?? false, (e) => e.chain().focus().toggleItalic().run())}
        {button("Heading", editor?.isActive("heading", { level: 2 }) ?? false, (e) => e.chain().focus().toggleHeading({ level: 2 }).run())}
        {button("Bulleted list", editor?.isActive("bulletList") ?? false, (e) => e.chain().focus().toggleBulletList().run())}
        {button("Numbered list", editor?.isActive("orderedList") ?? false, (e) => e.chain().focus().toggleOrderedList().run())}
        {button("Quote", editor?.isActive("blockquote") ?? false, (e) => e.chain().focus().toggleBlockquote().run())}
        {button("Link", editor?.isActive("link") ?? false, link)}
      </div>
      <div ref={host} class="rt-host" />
      {!editor && <p class="muted">Loading the editor…</p>}
    </div>
  );
}
