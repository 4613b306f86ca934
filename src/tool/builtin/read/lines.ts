/**
 * The streaming line page of `read`: scans a file from its first byte in large chunks, finding
 * `\n` bytes with `Buffer.indexOf` and decoding nothing before the page. Only the page's lines are
 * kept, each capped at `keptLineBytes` bytes however long the line is, and the scan stops as soon
 * as the page is full and one more byte shows whether more remains; so memory stays bounded by
 * two chunks plus one page for any file size. The next chunk is read while the current one is
 * scanned (the file system and the scan overlap). Lines are split on `\n`; a `\r` right before it is
 * dropped (CRLF shows as LF), and a final `\n` ends the last line without adding an empty one.
 * A NUL byte in the first `sniffBytes` bytes or inside a page line makes the file binary.
 */
export * as ReadLines from "./lines.js"

import type { FileHandle } from "node:fs/promises"

/** Bytes per `read(2)`; two such buffers alternate, one filled ahead while the other is scanned. */
export const CHUNK_BYTES = 1024 * 1024

const NEWLINE = 0x0a
const CARRIAGE_RETURN = 0x0d
const NUL = 0x00

export interface Request {
  /** The first line of the page, 1-based (≥ 1). */
  readonly offset: number
  /** The most lines the page holds (≥ 1). */
  readonly limit: number
  /** The most bytes of page content: each formatted line's UTF-8 bytes plus one for its newline. */
  readonly maxBytes: number
  /** A NUL byte among the first `sniffBytes` bytes of the file makes it binary. */
  readonly sniffBytes: number
  /** Bytes kept of one line; enough to show the longest line `format` will show. */
  readonly keptLineBytes: number
  /** Formats line `number` (its decoded text, possibly cut at `keptLineBytes`) as it is shown. */
  readonly format: (number: number, text: string) => string
  /** Bytes per read; CHUNK_BYTES unless a test wants lines to cross many chunk boundaries. */
  readonly chunkBytes?: number
  /** Stops the scan when aborted (interruption). */
  readonly signal?: AbortSignal
}

export type Page =
  /** `lines` start at line `first`; `next` is the first line after them, when one exists. */
  | { readonly type: "page"; readonly first: number; readonly lines: ReadonlyArray<string>; readonly next: number | undefined }
  /** `offset` lies past the last line; `total` lines counted. */
  | { readonly type: "out_of_range"; readonly total: number }
  | { readonly type: "binary" }

/** What the scan holds: the line being read, the finished page lines, and where it is. */
interface Scan {
  /** The number of the line whose bytes come next. */
  line: number
  position: number
  /** The last byte read, to know whether the file ends with a newline. */
  last: number
  /** Kept bytes of the current page line (copies: the chunk buffer is reused). */
  parts: Buffer[]
  kept: number
  /** All bytes of the current page line seen so far, kept or not. */
  seen: number
  lines: string[]
  bytes: number
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf])

/**
 * The decoded text of the current line; a `\r` before its `\n` is dropped when the whole line was
 * kept, and a byte-order mark is not part of line 1 (edit matches the text without it).
 */
const decode = (scan: Scan): string => {
  const bytes = scan.parts.length === 1 ? (scan.parts[0] as Buffer) : Buffer.concat(scan.parts)
  const whole = scan.kept === scan.seen
  const end = whole && bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length
  const start = scan.line === 1 && bytes.subarray(0, UTF8_BOM.length).equals(UTF8_BOM) ? UTF8_BOM.length : 0
  return bytes.toString("utf8", start, Math.max(start, end))
}

/**
 * Ends the current page line. Returns the finished page when this line does not fit in the byte
 * budget (it then starts the next page), else adds it and returns undefined.
 */
const finish = (scan: Scan, request: Request): Page | undefined => {
  const formatted = request.format(scan.line, decode(scan))
  const size = Buffer.byteLength(formatted, "utf8") + 1
  if (scan.lines.length > 0 && scan.bytes + size > request.maxBytes) return { type: "page", first: request.offset, lines: scan.lines, next: scan.line }
  scan.lines.push(formatted)
  scan.bytes += size
  scan.line += 1
  scan.parts = []
  scan.kept = 0
  scan.seen = 0
  return undefined
}

/** Adds one segment of the current page line; false when it holds a NUL byte. */
const take = (scan: Scan, request: Request, segment: Buffer): boolean => {
  if (segment.indexOf(NUL) !== -1) return false
  const room = Math.min(segment.length, request.keptLineBytes - scan.kept)
  if (room > 0) {
    scan.parts.push(Buffer.from(segment.subarray(0, room)))
    scan.kept += room
  }
  scan.seen += segment.length
  return true
}

