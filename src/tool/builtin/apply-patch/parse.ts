/**
 * The `*** Begin Patch` grammar of apply_patch (06), parsed purely into hunks. Markers are
 * matched after trimming; CRLF patch text reads as LF; one heredoc wrapper (`cat <<'EOF'`,
 * `<<EOF`, `<<"EOF"`, `apply_patch <<'EOF'` … `EOF`) is stripped. Line numbers in errors count
 * from `*** Begin Patch` as line 1. A parse error is returned as a value, never thrown.
 * Gotcha: inside a chunk an empty line is an empty context line, as in Codex.
 */
export * as ApplyPatchParse from "./parse.js"

export const BEGIN = "*** Begin Patch"
export const END = "*** End Patch"
export const ADD = "*** Add File: "
export const DELETE = "*** Delete File: "
export const UPDATE = "*** Update File: "
export const MOVE = "*** Move to: "
export const END_OF_FILE = "*** End of File"
export const CHUNK = "@@"

export const Messages = {
  required: "patchText is required",
  begin: `The first line of the patch must be '${BEGIN}'`,
  end: `The last line of the patch must be '${END}'`,
  header: (line: number, text: string) =>
    `Invalid hunk at line ${line}: '${text}' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'`,
  emptyUpdate: (path: string) => `Update file hunk for path '${path}' is empty`,
  empty: "patch rejected: empty patch",
  emptyChunk: (line: number) => `Invalid hunk at line ${line}: Update hunk does not contain any lines`,
  unexpected: (line: number, text: string) =>
    `Invalid hunk at line ${line}: Unexpected line found in update hunk: '${text}'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)`,
} as const

/** One line of a chunk: context (` `), removed (`-`) or added (`+`). */
export interface Op {
  readonly kind: " " | "-" | "+"
  readonly text: string
}

export interface Chunk {
  /** The `@@ <context>` line to seek first, if any. */
  readonly context: string | undefined
  readonly ops: ReadonlyArray<Op>
  /** `*** End of File`: the chunk's old lines end the file. */
  readonly eof: boolean
}

export type Hunk =
  | { readonly type: "add"; readonly path: string; readonly contents: string }
  | { readonly type: "delete"; readonly path: string }
  | { readonly type: "update"; readonly path: string; readonly move: string | undefined; readonly chunks: ReadonlyArray<Chunk> }

export interface ParseError {
  readonly _tag: "ParseError"
  readonly message: string
}

const error = (message: string): ParseError => ({ _tag: "ParseError", message })

export const isError = (value: unknown): value is ParseError => typeof value === "object" && value !== null && (value as ParseError)._tag === "ParseError"

/** `cat <<'EOF'`, `<<EOF`, `<<"EOF"`, `apply_patch <<'EOF'`: the delimiter, or undefined. */
const HEREDOC = /^(?:(?:cat|apply_patch|applypatch)\s+)?<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1$/

/** The lines between one heredoc wrapper, or the lines themselves. */
const unwrap = (lines: ReadonlyArray<string>): ReadonlyArray<string> => {
  const delimiter = HEREDOC.exec((lines[0] ?? "").trim())?.[2]
  const wrapped = delimiter !== undefined && lines.length >= 2 && (lines.at(-1) as string).trim() === delimiter
  return wrapped ? lines.slice(1, -1) : lines
}

const isHeader = (trimmed: string) => trimmed.startsWith(ADD) || trimmed.startsWith(DELETE) || trimmed.startsWith(UPDATE) || trimmed === END
const isChunkHeader = (trimmed: string) => trimmed === CHUNK || trimmed.startsWith(`${CHUNK} `)

interface Parsed<A> {
  readonly value: A
  /** The index of the first line after it. */
  readonly next: number
}

/** Patch line number of `lines[index]`: `*** Begin Patch` is line 1 and is not in `lines`. */
const lineOf = (index: number) => index + 2

