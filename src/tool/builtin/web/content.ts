/**
 * What a fetched response is and how its bytes become text, decided from headers and bytes only
 * (pure). Textual types are `text/*`, JSON (`application/json`, `+json`), XML (`application/xml`,
 * `+xml`, so SVG is text) and `application/javascript`, or no type at all; any other image is
 * refused as an image, anything else as a file. The charset is, in order: a byte-order mark, the
 * Content-Type `charset`, for HTML a `<meta>` declaration in the first 1024 bytes (the HTML
 * prescan window), else UTF-8; an unknown label falls back to UTF-8 and bad bytes become U+FFFD.
 */
export * as WebContent from "./content.js"

import { TextDecoder } from "node:util"

export type Format = "markdown" | "text" | "html"

/** Bytes of the body the HTML `<meta charset>` prescan looks at (WHATWG HTML, "prescan a byte stream"). */
export const META_PRESCAN_BYTES = 1024

export type Kind = "text" | "image" | "file"

/** Accept headers, each led by the requested format and ending with anything at all. */
export const ACCEPT: Readonly<Record<Format, string>> = {
  markdown: "text/markdown;q=1.0, text/x-markdown;q=0.9, text/plain;q=0.8, text/html;q=0.7, */*;q=0.1",
  text: "text/plain;q=1.0, text/markdown;q=0.9, text/html;q=0.8, */*;q=0.1",
  html: "text/html;q=1.0, application/xhtml+xml;q=0.9, text/plain;q=0.8, text/markdown;q=0.7, */*;q=0.1",
}

const TEXT_TYPES: ReadonlyArray<string> = ["application/json", "application/xml", "application/javascript"]
const TEXT_SUFFIXES: ReadonlyArray<string> = ["+json", "+xml"]

/** The media type without parameters, lowercased; "" when the header is absent or empty. */
export const mime = (contentType: string | null | undefined): string => (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? ""

/** Whether a media type (from `mime`) may be returned as text. */
export const kind = (type: string): Kind => {
  if (type === "" || type.startsWith("text/") || TEXT_TYPES.includes(type) || TEXT_SUFFIXES.some((suffix) => type.endsWith(suffix))) return "text"
  if (type.startsWith("image/")) return "image"
  return "file"
}

export const isHtml = (type: string) => type === "text/html"

const CHARSET_PARAMETER = /;\s*charset\s*=\s*["']?([^"';\s]+)/i
const META_CHARSET = /<meta[^>]*?charset\s*=\s*["']?\s*([-\w.:]+)/i

const bomCharset = (bytes: Uint8Array): string | undefined => {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8"
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le"
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be"
  return undefined
}

/** A `<meta>` declaration near the start; a declared UTF-16 means UTF-8, as the HTML spec says (the bytes were read as ASCII). */
const metaCharset = (bytes: Uint8Array): string | undefined => {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, META_PRESCAN_BYTES)).toString("latin1")
  const label = META_CHARSET.exec(head)?.[1]?.toLowerCase()
  return label?.startsWith("utf-16") === true ? "utf-8" : label
}

/** The charset the bytes are decoded with (see the module docs for the order). */
export const charset = (bytes: Uint8Array, contentType: string | null | undefined): string => {
  const declared = CHARSET_PARAMETER.exec(contentType ?? "")?.[1]
  return bomCharset(bytes) ?? declared ?? (isHtml(mime(contentType)) ? metaCharset(bytes) : undefined) ?? "utf-8"
}

/**
 * windows-1252 at 0x80–0x9F (WHATWG index-windows-1252). Node's TextDecoder decodes this
 * encoding, which the labels latin1, iso-8859-1 and ascii also name, as Latin-1 since 20.18.3
 * (nodejs/node#60888), so these 32 bytes are mapped here.
 */
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
].map((code) => String.fromCharCode(code))

const decodeWindows1252 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString("latin1")
    .replace(/[\x80-\x9f]/g, (char) => WINDOWS_1252_HIGH[char.charCodeAt(0) - 0x80] as string)

const decoderFor = (label: string): TextDecoder => {
  try {
    return new TextDecoder(label)
  } catch {
    // TextDecoder signals an unknown or unsupported label only by throwing a RangeError.
    return new TextDecoder("utf-8")
  }
}

/** The body as text; a byte-order mark is dropped. */
export const decode = (bytes: Uint8Array, contentType: string | null | undefined): string => {
  const decoder = decoderFor(charset(bytes, contentType))
  return decoder.encoding === "windows-1252" ? decodeWindows1252(bytes) : decoder.decode(bytes)
}
