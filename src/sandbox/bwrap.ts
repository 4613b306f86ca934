/**
 * How a bash command runs in the sandbox: bubblewrap (`bwrap`) in front of the trampoline shell,
 * with the mounts of its mode (sandbox/mode.ts). The whole file system is bound read-only; `/tmp`
 * is an empty read-only tmpfs (what the host keeps there, sockets included, is out of reach)
 * holding the private temporary directory `PRIVATE_TMP` (`TMPDIR`; a tmpfs, gone when the
 * command ends) and whatever of the home folder and the Location lives under `/tmp`; `/run` is emptied
 * (sockets such as a container daemon's live there); the Location is bound writable in
 * `workspace-write`, its existing protected entries at the top (`.git`, `.toolgate`, …:
 * ProtectedPath) read-only in it; then every hidden path (secrets, toolgate's own folders, paths
 * the rules deny reading) is covered: a folder by an empty tmpfs, a file by `/dev/null`. The
 * network is a new, empty namespace unless it is on; the seccomp filter (sandbox/seccomp.ts)
 * refuses Unix sockets, which reach daemons outside whatever the mounts say. `--unshare-pid` makes the command's
 * processes one namespace whose first process ends them all when it ends (a fork bomb, a
 * `setsid` escapee), and `--die-with-parent` ends it with toolgate.
 *
 * Whether bwrap can run is found out once per path and process (`probe`): a missing binary or a
 * kernel that forbids the namespaces is a failure naming the cause, never a silent run without
 * the sandbox.
 */
export * as SandboxBwrap from "./bwrap.js"

import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, lstatSync, realpathSync, statSync } from "node:fs"
import path from "node:path"
import type { Writable } from "node:stream"
import { Effect, Schema } from "effect"
import { ProtectedPath } from "../location/protected-path.js"
import type { SandboxMode } from "./mode.js"
import { SandboxSeccomp } from "./seccomp.js"

/** Where the sandbox binary is looked for when `TOOLGATE_BWRAP` does not name it. */
export const BINARY = "bwrap"
/** The variable that names the bwrap binary (a path), for a bwrap outside `PATH`. */
export const ENV = "TOOLGATE_BWRAP"

/** The command's own temporary directory, writable, empty at every start: `TMPDIR` inside. */
export const PRIVATE_TMP = "/tmp/toolgate-sandbox"

/** Secrets under the home folder no sandboxed command may read. */
export const HOME_SECRETS = [".ssh", ".aws", ".config/gcloud", ".gnupg"] as const

export const Messages = {
  missing: (binary: string) =>
    `The sandbox could not start: ${binary} was not found (install the bubblewrap package, or set bash.sandbox to "off"); the command did not run`,
  failed: (binary: string, detail: string) =>
    `The sandbox could not start: ${binary} failed (${detail}); user namespaces may be forbidden here; the command did not run`,
} as const

export class UnavailableError extends Schema.TaggedError<UnavailableError>()("SandboxBwrap.UnavailableError", { binary: Schema.String, detail: Schema.optionalKey(Schema.String) }) {
  override get message() {
    return this.detail === undefined ? Messages.missing(this.binary) : Messages.failed(this.binary, this.detail)
  }
}

/** The bwrap binary: `TOOLGATE_BWRAP`, else the first `bwrap` on `PATH`; undefined when there is none. */
export const locate = (env: Readonly<Record<string, string | undefined>>): { readonly binary: string; readonly found: boolean } => {
  const named = env[ENV]
  if (named !== undefined && named !== "") return { binary: named, found: existsSync(named) }
  for (const folder of (env.PATH ?? "").split(":")) {
    if (folder === "") continue
    const candidate = path.join(folder, BINARY)
    if (existsSync(candidate)) return { binary: candidate, found: true }
  }
  return { binary: BINARY, found: false }
}

const probes = new Map<string, Promise<string | undefined>>()

/** Runs bwrap once with the namespaces and the seccomp filter the sandbox uses; the failure's detail, or undefined when it works. */
const tryOnce = (binary: string, filter: Buffer) =>
  new Promise<string | undefined>((resolve) => {
    const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--unshare-net", "--die-with-parent", "--seccomp", String(SandboxSeccomp.FD), "--", "/bin/sh", "-c", "exit 0"]
    const child = spawn(binary, args, { stdio: ["ignore", "ignore", "pipe", "pipe"] })
    let stderr = ""
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    feed(child, filter)
    child.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
    child.once("close", (code, signal) => resolve(code === 0 ? undefined : stderr.trim().split("\n")[0] || `exit ${code ?? signal}`))
  })

/** Writes the seccomp filter into the child's descriptor `SandboxSeccomp.FD`, which bwrap reads to its end. */
export const feed = (child: ChildProcess, filter: Buffer) => {
  const pipe = child.stdio[SandboxSeccomp.FD] as Writable | null | undefined
  if (pipe === null || pipe === undefined) return
  // A bwrap that failed before reading closes its end: that failure is the one to report.
  pipe.on("error", () => undefined)
  pipe.end(filter)
}

