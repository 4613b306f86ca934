/**
 * Text from a request, made safe to show a person: every character that does not show as itself
 * is written as an escape (`\u001b`, `\u{e0041}`), so what the person reads is what will run.
 * That is control characters (C0, DEL, C1: they redraw, retitle or move a terminal), bidi
 * controls (they reorder what follows), zero-width and other default-ignorable characters and
 * tag characters (nothing shows where they are), blanks other than the space (they look like the
 * space a shell splits at, and are not), line and paragraph separators, surrogates, private-use
 * and unassigned code points; and letters that pass for Latin ones in a Latin word (a Cyrillic
 * `і` in `gіthub.com`, a fullwidth `ｇ`). Every answerer (the terminal, MCP forms, the console) shows through
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

/** A run of letters (with the marks that join them): where a lookalike hides in a word. */
const WORD = /[\p{L}\p{M}]+/gu
const LATIN = /\p{Script=Latin}/u
const ASCII = /^[\x00-\x7f]*$/
/** A letter of no script Latin words borrow from: in a Latin word it is a lookalike (`gіthub`). */
const FOREIGN = /(?![\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}])\p{L}/gu

/** A letter drawn as an ASCII one though it is not (fullwidth `ｇ`, mathematical `𝐠`). */
const asciiForm = (char: string) => {
  const normal = char.normalize("NFKC")
  return normal !== char && /^[\x21-\x7e]+$/.test(normal)
}

/**
 * Lookalike letters written as escapes: in a word that mixes Latin letters with another
 * script's, the other script's (`g\u0456thub.com`: a Cyrillic і); anywhere, a letter whose
 * compatibility form is ASCII. A word of one script stays as it is (`Привет`, `日本`).
 */
const unmasked = (text: string) =>
  text.replace(WORD, (word) => {
    if (ASCII.test(word)) return word
    const mixed = LATIN.test(word) ? word.replace(FOREIGN, escape) : word
    return Array.from(mixed, (char) => (asciiForm(char) ? escape(char) : char)).join("")
  })

/**
 * `text` with every character that does not show as itself escaped, except those in `kept`, and
 * every lookalike letter (`unmasked`).
 * @example VisibleText.of("rm -rf \u202e~") // "rm -rf \\u202e~"
 */
export const of = (text: string, kept = ""): string => unmasked(text.replace(HIDDEN, (char) => (kept.includes(char) ? char : escape(char))))
