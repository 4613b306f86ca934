/**
 * Reads a Location's project config file once: `toolgate.json`, else `.toolgate/toolgate.json`.
 * Trust is bound to what was read here (the file's real path and a SHA-256 of its bytes), so the
 * bytes Config parses must be these same bytes, never a second read the file may have changed
 * under. Reading never fails: a file that cannot be read is reported, for Config to refuse.
 */
export * as ConfigProjectFile from "./project-file.js"

import { createHash } from "node:crypto"
import { readFile, realpath } from "node:fs/promises"
import { Effect } from "effect"
import { Directories } from "../directories.js"

/** What reading found, for the Location `location`. */
export type Read =
  | {
      readonly _tag: "Found"
      readonly location: string
      /** The path read (primary or secondary candidate). */
      readonly file: string
      /** Its real path: what trust is keyed on. */
      readonly real: string
      readonly text: string
      /** SHA-256 of the bytes, in hex. */
      readonly hash: string
    }
  | { readonly _tag: "Absent"; readonly location: string; readonly file: string }
  | { readonly _tag: "Unreadable"; readonly location: string; readonly file: string; readonly detail: string }

/** No file there, or a component on the way is not a folder: the file is simply absent. */
const ABSENT = new Set(["ENOENT", "ENOTDIR"])

/** SHA-256 of the bytes, in hex. */
export const digest = (bytes: Uint8Array | string): string => createHash("sha256").update(bytes).digest("hex")

const attempt = (location: string, file: string): Promise<Read> =>
  readFile(file).then(
    async (bytes): Promise<Read> => ({ _tag: "Found", location, file, real: await realpath(file).catch(() => file), text: bytes.toString("utf8"), hash: digest(bytes) }),
    (error: NodeJS.ErrnoException): Read =>
      ABSENT.has(error.code ?? "") ? { _tag: "Absent", location, file } : { _tag: "Unreadable", location, file, detail: error.code ?? error.message },
  )

/** The first candidate that exists, else the last one found missing. */
export const read = (location: string): Effect.Effect<Read> =>
  Effect.promise(async () => {
    const [primary, secondary] = Directories.projectConfigFiles(location) as [string, string]
    const first = await attempt(location, primary)
    return first._tag === "Absent" ? attempt(location, secondary) : first
  })
