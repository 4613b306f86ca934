/**
 * The throwaway tree one run executes in, under os.tmpdir(): `<root>/work` (the workdir),
 * `<root>/outside` (the canary: `victim`, `notes`, `sub/f`; `work/link` points at `sub`),
 * `<root>/home` (HOME), `<root>/shims` (the whole PATH: one recording shim per program the
 * grammar names), `<root>/trap.sh` (BASH_ENV: a DEBUG trap and a command_not_found_handle that log
 * too) and `<root>/fuzz.log`. Records are NUL-terminated: `P <shim> <args>`, `N <name>`, `D <command>`.
 * The root sits a few levels below the temporary directory, so a stray `..` still lands in it.
 */
export * as BashFuzzSandbox from "./sandbox.js"

import { createHash } from "node:crypto"
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { BashShell } from "../../../src/tool/builtin/bash/shell.js"

/** Programs that only record themselves. */
export const PLAIN: ReadonlyArray<string> = ["touch", "rm", "mark", "git", "ls", "cat", "grep", "sed", "tee", "echo", "printf", "true", "false"]
/** Programs that record themselves, then run as the real program would (their command via PATH: the shims). */
export const WRAPPERS: ReadonlyArray<string> = ["env", "timeout", "nice", "xargs"]
/** Shells: record, then run the real bash, so nested command strings really run. */
export const SHELLS: ReadonlyArray<string> = ["sh", "bash"]
/** Levels between the temporary directory and the root. */
export const DEPTH = 6

export interface Sandbox {
  readonly base: string
  readonly root: string
  readonly work: string
  readonly outside: string
  readonly home: string
  readonly shims: string
  readonly log: string
  /** The real bash, by absolute path. */
  readonly bash: string
  readonly env: Readonly<Record<string, string>>
}

/** Path (relative to the root) → type, size, mtime and content hash. */
export type Snapshot = ReadonlyMap<string, string>

export interface Change {
  readonly path: string
  readonly change: "created" | "deleted" | "changed"
}

const realBash = (): string => BashShell.which("bash", process.env) ?? "/bin/bash"

const shim = (name: string, bash: string): string => {
  const record = `printf 'P %s\\0' "$0 $*" >> "$FUZZ_LOG"`
  if (SHELLS.includes(name)) return `#!/bin/sh\n${record}\nexec ${bash} "$@"\n`
  const real = WRAPPERS.includes(name) ? BashShell.which(name, process.env) : undefined
  return real === undefined ? `#!/bin/sh\n${record}\n` : `#!/bin/sh\n${record}\nexec ${real} "$@"\n`
}

const TRAP = [
  "set -T",
  `trap 'printf "D %s\\0" "$BASH_COMMAND" >> "$FUZZ_LOG"' DEBUG`,
  `command_not_found_handle() { printf 'N %s\\0' "$1" >> "$FUZZ_LOG"; return 127; }`,
  "",
].join("\n")

/** The commands of trap.sh itself, which the DEBUG trap records too. */
export const OWN_COMMANDS: ReadonlyArray<string> = [`printf 'N %s\\0' "$1" >> "$FUZZ_LOG"`, "return 127"]

const build = (sandbox: Sandbox) => {
  rmSync(sandbox.root, { recursive: true, force: true })
  const file = (relative: string, text: string) => writeFileSync(path.join(sandbox.root, relative), text)
  for (const dir of ["work/d", "outside/sub", "home", "shims"]) mkdirSync(path.join(sandbox.root, dir), { recursive: true })
  file("work/a.txt", "a b x\n")
  file("work/victim", "inside\n")
  file("work/d/keep", "keep\n")
  symlinkSync("../outside/sub", path.join(sandbox.work, "link"))
  file("outside/victim", "original\n")
  file("outside/notes", "notes\n")
  file("outside/sub/f", "f\n")
  file("home/h", "home\n")
  for (const name of [...PLAIN, ...WRAPPERS, ...SHELLS]) writeFileSync(path.join(sandbox.shims, name), shim(name, sandbox.bash), { mode: 0o755 })
  file("trap.sh", TRAP)
  file("fuzz.log", "")
}

/** A fresh tree; remove it with `dispose`. */
export const create = (): Sandbox => {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "toolgate-fuzz-")))
  const root = path.join(base, ...Array.from({ length: DEPTH }, (_, level) => `j${level}`), "root")
  const bash = realBash()
  const sandbox: Sandbox = {
    base,
    root,
    work: path.join(root, "work"),
    outside: path.join(root, "outside"),
    home: path.join(root, "home"),
    shims: path.join(root, "shims"),
    log: path.join(root, "fuzz.log"),
    bash,
    env: { PATH: path.join(root, "shims"), HOME: path.join(root, "home"), FUZZ_LOG: path.join(root, "fuzz.log"), BASH_ENV: path.join(root, "trap.sh"), LC_ALL: "C.UTF-8" },
  }
  build(sandbox)
  return sandbox
}

/** Builds the tree again, as new. */
export const reset = (sandbox: Sandbox): void => build(sandbox)

export const dispose = (sandbox: Sandbox): void => rmSync(sandbox.base, { recursive: true, force: true })

const describe = (at: string): string => {
  const info = lstatSync(at, { bigint: true })
  if (info.isSymbolicLink()) return `l:${readlinkSync(at)}`
  if (info.isDirectory()) return `d:${info.mtimeNs}`
  if (!info.isFile()) return `o:${info.mode}`
  return `f:${info.size}:${info.mtimeNs}:${createHash("sha1").update(readFileSync(at)).digest("hex")}`
}

const walk = (sandbox: Sandbox, dir: string, skip: (at: string) => boolean, into: Map<string, string>): Map<string, string> => {
  for (const name of readdirSync(dir)) {
    const at = path.join(dir, name)
    if (skip(at)) continue
    into.set(path.relative(sandbox.root, at), describe(at))
    if (lstatSync(at).isDirectory()) walk(sandbox, at, skip, into)
  }
  return into
}

/** Everything in the temporary directory but the workdir and the log. */
export const outsideSnapshot = (sandbox: Sandbox): Snapshot => walk(sandbox, sandbox.base, (at) => at === sandbox.work || at === sandbox.log, new Map())

/** Everything in the workdir. */
export const workSnapshot = (sandbox: Sandbox): Snapshot => walk(sandbox, sandbox.work, () => false, new Map())

/** What differs between two snapshots, in path order. */
export const diff = (before: Snapshot, after: Snapshot): ReadonlyArray<Change> =>
  [...new Set([...before.keys(), ...after.keys()])].sort().flatMap((key): ReadonlyArray<Change> => {
    const was = before.get(key)
    const now = after.get(key)
    if (was === now) return []
    return [{ path: key, change: was === undefined ? "created" : now === undefined ? "deleted" : "changed" }]
  })
