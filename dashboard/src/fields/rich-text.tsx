import { useEffect, useId, useRef, useState } from "preact/hooks";
import type { Editor } from "@tiptap/core";

const TOOLS = ["Bold", "Italic", "Heading", "Bulleted list", "Numbered list", "Quote", "Link"] as const;
type Tool = (typeof TOOLS)[number];

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
  const hostId = useId();
  const [editor, setEditor] = useState<Editor | null>(null);
  const [, setTick] = useState(0);
  // One Tab stop for the whole toolbar; arrow keys move between its buttons (WAI-ARIA toolbar pattern).
  const [current, setCurrent] = useState(0);
  const toolbar = useRef<HTMLDivElement>(null);
  const [linking, setLinking] = useState<string | null>(null);
  const [visited, setVisited] = useState(false);
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
        onFocus: () => setVisited(true),
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

  const active = (tool: Tool): boolean => {
    // Nothing is "on" until the owner has been in the text: a fresh editor's caret position is no choice of theirs.
    if (!editor || !visited) return false;
    switch (tool) {
      case "Bold":
        return editor.isActive("bold");
      case "Italic":
        return editor.isActive("italic");
      case "Heading":
        return editor.isActive("heading", { level: 2 });
      case "Bulleted list":
        return editor.isActive("bulletList");
      case "Numbered list":
        return editor.isActive("orderedList");
      case "Quote":
        return editor.isActive("blockquote");
      case "Link":
        return editor.isActive("link");
    }
  };
  const run = (tool: Tool, e: Editor) => {
    const c = e.chain().focus();
    if (tool === "Bold") c.toggleBold().run();
    else if (tool === "Italic") c.toggleItalic().run();
    else if (tool === "Heading") c.toggleHeading({ level: 2 }).run();
    else if (tool === "Bulleted list") c.toggleBulletList().run();
    else if (tool === "Numbered list") c.toggleOrderedList().run();
    else if (tool === "Quote") c.toggleBlockquote().run();
    else setLinking((e.getAttributes("link").href as string | undefined) ?? "");
  };
  const move = (ev: KeyboardEvent) => {
    const last = TOOLS.length - 1;
    const next =
      ev.key === "ArrowRight"
        ? (current + 1) % TOOLS.length
        : ev.key === "ArrowLeft"
          ? (current + last) % TOOLS.length
          : ev.key === "Home"
            ? 0
            : ev.key === "End"
              ? last
              : null;
    if (next === null) return;
    ev.preventDefault();
    setCurrent(next);
    toolbar.current?.querySelectorAll<HTMLButtonElement>("button")[next]?.focus();
  };
  const applyLink = (href: string | null) => {
    setLinking(null);
    if (!editor || href === null) {
      editor?.commands.focus();
      return;
    }
    if (href === "") editor.chain().focus().extendMarkRange("link").unsetLink().run();
    else editor.chain().focus().extendMarkRange("link").setLink({ href }).run();
  };
  return (
    <div class={props.error ? "rich-text has-error" : "rich-text"}>
      <div class="toolbar-rt" role="toolbar" aria-label="Formatting" aria-controls={hostId} ref={toolbar} onKeyDown={move}>
        {TOOLS.map((tool, i) => (
          <button
            key={tool}
            type="button"
            class="tool"
            aria-pressed={active(tool)}
            tabIndex={i === current ? 0 : -1}
            disabled={!editor}
            // A mouse click keeps the caret and focus in the text.
            onMouseDown={(e) => e.preventDefault()}
            onFocus={() => setCurrent(i)}
            onClick={() => editor && run(tool, editor)}
          >
            {tool}
          </button>
        ))}
      </div>
      <div ref={host} id={hostId} class="rt-host" />
      {!editor && <p class="muted">Loading the editor…</p>}
      <LinkDialog href={linking} onClose={applyLink} />
    </div>
  );
}

/** The link's address, asked in the page (a native prompt() is neither styled nor reliably announced). */
function LinkDialog(props: { href: string | null; onClose: (href: string | null) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [value, setValue] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const titleId = useId();
  const inputId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.href !== null && !d.open) {
      setValue(props.href || "https://");
      setProblem(null);
      d.showModal();
      requestAnimationFrame(() => d.querySelector<HTMLInputElement>("input")?.select());
    }
    if (props.href === null && d.open) d.close();
  }, [props.href]);
  const close = (href: string | null) => {
    ref.current?.close();
    props.onClose(href);
  };
  const apply = (e: Event) => {
    e.preventDefault();
    const href = value.trim();
    if (href === "" || href === "https://") return close("");
    // The rules the service applies to links in rich text (it drops any other scheme).
    if (!/^(https?:\/\/\S+|mailto:\S+|tel:[+\d\-\s().]+|\/\S*|#\S*)$/i.test(href)) {
      setProblem("Use a web address (https://…), a path (/about), mailto: or tel:.");
      return;
    }
    close(href);
  };
  return (
    <dialog ref={ref} aria-labelledby={titleId} onCancel={() => props.onClose(null)}>
      <form onSubmit={apply}>
        <h2 id={titleId}>Link</h2>
        <div class={problem ? "field has-error" : "field"}>
          <label for={inputId}>Link address</label>
          <input
            id={inputId}
            type="text"
            inputMode="url"
            value={value}
            aria-describedby={problem ? `${inputId}-err` : `${inputId}-hint`}
            aria-invalid={problem ? true : undefined}
            onInput={(e) => {
              setValue(e.currentTarget.value);
              setProblem(null);
            }}
          />
          {problem ? (
            <p class="error" id={`${inputId}-err`}>
              {problem}
            </p>
          ) : (
            <p class="hint" id={`${inputId}-hint`}>
              Leave it empty to remove the link.
            </p>
          )}
        </div>
        <div class="actions">
          <button type="button" class="secondary" onClick={() => close(null)}>
            Cancel
          </button>
          <button type="submit">Apply link</button>
        </div>
      </form>
    </dialog>
  );
}
