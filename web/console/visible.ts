/**
 * Every text the console shows passes through VisibleText where Preact makes its text node: a
 * command, path, diff or name from a request cannot reorder itself (bidi controls), hide part of
 * itself (zero-width, tag characters) or pass a lookalike blank for a space. Line breaks and tabs
 * are kept: the console lays them out (`white-space: pre-wrap`), so a line break in a command
 * shows as the break it is. Imported once, by main.tsx, before anything renders.
 */
import { options } from "preact"
import { VisibleText } from "../../src/visible-text.js"

/** What the console lays out itself instead of escaping. */
export const KEPT = "\n\t"

const previous = options.vnode
options.vnode = (vnode) => {
  // A text node's vnode has no type, and its text as props.
  if (vnode.type === null && typeof vnode.props === "string") (vnode as { props: unknown }).props = VisibleText.of(vnode.props, KEPT)
  previous?.(vnode)
}