/** One chunk starting at `lines[from]`; `first` allows a first chunk without `@@`. */
const parseChunk = (lines: ReadonlyArray<string>, from: number, first: boolean): Parsed<Chunk> | ParseError => {
  const head = (lines[from] as string).trim()
  const headed = isChunkHeader(head)
  if (!headed && !first) return error(Messages.unexpected(lineOf(from), lines[from] as string))
  const context = head.startsWith(`${CHUNK} `) ? head.slice(CHUNK.length + 1) : undefined
  const start = headed ? from + 1 : from
  const ops: Op[] = []
  for (let at = start; at < lines.length; at++) {
    const text = lines[at] as string
    const trimmed = text.trim()
    if (trimmed === END_OF_FILE) {
      if (ops.length === 0) return error(Messages.emptyChunk(lineOf(from)))
      return { value: { context, ops, eof: true }, next: at + 1 }
    }
    if (isHeader(trimmed) || isChunkHeader(trimmed) || trimmed.startsWith(MOVE)) break
    if (text === "") ops.push({ kind: " ", text: "" })
    else if (text[0] === " " || text[0] === "-" || text[0] === "+") ops.push({ kind: text[0], text: text.slice(1) })
    else if (ops.length === 0) return error(Messages.unexpected(lineOf(at), text))
    else break
  }
  if (ops.length === 0) return error(Messages.emptyChunk(lineOf(from)))
  return { value: { context, ops, eof: false }, next: start + ops.length }
}

/** The chunks of an update hunk from `lines[from]` (after its header and move lines). */
const parseChunks = (lines: ReadonlyArray<string>, from: number): Parsed<ReadonlyArray<Chunk>> | ParseError => {
  const chunks: Chunk[] = []
  const state = { at: from }
  while (state.at < lines.length) {
    const trimmed = (lines[state.at] as string).trim()
    if (isHeader(trimmed)) break
    // Blank lines between chunks separate them; inside a chunk they are context.
    if (trimmed === "") {
      state.at++
      continue
    }
    const chunk = parseChunk(lines, state.at, chunks.length === 0)
    if (isError(chunk)) return chunk
    chunks.push(chunk.value)
    state.at = chunk.next
  }
  return { value: chunks, next: state.at }
}

/** One hunk starting at `lines[from]`. */
const parseHunk = (lines: ReadonlyArray<string>, from: number): Parsed<Hunk> | ParseError => {
  const head = (lines[from] as string).trim()
  if (head.startsWith(ADD)) {
    const end = lines.findIndex((text, index) => index > from && !text.startsWith("+"))
    const added = lines.slice(from + 1, end === -1 ? lines.length : end)
    return { value: { type: "add", path: head.slice(ADD.length), contents: added.map((text) => `${text.slice(1)}\n`).join("") }, next: from + 1 + added.length }
  }
  if (head.startsWith(DELETE)) return { value: { type: "delete", path: head.slice(DELETE.length) }, next: from + 1 }
  if (!head.startsWith(UPDATE)) return error(Messages.header(lineOf(from), head))
  const path = head.slice(UPDATE.length)
  const moveLine = (lines[from + 1] ?? "").trim()
  const move = moveLine.startsWith(MOVE) ? moveLine.slice(MOVE.length) : undefined
  const chunks = parseChunks(lines, from + (move === undefined ? 1 : 2))
  if (isError(chunks)) return chunks
  if (chunks.value.length === 0) return error(Messages.emptyUpdate(path))
  return { value: { type: "update", path, move, chunks: chunks.value }, next: chunks.next }
}

/**
 * The hunks of a patch, or the first error.
 * @example ApplyPatchParse.parse("*** Begin Patch\n*** Delete File: a.txt\n*** End Patch") // [{ type: "delete", path: "a.txt" }]
 */
export const parse = (patchText: string): ReadonlyArray<Hunk> | ParseError => {
  const text = patchText.replaceAll("\r\n", "\n").trim()
  if (text === "") return error(Messages.required)
  const lines = unwrap(text.split("\n"))
  if ((lines[0] ?? "").trim() !== BEGIN) return error(Messages.begin)
  if (lines.length < 2 || (lines.at(-1) as string).trim() !== END) return error(Messages.end)
  const body = lines.slice(1, -1)
  const hunks: Hunk[] = []
  for (let at = 0; at < body.length; ) {
    const hunk = parseHunk(body, at)
    if (isError(hunk)) return hunk
    hunks.push(hunk.value)
    at = hunk.next
  }
  if (hunks.length === 0) return error(Messages.empty)
  return hunks
}
