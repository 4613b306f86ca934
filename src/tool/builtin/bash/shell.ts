/**
 * Which shell runs a bash command (07, as issue 11 narrows it): `$SHELL` when its basename is
 * bash; else `bash` found on `PATH`; else `/bin/sh`. Never zsh, sh or dash while bash exists: the
 * permission parser reads bash, and other shells read the same text otherwise (dash takes
 * `$'\'; x; \' #'` for three commands where bash sees one quoted word; zsh has `=rm`, glob
 * qualifiers that run code). Where no bash exists, `readsBash` says so and the tool treats every
 * command as opaque. `select` is pure (the PATH lookup is passed in, so tables can test it);
 * `resolve` does the lookup on the real file system.
 * Gotcha: only absolute `PATH` entries are searched; an empty or relative entry would mean "the
 * current directory", and a `bash` planted in the project must not become the shell.
 */
export * as BashShell from "./shell.js"

import { accessSync, constants, realpathSync, statSync } from "node:fs"
import path from "node:path"
import { Effect } from "effect"

/** Shells whose `-c` the bash tool trusts to mean what the permission parser read. */
export const SUPPORTED: ReadonlyArray<string> = ["bash"]
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
 * Whether `shell` is bash (followed through links: `/bin/sh` is bash on some systems), so that it
 * reads a command as the permission parser does.
 * @example readsBash("/usr/bin/dash") // false
 */
export const readsBash = (shell: string): boolean => {
  try {
    return path.basename(realpathSync.native(shell)) === "bash"
  } catch {
    // Missing or unreadable: it cannot be shown to be bash.
    return false
  }
}

/**
 * The shell for `env` (default: this process's environment), looked up on the real `PATH`.
 * @example const shell = yield* BashShell.resolve()
 */
export const resolve = (env: Env = process.env): Effect.Effect<string> => Effect.sync(() => select(env, (name) => which(name, env)))