/**
 * Walks one chunk. Returns a page when the page is complete (full with more after it, cut by the
 * byte budget, or binary), else undefined to read on.
 */
const walk = (scan: Scan, request: Request, chunk: Buffer): Page | undefined => {
  for (let index = 0; index < chunk.length; ) {
    if (scan.line < request.offset) {
      const newline = chunk.indexOf(NEWLINE, index)
      if (newline === -1) return undefined
      scan.line += 1
      index = newline + 1
      continue
    }
    if (scan.lines.length === request.limit) return { type: "page", first: request.offset, lines: scan.lines, next: scan.line }
    const newline = chunk.indexOf(NEWLINE, index)
    const end = newline === -1 ? chunk.length : newline
    if (!take(scan, request, chunk.subarray(index, end))) return { type: "binary" }
    if (newline === -1) return undefined
    index = newline + 1
    const cut = finish(scan, request)
    if (cut !== undefined) return cut
  }
  return undefined
}

/** The page at end of file: the unterminated last line is finished, or the offset is out of range. */
const atEnd = (scan: Scan, request: Request): Page => {
  const tail = scan.line >= request.offset && scan.seen > 0 ? finish(scan, request) : undefined
  if (tail !== undefined) return tail
  if (scan.lines.length > 0) return { type: "page", first: request.offset, lines: scan.lines, next: undefined }
  const total = scan.line - 1 + (scan.position > 0 && scan.last !== NEWLINE ? 1 : 0)
  if (total === 0 && request.offset === 1) return { type: "page", first: 1, lines: [], next: undefined }
  return { type: "out_of_range", total }
}

/** Sniffs and walks one chunk; a page when the page is complete. */
const step = (scan: Scan, request: Request, chunk: Buffer): Page | undefined => {
  const sniffed = scan.position < request.sniffBytes && chunk.subarray(0, request.sniffBytes - scan.position).indexOf(NUL) !== -1
  if (sniffed) return { type: "binary" }
  scan.position += chunk.length
  scan.last = chunk[chunk.length - 1] as number
  return walk(scan, request, chunk)
}

/**
 * The page `request` asks for from a file's whole bytes, already read (a small file read in one
 * pass): the same scan as `page`, over one chunk.
 * @example const page = ReadLines.pageOf(Buffer.from("a\nb\n"), { offset: 1, limit: 2_000, maxBytes: 51_200, sniffBytes: 8_192, keptLineBytes: 8_004, format: (n, text) => `${n}: ${text}` })
 */
export const pageOf = (bytes: Buffer, request: Request): Page => {
  const scan: Scan = { line: 1, position: 0, last: NEWLINE, parts: [], kept: 0, seen: 0, lines: [], bytes: 0 }
  if (bytes.length === 0) return atEnd(scan, request)
  return step(scan, request, bytes) ?? atEnd(scan, request)
}

const aborted = () => Object.assign(new Error("The read was interrupted"), { name: "AbortError" })

/**
 * Reads the page `request` asks for from `handle`, from the file's first byte.
 * @example const page = await ReadLines.page(handle, { offset: 1, limit: 2_000, maxBytes: 51_200, sniffBytes: 8_192, keptLineBytes: 8_004, format: (n, text) => `${n}: ${text}` })
 */
export const page = async (handle: FileHandle, request: Request): Promise<Page> => {
  const size = request.chunkBytes ?? CHUNK_BYTES
  const [front, back] = [Buffer.allocUnsafe(size), Buffer.allocUnsafe(size)]
  const bufferOf = (turn: number) => (turn % 2 === 0 ? front : back)
  const scan: Scan = { line: 1, position: 0, last: NEWLINE, parts: [], kept: 0, seen: 0, lines: [], bytes: 0 }
  const reading = { next: handle.read(front, 0, size, 0), turn: 0 }
  for (;;) {
    const { bytesRead } = await reading.next
    if (bytesRead === 0) return atEnd(scan, request)
    const chunk = bufferOf(reading.turn).subarray(0, bytesRead)
    reading.turn += 1
    // Read ahead into the other buffer while this chunk is scanned.
    reading.next = handle.read(bufferOf(reading.turn), 0, size, scan.position + bytesRead)
    const done = step(scan, request, chunk)
    if (done !== undefined || request.signal?.aborted === true) {
      // The read-ahead is abandoned; its buffer is dropped and the handle's close waits for it.
      reading.next.catch(() => undefined)
      if (done === undefined) throw aborted()
      return done
    }
  }
}
