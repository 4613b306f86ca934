/**
 * What the search providers' answers share: optional text fields that may be missing, null or
 * blank, read the same way for every provider.
 */
export * as HitFields from "./hit-fields.js"

import { Schema } from "effect"

/** A text field a provider may leave out or send as null. */
export const optionalText = Schema.optional(Schema.NullOr(Schema.String))

/**
 * The trimmed text, or undefined when there is none.
 * @example HitFields.present("  a  ") // "a"
 */
export const present = (value: string | null | undefined): string | undefined => (value === undefined || value === null || value.trim() === "" ? undefined : value.trim())

/**
 * Snippet lines (highlights, excerpts) trimmed, blank ones dropped, one per line.
 * @example HitFields.lines([" a ", "", "b"]) // "a\nb"
 */
export const lines = (list: ReadonlyArray<string> | null | undefined): string =>
  (list ?? [])
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join("\n")