/**
 * Whether bwrap can start here with the filter; found out once per binary, then remembered (a
 * failure is tried again). The binary and the filter to give it.
 */
export const probe = (env: Readonly<Record<string, string | undefined>>) =>
  Effect.gen(function* () {
    const { binary, found } = locate(env)
    if (!found) return yield* new UnavailableError({ binary })
    const filter = SandboxSeccomp.program()
    if (filter === undefined) return yield* new UnavailableError({ binary, detail: SandboxSeccomp.Messages.unsupported(process.arch) })
    const known = probes.get(binary) ?? tryOnce(binary, filter)
    probes.set(binary, known)
    const detail = yield* Effect.promise(() => known)
    if (detail !== undefined) {
      probes.delete(binary)
      return yield* new UnavailableError({ binary, detail })
    }
    return { binary, filter }
  })

export interface Plan {
  readonly mode: Exclude<SandboxMode.Mode, "off">
  /** The Location's real directory. */
  readonly location: string
  /** Where the command starts (inside the Location or not: it is reachable read-only anyway). */
  readonly cwd: string
  readonly home: string
  /** Paths no command may read (absolute; missing ones are skipped). */
  readonly hidden: ReadonlyArray<string>
  readonly network: boolean
}

/** A path's real form when it exists, else undefined (a dangling link, nothing there). */
const realOf = (target: string) => {
  try {
    return realpathSync.native(target)
  } catch {
    return undefined
  }
}

const isDirectory = (real: string) => {
  try {
    return statSync(real).isDirectory()
  } catch {
    return false
  }
}

const within = (folder: string, target: string) => target === folder || target.startsWith(folder.endsWith("/") ? folder : `${folder}/`)

/**
 * bwrap's arguments for `plan`, up to and without `--`.
 * @example SandboxBwrap.args({ mode: "workspace-write", location: "/repo", cwd: "/repo", home: "/home/me", hidden: [], network: false })
 */
export const args = (plan: Plan): ReadonlyArray<string> => {
  const list: string[] = ["--die-with-parent", "--unshare-pid", "--unshare-ipc", ...(plan.network ? [] : ["--unshare-net"]), "--seccomp", String(SandboxSeccomp.FD)]
  list.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp")
  // /run holds sockets (a container daemon's, the session bus): connecting needs no write access.
  // What resolves names may live there too: kept, read-only, when the network is on.
  if (isDirectory("/run") && !isSymlink("/run")) {
    list.push("--tmpfs", "/run")
    const resolver = realOf("/etc/resolv.conf")
    if (plan.network && resolver !== undefined && within("/run", resolver)) list.push("--ro-bind", resolver, resolver)
  }
  // The private /tmp covers what the host keeps there; the home folder and the Location stay
  // visible (read-only) when they live under it.
  const home = realOf(plan.home)
  if (home !== undefined && within("/tmp", home)) list.push("--ro-bind", home, home)
  const location = realOf(plan.location) ?? plan.location
  if (plan.mode === "workspace-write") {
    list.push("--bind", location, location)
    for (const name of ProtectedPath.NAMES.filter((entry) => !entry.includes("/"))) {
      const entry = path.join(location, name)
      if (existsSync(entry) && !isSymlink(entry)) list.push("--ro-bind", entry, entry)
    }
  } else if (within("/tmp", location)) list.push("--ro-bind", location, location)
  const cwd = realOf(plan.cwd) ?? plan.cwd
  if (within("/tmp", cwd) && !within(location, cwd) && (home === undefined || !within(home, cwd))) list.push("--ro-bind", cwd, cwd)
  // The folders made for those mounts are in /tmp's tmpfs: read-only too, so a write beside the
  // Location fails as it would outside /tmp. Only the private directory stays writable.
  list.push("--dir", PRIVATE_TMP, "--remount-ro", "/tmp", "--tmpfs", PRIVATE_TMP)
  // Under /tmp only what was bound again is visible: the rest needs no covering (and has no mount point).
  const visible = (real: string) => !within("/tmp", real) || [home, location, cwd].some((bound) => bound !== undefined && within(bound, real))
  for (const target of new Set(plan.hidden.flatMap((entry) => [entry, realOf(entry)]).filter((entry): entry is string => entry !== undefined))) {
    const real = realOf(target)
    if (real === undefined || !visible(real)) continue
    list.push(...(isDirectory(real) ? ["--tmpfs", real] : ["--ro-bind", "/dev/null", real]))
  }
  list.push("--chdir", cwd, "--setenv", "TMPDIR", PRIVATE_TMP)
  return list
}

const isSymlink = (target: string) => {
  try {
    return lstatSync(target).isSymbolicLink()
  } catch {
    return false
  }
}
