// The source of editor.js (build-editor.sh bundles it with CodeMirror 6 from the npm registry):
// a Python editor that replaces the page's textarea. Python highlighting, auto-indent, Tab
// indents (Escape, then Tab, leaves the editor), no soft wrap (a long line scrolls sideways).
import { basicSetup } from "codemirror";
import { EditorView, keymap } from "@codemirror/view";
import { indentWithTab } from "@codemirror/commands";
import { indentUnit } from "@codemirror/language";
import { python } from "@codemirror/lang-python";

// Replace ``textarea`` with an editor holding its text; ``changed(text)`` after each edit.
// Returns { get(), set(text) }: the page reads what it grades through get().
export function replaceTextarea(textarea, changed) {
  const view = new EditorView({
    doc: textarea.value,
    extensions: [
      basicSetup,
      python(),
      indentUnit.of("    "),
      keymap.of([indentWithTab]),
      EditorView.contentAttributes.of({ "aria-label": "your solution", spellcheck: "false" }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) changed(update.state.doc.toString());
      }),
    ],
  });
  textarea.hidden = true;
  textarea.after(view.dom);
  return {
    view,
    get: () => view.state.doc.toString(),
    set: (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
  };
}
