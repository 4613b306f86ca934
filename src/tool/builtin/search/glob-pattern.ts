/**
 * Glob patterns of `glob` and `grep`'s `include`, matched here rather than by `rg --glob`: a
 * ripgrep `--glob` is an override that beats `.gitignore` and hidden-file rules, so a file the
 * project ignores would be listed just because it matches. Semantics follow `.gitignore`: a
 * pattern without `/` (after any leading `**` + `/`) matches a file name at any depth; with a
 * `/` it is anchored at the search root; `*` and `?` stay inside one path segment, a whole `**`
 * segment spans folders, `[...]` / `[!...]` are classes, `{a,b}` alternatives (not nested), `\`
 * escapes. `prefilter` is the last segment, safe to hand ripgrep as a file-type glob so it skips
 * other files natively (file types, unlike overrides, never beat ignore rules).
 */
export * as GlobPattern from "./glob-pattern.js"

import { Schema } from "effect"

export const Messages = {
  invalid: (pattern: string, reason: string) => `Invalid glob pattern: ${reason} in ${pattern}`,
} as const

export const REASONS = {
  unclosedClass: "unclosed character class",
  unclosedGroup: "unclosed alternate group",
  nestedGroup: "nested alternate groups are not allowed",
  danglingEscape: "dangling escape",
  invalidClass: "invalid character class (a range out of order?)",
} as const

export class InvalidError extends Schema.TaggedError<InvalidError>()("GlobPattern.InvalidError", {
  pattern: Schema.String,
  reason: Schema.String,
}) {
  override get message() {
    return Messages.invalid(this.pattern, this.reason)
  }
}

export interface Pattern {
  /** Whether a path relative to the search root (`/` separators, no leading `./`) matches. */
  readonly test: (relative: string) => boolean
  /** A file-name glob every match satisfies, for ripgrep's type filter; undefined when none helps. */
  readonly prefilter: string | undefined
}

const SYNTAX = /[\\^$.*+?()[\]{}|/]/g
const escape = (text: string) => text.replace(SYNTAX, "\\$&")

/**
 * Segments that filter nothing, that `--type-add` cannot carry (`:`), or that ripgrep reads more
 * strictly than we do: its globs match bytes, so `?` (or a class naming a non-ASCII character)
 * would drop file names we match by character.
 */
const unusablePrefilter = (segment: string) =>
  // An escape (`a\/b`) may hide a `/` the scan did not count as a segment break.
  segment.includes("\\") ||
  segment === "" || segment === "*" || segment.includes("**") || segment.includes(":") || segment.includes("?") || (segment.includes("[") && /[^\x00-\x7f]/.test(segment))

interface Scan {
  readonly source: string
  /** Index after the last `/` outside classes and groups; -1 when a group or class holds a `/`. */
  readonly lastSegment: number
}

/** A class member as a regex class member: `\\`, `]`, `[`, `^` and an escaped `-` are escaped. */
const member = (char: string) => (/[\\\]\[^-]/.test(char) ? `\\${char}` : char)

/** Translates one class starting at `start` (the `[`); undefined when it never closes. */
const translateClass = (pattern: string, start: number): { readonly source: string; readonly end: number; readonly slash: boolean } | undefined => {
  const negated = pattern[start + 1] === "!" || pattern[start + 1] === "^"
  const first = start + (negated ? 2 : 1)
  const parts: string[] = []
  const state = { index: first, slash: false }
  while (state.index < pattern.length) {
    const char = pattern[state.index] as string
    // A `]` right after the opening (or its negation) is a literal member, as in shells.
    if (char === "]" && state.index > first) return { source: `[${negated ? "^/" : ""}${parts.join("")}]`, end: state.index + 1, slash: state.slash }
    const escaped = char === "\\" && state.index + 1 < pattern.length
    const literal = escaped ? (pattern[state.index + 1] as string) : char
    state.slash ||= literal === "/"
    parts.push(char === "-" ? "-" : member(literal))
    state.index += escaped ? 2 : 1
  }
  return undefined
}

const scan = (pattern: string): Scan | InvalidError => {
  const out: string[] = []
  const state = { index: 0, group: false, lastSegment: 0, slashInside: false }
  const fail = (reason: string) => new InvalidError({ pattern, reason })
  while (state.index < pattern.length) {
    const char = pattern[state.index] as string
    const next = pattern[state.index + 1]
    const segmentStart = state.index === 0 || pattern[state.index - 1] === "/"
    if (char === "*" && next === "*" && segmentStart && (state.index + 2 === pattern.length || pattern[state.index + 2] === "/")) {
      const last = state.index + 2 === pattern.length
      out.push(last ? ".*" : "(?:[^/]*/)*")
      state.index += last ? 2 : 3
      if (!last && !state.group) state.lastSegment = state.index
      continue
    }
    if (char === "*") {
      out.push("[^/]*")
      state.index += next === "*" ? 2 : 1
      continue
    }
    if (char === "?") out.push("[^/]")
    else if (char === "[") {
      const translated = translateClass(pattern, state.index)
      if (translated === undefined) return fail(REASONS.unclosedClass)
      out.push(translated.source)
      state.slashInside ||= translated.slash
      state.index = translated.end
      continue
    } else if (char === "{") {
      if (state.group) return fail(REASONS.nestedGroup)
      state.group = true
      out.push("(?:")
    } else if (char === "}" && state.group) {
      state.group = false
      out.push(")")
    } else if (char === "," && state.group) out.push("|")
    else if (char === "\\") {
      if (next === undefined) return fail(REASONS.danglingEscape)
      out.push(escape(next))
      state.index += 2
      continue
    } else if (char === "/") {
      out.push("/")
      if (state.group) state.slashInside = true
      else state.lastSegment = state.index + 1
    } else out.push(escape(char))
    state.index += 1
  }
  if (state.group) return fail(REASONS.unclosedGroup)
  return { source: out.join(""), lastSegment: state.slashInside ? -1 : state.lastSegment }
}

/** The compiled expression, or undefined when the system refuses it (`[z-a]`: a range out of order). */
const regexOf = (source: string): RegExp | undefined => {
  try {
    return new RegExp(source, "su")
  } catch {
    return undefined
  }
}

/** Drops `./` prefixes; a trailing `/` means everything inside. */
const normalise = (pattern: string) => {
  const stripped = pattern.replace(/^(?:\.\/)+/, "")
  return stripped.endsWith("/") ? `${stripped}**` : stripped
}

/**
 * Compiles a pattern, or explains why it is not one.
 * @example GlobPattern.compile("src/**\/*.ts") // test("src/a/b.ts") === true, prefilter "*.ts"
 */
export const compile = (raw: string): Pattern | InvalidError => {
  const pattern = normalise(raw)
  const anchored = pattern.startsWith("/")
  const body = anchored ? pattern.slice(1) : pattern
  const unprefixed = body.replace(/^(?:\*\*\/)+/, "")
  const floating = !anchored && !unprefixed.includes("/")
  const core = floating ? unprefixed : body
  const scanned = scan(core)
  if (scanned instanceof InvalidError) return new InvalidError({ pattern: raw, reason: scanned.reason })
  const segment = scanned.lastSegment < 0 ? "" : core.slice(scanned.lastSegment)
  const prefilter = unusablePrefilter(segment) ? undefined : segment
  const regex = regexOf(`^${floating ? "(?:[^/]*/)*" : ""}${scanned.source}$`)
  if (regex === undefined) return new InvalidError({ pattern: raw, reason: REASONS.invalidClass })
  return { test: (relative) => regex.test(relative), prefilter }
}
