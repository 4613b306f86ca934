/**
 * File names as the file system has them: bytes, which need not be UTF-8 (Linux allows any byte
 * but `/` and NUL). Snapshots read names from git and hand them back to git and to the file
 * system; a name decoded as UTF-8 with replacement characters no longer names its file, and a
 * revert then silently left such a file deleted. Here a name is a string in which every byte that
 * is not part of valid UTF-8 stands as the lone surrogate U+DC80 + byte (Python's
 * "surrogateescape"): a valid UTF-8 name is the string it always was, and every name turns back
 * into its exact bytes. No valid UTF-8 decodes to a lone surrogate, so the two never mix.
 * - `decode` / `encode`: bytes to such a string and back.
 * - `fs`: the argument for a Node file-system call (a Buffer only when the name needs one).
 * - `pathspecs`: git pathspecs matching these names through argv, which Node passes as UTF-8
 *   only (a name with escapes is matched by its clean folder, then filtered by `within`).
 * - `shown`: the name for a person, each escaped byte written `\xNN`.
 */
export * as BytePath from "./byte-path.js"

const ESCAPE = 0xdc00
const escaped = (unit: number) => unit >= 0xdc80 && unit <= 0xdcff

/** The length of the valid UTF-8 sequence starting at `at`, or 0 when the byte there does not start one. */
const sequence = (bytes: Uint8Array, at: number): number => {
  const first = bytes[at] as number
  if (first < 0x80) return 1
  const length = first >= 0xc2 && first <= 0xdf ? 2 : first >= 0xe0 && first <= 0xef ? 3 : first >= 0xf0 && first <= 0xf4 ? 4 : 0
  if (length === 0 || at + length > bytes.length) return 0
  for (let index = 1; index < length; index++) if (((bytes[at + index] as number) & 0xc0) !== 0x80) return 0
  const second = bytes[at + 1] as number
  // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not valid UTF-8.
  if (first === 0xe0 && second < 0xa0) return 0
  if (first === 0xed && second >= 0xa0) return 0
  if (first === 0xf0 && second < 0x90) return 0
  if (first === 0xf4 && second >= 0x90) return 0
  return length
}

/** `bytes` as a string: valid UTF-8 decoded, every other byte as U+DC80 + byte. */
export const decode = (bytes: Uint8Array): string => {
  // Buffer's decoder keeps a leading U+FEFF, which is part of a name (TextDecoder drops it).
  const valid = (from: number, to: number) => Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString("utf8")
  let text = ""
  let clean = 0
  for (let at = 0; at < bytes.length; ) {
    const length = sequence(bytes, at)
    if (length > 0) {
      at += length
      continue
    }
    text += valid(clean, at) + String.fromCharCode(ESCAPE + (bytes[at] as number))
    at += 1
    clean = at
  }
  return text + valid(clean, bytes.length)
}

/** Whether `name` holds an escaped byte: then only `encode` gives its bytes. */
export const hasEscapes = (name: string): boolean => {
  for (let index = 0; index < name.length; index++) if (escaped(name.charCodeAt(index))) return true
  return false
}

/** The exact bytes of `name` (the inverse of `decode`). */
export const encode = (name: string): Buffer => {
  if (!hasEscapes(name)) return Buffer.from(name, "utf8")
  const parts: Array<Buffer> = []
  let clean = 0
  for (let index = 0; index < name.length; index++) {
    const unit = name.charCodeAt(index)
    if (!escaped(unit)) continue
    parts.push(Buffer.from(name.slice(clean, index), "utf8"), Buffer.of(unit - ESCAPE))
    clean = index + 1
  }
  parts.push(Buffer.from(name.slice(clean), "utf8"))
  return Buffer.concat(parts)
}

/** What to give a Node file-system call for `name`: the string itself, or its bytes when it has escapes. */
export const fs = (name: string): string | Buffer => (hasEscapes(name) ? encode(name) : name)

/**
 * Pathspecs for these Location-relative names, each matching the name and what lies below it:
 * `:(literal)` and the name when Node can pass it as it is; else the folder of its clean leading
 * components, or no pathspec at all (everything) when its first component has an escaped byte.
 * Those may match more than asked: filter what git lists with `within`. (`ls-tree` takes no
 * `:(glob)`, so a wildcard for the escaped bytes is not an option; a command that acts on what it
 * matches, `checkout`, takes the exact names on stdin instead.)
 */
export const pathspecs = (names: ReadonlyArray<string>): Array<string> => {
  const specs: Array<string> = []
  for (const name of names) {
    if (!hasEscapes(name)) {
      specs.push(`:(literal)${name}`)
      continue
    }
    const parts = name.split("/")
    const clean = parts.slice(0, parts.findIndex(hasEscapes))
    if (clean.length === 0) return []
    specs.push(`:(literal)${clean.join("/")}`)
  }
  return specs
}

/** Whether `name` is one of `names` or lies below one of them (what `pathspecs` means to match). */
export const within = (names: ReadonlyArray<string>) => {
  const exact = new Set(names)
  return (name: string): boolean => {
    if (exact.has(name) || exact.has(".")) return true
    for (let slash = name.indexOf("/"); slash !== -1; slash = name.indexOf("/", slash + 1)) if (exact.has(name.slice(0, slash))) return true
    return false
  }
}

/** `name` for a person: each escaped byte as `\xNN`. */
export const shown = (name: string): string =>
  hasEscapes(name) ? [...name].map((char) => (char.length === 1 && escaped(char.charCodeAt(0)) ? `\\x${(char.charCodeAt(0) - ESCAPE).toString(16).padStart(2, "0")}` : char)).join("") : name
