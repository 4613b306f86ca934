/**
 * The preview the model reads in place of output that is over a limit. Pure and linear: it
 * scans for line breaks from both ends instead of splitting the text into an array, and cuts
 * bytes on UTF-8 character boundaries. Invariant (property-tested): the result is within both
 * limits, counted the way `measure` counts.
 * Lines are counted as `\n`-separated pieces; a final `\n` does not open another line.
 */
export * as ToolOutputPreview from "./tool-output-preview.js"

/** Lines the preview spends around the kept text: two blank lines and the marker line, plus slack. */
export const RESERVED_LINES = 4
/** Bytes of the two `\n\n` separators around the marker. */
export const SEPARATOR_BYTES = 4

export const Messages = {
  marker: (path: string) => `... output truncated; full content saved to ${path} ...`,
  shellMarker: (path: string) => `[output truncated; full output saved to: ${path}]`,
} as const

export interface Limits {
  readonly maxLines: number
  readonly maxBytes: number
}

export const byteLength = (text: string): number => Buffer.byteLength(text, "utf8")

/** Number of lines, stopping the count once it passes `stopAfter`. */
export const lineCount = (text: string, stopAfter = Number.POSITIVE_INFINITY): number => {
  if (text.length === 0) return 0
  const body = text.endsWith("\n") ? text.length - 1 : text.length
  let count = 1
  for (let at = text.indexOf("\n"); at !== -1 && at < body && count <= stopAfter; at = text.indexOf("\n", at + 1)) count++
  return count
}

export const fits = (text: string, limits: Limits): boolean =>
  byteLength(text) <= limits.maxBytes && lineCount(text, limits.maxLines) <= limits.maxLines

/** The first `lines` lines, without the break that ends the last of them. */
const headLines = (text: string, lines: number): string => {
  let end = -1
  for (let i = 0; i < lines; i++) {
    const next = text.indexOf("\n", end + 1)
    if (next === -1) return text
    end = next
  }
  return text.slice(0, end > 0 && text[end - 1] === "\r" ? end - 1 : end)
}

/** The last `lines` lines (a final `\n` does not count as an empty line). */
const tailLines = (text: string, lines: number): string => {
  if (lines <= 0) return ""
  const body = text.endsWith("\r\n") ? text.slice(0, -2) : text.endsWith("\n") ? text.slice(0, -1) : text
  let start = body.length
  for (let i = 0; i < lines; i++) {
    const previous = body.lastIndexOf("\n", start - 1)
    if (previous === -1) return body
    start = previous
  }
  return body.slice(start + 1)
}

const isContinuation = (byte: number | undefined) => byte !== undefined && (byte & 0b1100_0000) === 0b1000_0000
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff

/** The longest prefix of at most `bytes` UTF-8 bytes that ends on a character boundary. */
export const headBytes = (text: string, bytes: number): string => {
  if (bytes <= 0) return ""
  // Every UTF-16 unit is at least one byte, so no more than `bytes` units can fit.
  const units = Math.min(text.length, bytes)
  const candidate = units < text.length && isHighSurrogate(text.charCodeAt(units - 1)) ? text.slice(0, units - 1) : text.slice(0, units)
  const encoded = Buffer.from(candidate, "utf8")
  if (encoded.length <= bytes) return candidate
  let cut = bytes
  while (cut > 0 && isContinuation(encoded[cut])) cut--
  return encoded.subarray(0, cut).toString("utf8")
}

/** The longest suffix of at most `bytes` UTF-8 bytes that starts on a character boundary. */
export const tailBytes = (text: string, bytes: number): string => {
  if (bytes <= 0) return ""
  const start = Math.max(0, text.length - bytes)
  const candidate = start > 0 && isLowSurrogate(text.charCodeAt(start)) ? text.slice(start + 1) : text.slice(start)
  const encoded = Buffer.from(candidate, "utf8")
  if (encoded.length <= bytes) return candidate
  let cut = encoded.length - bytes
  while (cut < encoded.length && isContinuation(encoded[cut])) cut++
  return encoded.subarray(cut).toString("utf8")
}

/** The marker alone, clipped to the byte limit, for limits too small to hold anything else. */
const markerOnly = (marker: string, limits: Limits) => headBytes(marker, limits.maxBytes)

/**
 * Head and tail of `text` around the marker for `path`, within `limits`.
 * @example preview(big, "/data/tool-output/tool_01", { maxLines: 2000, maxBytes: 51200 })
 */
export const preview = (text: string, path: string, limits: Limits): string => {
  const marker = Messages.marker(path)
  const lineBudget = limits.maxLines - RESERVED_LINES
  const byteBudget = limits.maxBytes - byteLength(marker) - SEPARATOR_BYTES
  if (lineBudget <= 0 || byteBudget < 0) return markerOnly(marker, limits)
  const total = lineCount(text, lineBudget)
  const kept = Math.min(total, lineBudget)
  const headCount = Math.ceil(kept / 2)
  const head = headLines(text, headCount)
  const tail = tailLines(text, kept - headCount)
  const halves = { head: Math.ceil(byteBudget / 2), tail: Math.floor(byteBudget / 2) }
  const fitted =
    byteLength(head) + byteLength(tail) <= byteBudget
      ? { head, tail }
      : total <= lineBudget
        ? // Every line fits the line budget, only bytes do not: show both ends of the whole text,
          // so that even a single huge line (minified JSON, base64) shows its end.
          { head: headBytes(text, halves.head), tail: tailBytes(text, halves.tail) }
        : { head: headBytes(head, halves.head), tail: tailBytes(tail, halves.tail) }
  return fitted.tail.length === 0 ? `${fitted.head}\n\n${marker}` : `${fitted.head}\n\n${marker}\n\n${fitted.tail}`
}

/** The tail-only preview of shell output: the last lines within the budget, then the shell marker. */
export const tailPreview = (text: string, path: string, limits: Limits): string => {
  const marker = `\n\n${Messages.shellMarker(path)}`
  const lineBudget = limits.maxLines - RESERVED_LINES
  const byteBudget = limits.maxBytes - byteLength(marker)
  if (lineBudget <= 0 || byteBudget < 0) return markerOnly(Messages.shellMarker(path), limits)
  return `${tailBytes(tailLines(text, lineBudget), byteBudget)}${marker}`
}
