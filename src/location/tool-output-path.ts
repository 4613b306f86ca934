/**
 * Where saved tool output lives and who may touch it (issue 12). A session's output goes to
 * `<tool-output>/<project id>/<session key>/`, the key a hash of the session id (safe on every
 * file system, case-insensitive ones too). A session reads its own folder without an
 * external_directory ask: every file there was named to it in one of its results. Anything else
 * under tool-output belongs to another session and is asked about as an outside folder, even
 * when the data directory lies inside the Location; no tool may write anywhere under it.
 * Paths are compared in real form. "Under tool-output" ignores case (refusing too much is safe);
 * "own" does not (a spelling that might be someone else's folder asks).
 */
export * as ToolOutputPath from "./tool-output-path.js"

import { hash } from "node:crypto"
import { statSync } from "node:fs"
import { type FileHandle, mkdir, open } from "node:fs/promises"
import path from "node:path"
import { LocationMutation } from "./mutation.js"
import { RealForm } from "./real-form.js"

/** Hex digits of the session id's SHA-256 in its folder name (128 bits). */
export const SESSION_KEY_LENGTH = 32
/** Mode of the folders made for saved output: only the user may list them. */
export const FOLDER_MODE = 0o700

export const Messages = {
  readOnly: (file: string) => `Cannot write ${file}: saved tool output is read-only (write a copy inside the working directory instead)`,
} as const

/**
 * Where a real path lies for one session: in its own saved output, in another session's (or in
 * tool-output itself), above tool-output (a search there would reach it), or elsewhere.
 */
export type Place = "own" | "other" | "above" | "outside"

/** @example sessionKey("ses_0193a4c2b1f00000aZ3kP9qLx2") // 32 lowercase hex digits */
export const sessionKey = (sessionID: string): string => hash("sha256", sessionID, "hex").slice(0, SESSION_KEY_LENGTH)

/** @example folder("/data/tool-output", "prj_1", "ses_1") // "/data/tool-output/prj_1/<sessionKey("ses_1")>" */
export const folder = (root: string, projectID: string, sessionID: string): string => path.join(root, projectID, sessionKey(sessionID))

/** Whether `real` is the real tool-output folder `root` or inside it, in any case. */
export const holds = (root: string, real: string): boolean => LocationMutation.contains(root, real, true)

/** Where `real` lies, given the real tool-output folder and the session's own folder in it. */
export const place = (root: string, own: string, real: string): Place => {
  if (LocationMutation.contains(own, real)) return "own"
  if (holds(root, real)) return "other"
  if (LocationMutation.contains(real, root, true)) return "above"
  return "outside"
}

/** The real form of `absolute`, which need not exist yet (real-form.ts); itself when it cannot be walked. */
export const realForm = (absolute: string): string => RealForm.orSelf(absolute)

const isDirectory = (real: string) => {
  try {
    return statSync(real, { throwIfNoEntry: false })?.isDirectory() === true
  } catch {
    return false
  }
}

/**
 * The external_directory entry a target at `where` needs: none in the session's own output;
 * for another session's, its own folder, asked even inside the Location and saved as exactly
 * that folder (never a repository root above it); otherwise what resolution found.
 */
export const external = (where: Place, target: LocationMutation.Target): LocationMutation.ExternalDirectory | undefined => {
  if (where === "own") return undefined
  if (where !== "other") return target.type === "external" ? target.externalDirectory : undefined
  const directory = target.type === "external" ? target.externalDirectory.directory : isDirectory(target.real) ? target.real : path.dirname(target.real)
  const resource = LocationMutation.folderPattern(directory)
  return { directory, resource, save: resource }
}

/**
 * For a search of an approved root above tool-output: whether it may list `file`. Approving the
 * root does not approve other sessions' output below it; that shows only where
 * external_directory allows its folder (`allowed`: the rules as they are, no ask).
 */
export const listable = (placeOf: (file: string) => Place, allowed: (resource: string) => boolean) => (file: string): boolean =>
  placeOf(file) !== "other" || allowed(LocationMutation.folderPattern(path.dirname(file)))

const code = (error: unknown) => (error as NodeJS.ErrnoException).code

/**
 * Creates `file` exclusively, making its folders first; once more when the folder went away in
 * between (a retention pass in another process removes a session folder left empty).
 */
export const create = async (file: string, mode: number): Promise<FileHandle> => {
  const attempt = async () => {
    await mkdir(path.dirname(file), { recursive: true, mode: FOLDER_MODE })
    return open(file, "wx", mode)
  }
  return attempt().catch((error: unknown) => (code(error) === "ENOENT" ? attempt() : Promise.reject(error)))
}
