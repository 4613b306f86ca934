/**
 * Text from a request, made safe to show a person: every character that does not show as itself
 * is written as an escape (`\u001b`, `\u{e0041}`), so what the person reads is what will run.
 * That is control characters (C0, DEL, C1: they redraw, retitle or move a terminal), bidi
 * controls (they reorder what follows), zero-width and other default-ignorable characters and
 * tag characters (nothing shows where they are), blanks other than the space (they look like the
 * space a shell splits at, and are not), line and paragraph separators, surrogates, private-use
 * and unassigned code points. Every answerer (the terminal, MCP forms, the console) shows through
 * this one function; `kept` names the few characters a display lays out itself (the diff's tabs,
 * the console's line breaks).
 */
export * as VisibleText from "./visible-text.js"

/** What never shows as itself, whoever shows it. The space (U+0020) is the one blank kept. */
const HIDDEN = /(?! )[\p{C}\p{Z}\p{Default_Ignorable_Code_Point}]/gu

const escape = (char: string) => {
  const point = char.codePointAt(0) ?? 0
  return point > 0xffff ? `\\u{${point.toString(16)}}` : `\\u${point.toString(16).padStart(4, "0")}`
}

/**
 * `text` with every character that does not show as itself escaped, except those in `kept`.
 * @example VisibleText.of("rm -rf \u202e~") // "rm -rf \\u202e~"
 */
export const of = (text: string, kept = ""): string => text.replace(HIDDEN, (char) => (kept.includes(char) ? char : escape(char)))
