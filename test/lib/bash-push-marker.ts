/**
 * Real bash with a recording `git` first on PATH: `pushes(line)` runs the line in a fresh folder
 * and says whether it ran `git push` (the stand-in only writes a marker). `installed(name)` says
 * whether this machine has a program, so a test of what it runs is skipped where it is missing.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"

export const folder = mkdtempSync(path.join(os.tmpdir(), "toolgate-push-marker-"))
const bin = path.join(folder, "bin")
const marker = path.join(folder, "marker")
mkdirSync(bin)
writeFileSync(path.join(bin, "git"), `#!/bin/sh\necho "git $*" >> '${marker}'\n`)
chmodSync(path.join(bin, "git"), 0o755)

/** What the recording git was run with by `line` under real bash (empty: nothing ran it). */
export const pushes = (line: string): string => {
  rmSync(marker, { force: true })
  spawnSync("bash", ["-c", line], { cwd: folder, env: { PATH: `${bin}:${process.env.PATH ?? ""}`, HOME: folder }, stdio: "ignore", timeout: 10_000 })
  return existsSync(marker) ? readFileSync(marker, "utf8").trim() : ""
}

/** Whether `name` is a program on this machine's PATH. */
export const installed = (name: string): boolean => {
  try {
    execFileSync("bash", ["-c", `command -v -- '${name}'`], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
}

export const cleanup = (): void => rmSync(folder, { recursive: true, force: true })
