/**
 * Which shell runs a bash command (07): `$SHELL` when its basename is bash, sh or dash; else
 * `bash` found on `PATH`; else `/bin/sh`. Not zsh, unlike 07: the permission parser reads bash,
 * and zsh gives other meanings to the same text (`=rm`, `noglob rm`, glob qualifiers that run
 * code), so a zsh `$SHELL` gets bash instead. `select` is pure (the PATH lookup is passed in, so
 * tables can test it); `resolve` does the lookup on the real file system.
 * Gotcha: only absolute `PATH` entries are searched; an empty or relative entry would mean "the
 * current directory", and a `bash` planted in the project must not become the shell.
 */
export * as BashShell from "./shell.js"

import { accessSync, constants, statSync } from "node:fs"
import path from "node:path"
import { Effect } from "effect"

/** Shells whose `-c` the bash tool trusts to mean what the permission parser read. */
export const SUPPORTED: ReadonlyArray<string> = ["bash", "sh", "dash"]
/** The shell of last resort: POSIX guarantees it. */
export const FALLBACK = "/bin/sh"

export type Env = Readonly<Record<string, string | undefined>>

/**
 * The shell for `env`, given a PATH lookup.
 * @example select({ SHELL: "/usr/bin/fish" }, () => "/usr/bin/bash") // "/usr/bin/bash"
 */
export const select = (env: Env, lookup: (name: string) => string | undefined): string => {
  const shell = env["SHELL"]
  if (shell !== undefined && shell !== "" && SUPPORTED.includes(path.basename(shell))) return shell
  return lookup("bash") ?? FALLBACK
}

const isExecutableFile = (file: string): boolean => {
  try {
    accessSync(file, constants.X_OK)
    return statSync(file).isFile()
  } catch {
    // Missing, unreadable or not executable: not a candidate; the search goes on.
    return false
  }
}

/**
 * The first executable regular file called `name` in the absolute entries of `env.PATH`.
 * @example which("bash", process.env) // "/usr/bin/bash"
 */
export const which = (name: string, env: Env): string | undefined =>
  (env["PATH"] ?? "")
    .split(path.delimiter)
    .filter((entry) => path.isAbsolute(entry))
    .map((entry) => path.join(entry, name))
    .find(isExecutableFile)

/**
 * The shell for `env` (default: this process's environment), looked up on the real `PATH`.
 * @example const shell = yield* BashShell.resolve()
 */
export const resolve = (env: Env = process.env): Effect.Effect<string> => Effect.sync(() => select(env, (name) => which(name, env)))
