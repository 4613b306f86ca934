/**
 * How a text file is spelled apart from its content: a UTF-8 byte-order mark and its line
 * endings. Edits match on the "LF view" (no BOM, every CRLF as LF) and map offsets back to the
 * stored text, so bytes the edit does not touch stay exactly as they were, even in a file with
 * mixed endings. Replaced and inserted lines take the file's dominant ending.
 * Gotcha: a lone CR is not a line break here; it stays an ordinary character in both views.
 */
export * as TextStyle from "./text-style.js"

export const BOM = "\uFEFF"
export const LF = "\n"
export const CRLF = "\r\n"

export type Eol = typeof LF | typeof CRLF

export interface View {
  /** Whether the stored text began with a byte-order mark. */
  readonly bom: boolean
  /** The stored text without its BOM, line endings untouched. */
  readonly text: string
  /** `text` with every CRLF as LF: what matching and diffs see. */
  readonly lf: string
  /** The LF-view offsets of the LFs that are CRLF in `text`, ascending. */
  readonly crlf: ReadonlyArray<number>
  /** The dominant line ending: CRLF when more lines end in CRLF than in a bare LF. */
  readonly eol: Eol
}

/** Offsets of every CRLF in `text`, as LF-view offsets of their LF. */
const crlfOffsets = (text: string): ReadonlyArray<number> => {
  const offsets: number[] = []
  for (let at = text.indexOf(CRLF); at !== -1; at = text.indexOf(CRLF, at + 2)) offsets.push(at - offsets.length)
  return offsets
}

/** How many times `char` occurs in `text`. */
export const count = (text: string, char: string): number => {
  let total = 0
  for (let at = text.indexOf(char); at !== -1; at = text.indexOf(char, at + 1)) total++
  return total
}

/**
 * The LF view of decoded file text.
 * @example TextStyle.view("\uFEFFa\r\nb").lf // "a\nb"
 */
export const view = (decoded: string): View => {
  const bom = decoded.startsWith(BOM)
  const text = bom ? decoded.slice(BOM.length) : decoded
  if (!text.includes("\r")) return { bom, text, lf: text, crlf: [], eol: LF }
  const crlf = crlfOffsets(text)
  if (crlf.length === 0) return { bom, text, lf: text, crlf, eol: LF }
  const lf = text.replaceAll(CRLF, LF)
  const bare = count(lf, LF) - crlf.length
  return { bom, text, lf, crlf, eol: crlf.length > bare ? CRLF : LF }
}

/** How many entries of the ascending `offsets` are below `limit`. */
const below = (offsets: ReadonlyArray<number>, limit: number): number => {
  let low = 0
  let high = offsets.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((offsets[middle] as number) < limit) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * The offset in `view.text` of an LF-view offset. A range [start, end) maps to the stored range
 * that covers the same characters: a range ending after an LF that was CRLF covers the CR too.
 */
export const toText = (view: View, offset: number): number => offset + below(view.crlf, offset)

/** `text` with every line break (CRLF or LF) spelled as `eol`. */
export const withEol = (text: string, eol: Eol): string => {
  const lf = text.replaceAll(CRLF, LF)
  return eol === LF ? lf : lf.replaceAll(LF, CRLF)
}
