/**
 * Where waiting processes listen: `<data dir>/warm/<fingerprint's name>.sock`. The folder is the
 * user's alone (created 0700; one owned by someone else or open to others is not used), since
 * whoever can connect there has a command run as this user. A socket's path must fit in
 * `sockaddr_un` (107 bytes): a data folder too deep for that has no waiting process.
 */
export * as WarmPlace from "./place.js"

import { chmodSync, lstatSync, mkdirSync } from "node:fs"
import path from "node:path"

export const FOLDER = "warm"

/** The longest socket path Linux takes (`sun_path` is 108 bytes with its NUL). */
export const MAX_PATH = 107

/** The user's own folder of sockets in `dataDir`, made if missing; undefined when it is not safely the user's. */
export const folder = (dataDir: string, create: boolean): string | undefined => {
  const directory = path.join(dataDir, FOLDER)
  try {
    if (create) mkdirSync(directory, { recursive: true, mode: 0o700 })
    const stat = lstatSync(directory)
    if (!stat.isDirectory() || stat.uid !== process.getuid?.()) return undefined
    if ((stat.mode & 0o077) !== 0) {
      if (!create) return undefined
      chmodSync(directory, 0o700)
    }
    return directory
  } catch {
    // Deliberate: no folder (or none that can be made) is no waiting process; the command runs here.
    return undefined
  }
}

/** The socket of the waiting process for the fingerprint named `name`, or undefined when the path is too long. */
export const socket = (directory: string, name: string): string | undefined => {
  const file = path.join(directory, `${name}.sock`)
  return Buffer.byteLength(file) <= MAX_PATH ? file : undefined
}
