/**
 * Whether a Location's project config file is trusted, decided purely from what was read and
 * what the database holds. Trust is given to one file (its real path) with one content (a
 * SHA-256 of its bytes), as direnv's `allow` is: a file that changed since, a file created since
 * (`.toolgate/toolgate.json`), or a file in another folder of the same repository is not trusted.
 * A project trusted by an older toolgate (no content recorded) is not trusted either: nobody can
 * tell now what was reviewed then. `notice` is the one line a person reads about it on stderr.
 */
export * as ConfigTrust from "./trust.js"

import type { ConfigProjectFile } from "./project-file.js"

export const Messages = {
  changed: (file: string, directory: string) =>
    `Project config ${file} changed since it was trusted: its allow rules apply as ask, and its default_agent and skills do not count, until you run toolgate trust in ${directory} again (it shows what changed).`,
  notTrusted: (file: string, directory: string) =>
    `Project config ${file} is not trusted (trust is given to each config file and its content, and this one was not trusted): its allow rules apply as ask until you run toolgate trust in ${directory}.`,
  legacy: (file: string, directory: string) =>
    `Project config ${file} was trusted by an older toolgate that did not record its content: its allow rules apply as ask until you run toolgate trust in ${directory} again.`,
} as const

/** What the database holds for one file: the content trusted, and its hash. */
export interface Entry {
  readonly hash: string
  readonly content: string
}

export type Status =
  /** No project file (or one that cannot be read, which stops Config): nothing to trust. */
  | { readonly _tag: "Absent" }
  | { readonly _tag: "Trusted"; readonly file: string }
  /** Trusted once with other content, which `previous` holds. */
  | { readonly _tag: "Changed"; readonly file: string; readonly previous: string }
  /** Never trusted, though other config files of the project are: created since, or in another folder. */
  | { readonly _tag: "New"; readonly file: string }
  /** The project was trusted by a toolgate that did not record what it trusted. */
  | { readonly _tag: "Legacy"; readonly file: string }
  /** Never trusted, nor anything else of the project: the usual state, said nowhere. */
  | { readonly _tag: "Untrusted"; readonly file: string }

export interface Facts {
  readonly read: ConfigProjectFile.Read
  /** The record for the file's real path, if any. */
  readonly record: Entry | undefined
  /** Whether the project has a trusted config file at another path. */
  readonly others: boolean
  /** Whether the project was trusted by an older toolgate (a `trusted_at` with no file record). */
  readonly legacy: boolean
}

/**
 * @example ConfigTrust.classify({ read, record: { hash: read.hash, content: read.text }, others: false, legacy: false }) // { _tag: "Trusted", file }
 */
export const classify = ({ read, record, others, legacy }: Facts): Status => {
  if (read._tag !== "Found") return { _tag: "Absent" }
  const file = read.file
  if (record?.hash === read.hash) return { _tag: "Trusted", file }
  if (record !== undefined) return { _tag: "Changed", file, previous: record.content }
  if (others) return { _tag: "New", file }
  if (legacy) return { _tag: "Legacy", file }
  return { _tag: "Untrusted", file }
}

/** The line a person reads on stderr about a project file that does not count, if any. */
export const notice = (status: Status, directory: string): string | undefined => {
  if (status._tag === "Changed") return Messages.changed(status.file, directory)
  if (status._tag === "New") return Messages.notTrusted(status.file, directory)
  if (status._tag === "Legacy") return Messages.legacy(status.file, directory)
  return undefined
}
