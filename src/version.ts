/**
 * toolgate's own version, read once from its package.json: the first one named toolgate above
 * this file (one folder up from `src/` and `dist/`, two from the bundle in `dist/cli/`).
 */
export * as Version from "./version.js"

import { readFileSync } from "node:fs"

const CANDIDATES = ["../package.json", "../../package.json"]

const read = (relative: string): string | undefined => {
  try {
    const manifest = JSON.parse(readFileSync(new URL(relative, import.meta.url), "utf8")) as { readonly name?: string; readonly version?: string }
    return manifest.name === "toolgate" ? manifest.version : undefined
  } catch {
    // Deliberate: a folder without that file is simply not the package root.
    return undefined
  }
}

export const current: string = CANDIDATES.map(read).find((version) => version !== undefined) ?? "unknown"
