/**
 * What a waiting process must share with the `toolgate` process that hands it a command
 * (docs/decisions.md, "A process that waits with the code loaded"): everything the operating
 * system fixes when a process starts and a command cannot take over later. The same build and
 * Node; the same user and groups; the same namespaces, seccomp filter, no-new-privileges flag,
 * capabilities, cgroup, security label and resource limits, so a caller inside a sandbox or a
 * container never reaches a process outside it; and the variables read only at start (Node's own,
 * the dynamic loader's, the C library's, the locale's). The environment, the directory and the
 * umask are the caller's on every command: they are not part of it. Linux only: elsewhere there
 * is no fingerprint and no waiting process.
 */
export * as WarmFingerprint from "./fingerprint.js"

import { readFileSync, readlinkSync, statSync } from "node:fs"
import path from "node:path"

/** The namespaces of /proc/self/ns. */
const NAMESPACES = ["cgroup", "ipc", "mnt", "net", "pid", "pid_for_children", "time", "time_for_children", "user", "uts"] as const

/** The lines of /proc/self/status that confine a process: its filters, privileges and the CPUs and memory nodes it may use. */
const STATUS = /^(Seccomp|Seccomp_filters|NoNewPrivs|CapInh|CapPrm|CapEff|CapBnd|CapAmb|Cpus_allowed_list|Mems_allowed_list):/

/** Fields of /proc/self/stat (counted from 1) a child inherits and a command cannot raise back: priority, nice, real-time priority, scheduling policy. */
const SCHEDULING = [18, 19, 40, 41]

/** Variables a process reads only when it starts (or that change how it starts). */
const AT_START = /^(NODE_.*|UV_.*|LD_.*|GLIBC_TUNABLES|MALLOC_.*|LANG|LANGUAGE|LC_.*|TZ|OPENSSL_.*|SSL_CERT_(FILE|DIR))$/

const read = (file: string) => {
  try {
    return readFileSync(file, "latin1")
  } catch {
    return "-"
  }
}

const link = (file: string) => {
  try {
    return readlinkSync(file)
  } catch {
    return "-"
  }
}

/** The files of the build a waiting process runs or loads, beside the executable. */
export const BUILD_FILES = ["bin.cjs", "warm.cjs", "commands.cjs", "mcp-server.cjs", "mcp-client.cjs", "html-worker.js"] as const

/** What npm, pnpm and Yarn rewrite in a `node_modules` folder whenever they change a package in it. */
export const INSTALL_RECORDS = [".package-lock.json", ".modules.yaml", ".yarn-state.yml", ".yarn-integrity"] as const

/**
 * The build in `directory` as it is on disk now, or undefined without a bundle (running from
 * source: no waiting process then): the bundle's digest, which file each of `BUILD_FILES` is,
 * and the install records of every `node_modules` Node would load a package from. Any file of
 * the build replaced, or a package updated, is another build: a waiting process that loaded the
 * old one never takes a command of the new one.
 */
export const build = (directory: string): string | undefined => {
  let digest: string
  try {
    digest = readFileSync(path.join(directory, "commands.cjs.sha256"), "latin1").trim()
  } catch {
    return undefined
  }
  const installs: Array<string> = []
  for (let folder = directory; ; folder = path.dirname(folder)) {
    for (const record of INSTALL_RECORDS) installs.push(identity(path.join(folder, "node_modules", record)))
    if (path.dirname(folder) === folder) break
  }
  return JSON.stringify([digest, ...BUILD_FILES.map((file) => identity(path.join(directory, file))), ...installs])
}

/** The scheduling fields of /proc/self/stat; the process name (field 2) may hold spaces and parentheses. */
const scheduling = () => {
  const text = read("/proc/self/stat")
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ")
  return SCHEDULING.map((field) => fields[field - 3] ?? "-")
}

/** Which file `file` is now: device, inode, size and time of its last change; "-" when it is not there. */
export const identity = (file: string): string => {
  const stat = statSync(file, { throwIfNoEntry: false })
  return stat === undefined ? "-" : `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`
}

/**
 * The fingerprint of this process, for the build whose digest is `build`; undefined where the
 * confinement of a process cannot be read (not Linux).
 */
export const of = (build: string, env: Readonly<Record<string, string | undefined>> = process.env): string | undefined => {
  if (process.platform !== "linux" || process.getuid === undefined || process.getgid === undefined) return undefined
  const status = read("/proc/self/status")
  if (status === "-") return undefined
  const variables = Object.keys(env)
    .filter((name) => AT_START.test(name))
    .sort()
    .map((name) => `${name}=${env[name]}`)
  return JSON.stringify({
    build,
    // The binary too: a patched Node may keep its version.
    node: [process.execPath, identity(process.execPath), process.version, process.arch, ...process.execArgv],
    user: [process.getuid(), process.getgid(), ...(process.getgroups?.() ?? [])],
    namespaces: NAMESPACES.map((name) => link(`/proc/self/ns/${name}`)),
    status: status.split("\n").filter((line) => STATUS.test(line)),
    cgroup: read("/proc/self/cgroup"),
    label: read("/proc/self/attr/current"),
    limits: read("/proc/self/limits"),
    scheduling: [...scheduling(), read("/proc/self/oom_score_adj").trim()],
    // A chroot shares every namespace: its root folder tells it apart (its device and inode: its time changes with its entries).
    root: identity("/").split(":").slice(0, 2),
    variables,
  })
}

/**
 * Whether this process runs inside a pid namespace that waits for every process in it: a nested
 * one (NSpid names more than one pid), or one whose init is bubblewrap (its init ends only when
 * every process in it has). A waiting process started there would hold the sandbox open.
 */
export const contained = (): boolean => {
  const nspid = /^NSpid:\s*(.*)$/m.exec(read("/proc/self/status"))?.[1]?.trim().split(/\s+/) ?? []
  return nspid.length > 1 || read("/proc/1/comm").trim() === "bwrap"
}

/**
 * Whether the process `pid` is confined no less than this one, as far as the fingerprint cannot
 * tell: this process may read its root folder through /proc, and it is this one's root. A
 * process confined by Landlock (which /proc does not show) may not look into a less confined
 * one's /proc files; a process in a chroot shares every namespace but not the root.
 */
export const reaches = (pid: number): boolean => {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false
  try {
    const there = statSync(`/proc/${pid}/root`)
    const here = statSync("/")
    return there.dev === here.dev && there.ino === here.ino
  } catch {
    // Deliberate: a process this one may not look into takes none of its commands.
    return false
  }
}

/** Which of `env`'s variables a waiting process must start with: those of the fingerprint. */
export const startVariables = (env: Readonly<Record<string, string | undefined>>): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => AT_START.test(entry[0]) && entry[1] !== undefined))

/** A short name for `fingerprint` (FNV-1a, two lanes of 32 bits): the socket's file name. Not a secret, not a check: the whole fingerprint is compared. */
export const name = (fingerprint: string): string => {
  let a = 0x811c9dc5
  let b = 0x01000193 ^ 0x5bd1e995
  for (let index = 0; index < fingerprint.length; index++) {
    const code = fingerprint.charCodeAt(index)
    a = Math.imul(a ^ code, 0x01000193) >>> 0
    b = Math.imul(b ^ code, 0x5bd1e995) >>> 0
  }
  return `${a.toString(16).padStart(8, "0")}${b.toString(16).padStart(8, "0")}`
}
