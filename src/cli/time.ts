/**
 * Times as the CLI prints and reads them. Printed in UTC to the second (`2025-06-01T12:00:00Z`),
 * so output does not depend on the machine's time zone and a printed time can be given back to
 * `--since` as it is. `--since` takes such a time (a date alone, or a time without an offset, is
 * UTC as well) or an age: a whole number and a unit, `30s`, `10m`, `2h`, `3d`, `1w`.
 */
export * as CliTime from "./time.js"

/** The units of an age, in milliseconds. */
export const UNITS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }

const AGE = /^(\d+)([smhdw])$/
const ISO = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/

/** @example CliTime.format(0) // "1970-01-01T00:00:00Z" */
export const format = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`

/**
 * The moment `text` names, in milliseconds, or undefined when it is neither a time nor an age.
 * @example CliTime.since("2h", Date.now()) // two hours ago
 */
export const since = (text: string, now: number): number | undefined => {
  const age = AGE.exec(text)
  if (age !== null) return now - Number(age[1]) * (UNITS[age[2] as string] as number)
  const iso = ISO.exec(text)
  if (iso === null) return undefined
  // Without an offset the time is UTC, as printed; a date alone is already read as UTC.
  const normalized = text.replace(" ", "T")
  const at = Date.parse(iso[1] === undefined && normalized.includes("T") ? `${normalized}Z` : normalized)
  if (Number.isNaN(at)) return undefined
  // Date.parse rolls 2025-02-30 over to March; in UTC the day must stay the one written.
  const utc = iso[1] === undefined || iso[1] === "Z"
  return utc && !format(at).startsWith(text.slice(0, 10)) ? undefined : at
}
