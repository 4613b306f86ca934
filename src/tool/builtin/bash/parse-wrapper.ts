/**
 * Commands that run other commands (07): `sudo`, `env`, `timeout`, `xargs`, `find -exec`, … run
 * a command made of their own later words; `sh -c`, `su -c`, `script -c`, `watch`, `trap` and
 * `alias` run a command string; launchers (BashParseLaunch) and interpreters (BashParseInterpreter)
 * have files of their own. Options are skipped by each wrapper's table (BashParseLayer). Gotcha: an
 * option the table does not know might take an argument or not, so both readings are returned
 * (`sudo --odd x rm y` runs `x rm y` or `rm y`); a reading too many is only stricter, one too few
 * would be a bypass. `xargs` and `find -exec` complete the command they run at run time (`fills`):
 * the caller makes it opaque when what they add could land in its name, sub-command or string.
 */
export * as BashParseWrapper from "./parse-wrapper.js"

import { BashParseInterpreter } from "./parse-interpreter.js"
import { BashParseDetach } from "./parse-detach.js"
import { BashParseLaunch } from "./parse-launch.js"
import { BashParseLayer } from "./parse-layer.js"
import { BashProgramNames } from "./names.js"
import { BashParseOption } from "./parse-option.js"
import { BashSynonymsPackage } from "./synonyms-package.js"

export type Inner = BashParseLayer.Inner
export type Layer = BashParseLayer.Layer
export type Fills = BashParseLayer.Fills

type Words = BashParseOption.Words
type Runner = BashParseLayer.Runner
type Reader = BashParseLayer.Reader

const NONE = BashParseLayer.NONE
const runner = BashParseLayer.runner

/** A path that names a descriptor of the process that opens it, as a shell's script. */
const DESCRIPTOR = /^\/dev\/(?:stdin|fd\/\d+)$|^\/proc\/(?:self|thread-self|\d+)\/fd\/\d+$/

/**
 * `sh -c`, `bash -lc`: options first (`-o`/`-O` take a word), then the string; else a script or
 * stdin. A shell that reads a startup file the words name (`--rcfile f`, `--init-file f`), or runs
 * interactive (`-i`: `~/.bashrc`, `$ENV`, and every alias expanded in the string), runs what the
 * words do not show: it is opaque. (`-l` reads the login files, which no tool may write unasked.)
 * So is one whose script is a descriptor (`bash /dev/stdin <<< "…"`, `/dev/fd/3`): a redirect
 * feeds it what the line only shows as a string.
 */
const shell = (words: Words, start: number, end: number): Layer => {
  const scan = (i: number, c: boolean, s: boolean, startup: boolean): { readonly at: number; readonly c: boolean; readonly s: boolean; readonly startup: boolean } => {
    const word = i < end ? words[i] : undefined
    if (word === undefined) return { at: i, c, s, startup }
    if (word === "--" || word === "-") return { at: i + 1, c, s, startup }
    if (word === "--rcfile" || word === "--init-file") return scan(i + 2, c, s, true)
    if (word.startsWith("--")) return scan(i + 1, c, s, startup)
    if (!/^[-+]./.test(word)) return { at: i, c, s, startup }
    const letters = word.slice(1)
    const taking = Array.from(letters).filter((letter) => letter === "o" || letter === "O").length
    return scan(i + 1 + taking, c || letters.includes("c"), s || letters.includes("s"), startup || (word.startsWith("-") && letters.includes("i")))
  }
  const { at, c, s, startup } = scan(start + 1, false, false, false)
  if (startup) return BashParseLayer.OPAQUE
  if (!c && !s && at < end && DESCRIPTOR.test(words[at] ?? "")) return BashParseLayer.OPAQUE
  // `-c` with no string: under `xargs` or `find -exec` the string comes from their input.
  if (c) return at < end ? { ...NONE, strings: [words[at]], keep: at - start } : { ...NONE, strings: [undefined] }
  return { ...NONE, keep: "own", stdin: at >= end || s, script: at < end && !s ? at : undefined }
}

const EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"])

/** `find … -exec cmd {} ;` (or `+`), any number of times; `-execdir` runs somewhere unknown. */
const find = (words: Words, start: number, end: number): Layer => {
  const execs = (from: number): ReadonlyArray<Inner> => {
    const at = words.slice(from, end).findIndex((word) => word !== undefined && EXEC.has(word))
    if (at === -1) return []
    const action = from + at
    const first = action + 1
    const close = words.slice(first, end).findIndex((word, n) => word === ";" || (word === "+" && words[first + n - 1] === "{}"))
    const stop = close === -1 ? end : first + close
    const cwd = words[action]?.endsWith("dir") === true ? [undefined] : []
    return [...(first < stop ? [{ start: first, end: stop, cwd }] : []), ...execs(stop + 1)]
  }
  return { ...NONE, inner: execs(start + 1), keep: "own", fills: { token: "{}", append: false } }
}

/** `watch cmd…` runs its words joined as an `sh -c` string; `watch -x cmd…` runs them directly. */
const watch = (words: Words, start: number, end: number): Layer => {
  const spec: BashParseOption.Options = { flags: "bcCdegprtwx", args: "nq", longArgs: ["--interval", "--equexit"], longFlags: ["--beep", "--color", "--no-color", "--differences", "--errexit", "--chgexit", "--precise", "--no-rerun", "--no-title", "--no-wrap", "--exec"] }
  const states = BashParseOption.read(spec, words, start, end)
  const opaque = BashParseOption.isOpaque(spec, states)
  const layers = states.map((state): Layer => {
    if (state.index >= end) return NONE
    if (state.seen.includes("-x") || state.seen.includes("--exec")) return { ...NONE, inner: [{ start: state.index, end, cwd: [] }] }
    const parts = words.slice(state.index, end)
    const joined = parts.every((part) => part !== undefined) ? parts.join(" ") : undefined
    return { ...NONE, strings: [joined], keep: state.index - start }
  })
  return { ...NONE, inner: layers.flatMap((layer) => layer.inner), strings: layers.flatMap((layer) => layer.strings), keep: layers[0]?.keep ?? "inner", opaque }
}

const XARGS: Runner = {
  flags: "0oprtx",
  args: "adEILnPs",
  attached: "eil",
  longArgs: ["--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"],
  longFlags: ["--null", "--interactive", "--no-run-if-empty", "--verbose", "--exit", "--open-tty", "--show-limits", "--eof", "--replace", "--max-lines"],
}

/**
 * The replacement string among xargs options `[from, to)`: `-I R`, `-IR`, `-iR`, `-i` and
 * `--replace` (`{}`), `--replace=R` (getopt takes any unambiguous prefix, `--r`); null when there
 * is none, undefined when it is not static.
 */
const replacement = (words: Words, from: number, to: number): string | null | undefined => {
  let found: string | null | undefined = null
  for (let i = from; i < to; i++) {
    const word = words[i]
    if (word === undefined) return undefined
    if (word === "--") break
    if (word.startsWith("--")) {
      const equals = word.indexOf("=")
      const name = equals === -1 ? word : word.slice(0, equals)
      if (name.length >= 3 && "--replace".startsWith(name)) found = equals === -1 ? "{}" : word.slice(equals + 1)
      else if (equals === -1 && BashParseOption.has(XARGS.longArgs, name)) i++
      continue
    }
    for (let at = 1; at < word.length; at++) {
      const letter = word[at] as string
      const rest = word.slice(at + 1)
      if (letter === "I") found = rest === "" ? words[++i] : rest
      else if (letter === "i") found = rest === "" ? "{}" : rest
      else if (XARGS.args?.includes(letter) === true && rest === "") i++
      if (!XARGS.flags?.includes(letter)) break
    }
  }
  return found
}

/** `xargs`: its command gets the input appended, or put in place of the `-I` string. */
const xargs = (words: Words, start: number, end: number): Layer => {
  const layer = runner(XARGS)(words, start, end)
  const found = Array.from(new Set(BashParseOption.read(XARGS, words, start, end).map((state) => replacement(words, start + 1, state.index))))
  const token = found[0]
  if (found.length !== 1 || token === undefined) return { ...layer, opaque: true }
  return { ...layer, fills: token === null ? { token: undefined, append: true } : { token, append: false } }
}

const SIGNAL = /^(?:SIG)?[A-Z0-9+-]+$|^\d+$/i

/** `trap [-lpP] [action] signal…`: the action is a command string. */
const trap = (words: Words, start: number, end: number): Layer => {
  const states = BashParseOption.read({ stops: "lpP" }, words, start, end)
  const state = states[0] as BashParseOption.State
  const operands = words.slice(state.index, end)
  const action = operands[0]
  const runs = state.seen.length === 0 || state.seen.every((name) => name === "--")
  if (!runs || operands.length === 0 || action === "-" || action === "" || (operands.length === 1 && action !== undefined && SIGNAL.test(action))) return NONE
  return { ...NONE, strings: [action], keep: state.index - start }
}

/** `alias name=value…`: each value is a command string. */
const alias = (words: Words, start: number, end: number): Layer => {
  const definitions = words.slice(start + 1, end).filter((word) => word === undefined || word.includes("="))
  return { ...NONE, strings: definitions.map((word) => word?.slice(word.indexOf("=") + 1)), keep: 1 }
}

const sudo: Runner = {
  flags: "ABbEHiKkNnPSsVv",
  args: "CDghpRrTtUu",
  stops: "eKlVv",
  shells: "is",
  longArgs: ["--user", "--group", "--chdir", "--close-from", "--host", "--prompt", "--chroot", "--role", "--type", "--command-timeout", "--other-user"],
  longFlags: ["--askpass", "--bell", "--background", "--preserve-env", "--set-home", "--login", "--non-interactive", "--preserve-groups", "--reset-timestamp", "--stdin", "--shell"],
  longStops: ["--edit", "--list", "--version", "--validate", "--help", "--remove-timestamp"],
  chdir: ["-D", "--chdir"],
  // A login shell starts in the target user's home; `--chroot` changes what every path means.
  opaque: ["-i", "--login", "-R", "--chroot"],
  assignments: true,
}

const su: Runner = {
  flags: "flmpP",
  args: "cgGsuw",
  longArgs: ["--command", "--session-command", "--shell", "--group", "--supp-group", "--whitelist-environment", "--user"],
  longFlags: ["--fast", "--login", "--preserve-environment", "--pty"],
  command: ["-c", "--command", "--session-command"],
  // A login shell (`su -`, `-l`) starts in the target user's home: relative paths land there.
  opaque: ["-", "-l", "--login"],
  dash: true,
}

/** `su [options] [-] [user [args]]`: options may also follow the user (GNU getopt permutes them). */
const suReader = (words: Words, start: number, end: number): Layer => {
  const states = BashParseLayer.permuted(su, words, start, end)
  const strings = states.flatMap((state) => state.strings)
  const at = strings[0]?.at
  return { ...NONE, strings: strings.map((entry) => entry.value), keep: at === undefined ? "own" : at - start, stdin: strings.length === 0, opaque: BashParseOption.isOpaque(su, states) }
}

/**
 * `runuser -u user [--] command…` runs the command itself, not through a shell (util-linux);
 * without `-u` it reads like `su`. Options permute, so the command starts at the first operand.
 */
const runuser = (words: Words, start: number, end: number): Layer => {
  const states = BashParseLayer.permuted(su, words, start, end)
  const direct = states.filter((state) => state.seen.includes("-u") || state.seen.includes("--user"))
  const inner = BashParseLayer.distinct(direct.flatMap((state) => (state.operands.length === 0 ? [] : [{ start: state.operands[0] as number, end, cwd: [] }])))
  const layer = suReader(words, start, end)
  if (direct.length === 0) return layer
  return { ...layer, inner, keep: inner.length > 0 ? "inner" : layer.keep, stdin: layer.stdin && direct.length < states.length }
}

/**
 * `mapfile -C callback` and `script -c cmd` run a command string; `script` without one starts a
 * shell that reads standard input. `script` permutes its options (`script log -c cmd`).
 */
const stringOption =
  (spec: BashParseOption.Options, shell: boolean, read: typeof BashParseOption.read = BashParseOption.read) =>
  (words: Words, start: number, end: number): Layer => {
    const states = read(spec, words, start, end)
    const strings = states.flatMap((state) => state.strings)
    const at = strings[0]?.at
    return { ...NONE, strings: strings.map((entry) => entry.value), keep: at === undefined ? "own" : at - start, stdin: shell && strings.length === 0, opaque: BashParseOption.isOpaque(spec, states) }
  }

const mapfile = stringOption({ flags: "t", args: "dnOsuCc", command: ["-C"] }, false)

/** `flock file -c 'cmd'`: its command string may come after the file, where options are not read; opaque then. */
const flock =
  (read: Reader): Reader =>
  (words, start, end) =>
    words.slice(start + 1, end).some((word) => word === undefined || word === "-c" || word.startsWith("--comm") || /^-[A-Za-z]*c/.test(word)) ? { ...NONE, opaque: true } : read(words, start, end)

/** util-linux `script`; its file operand and `--log-*` files are write targets (BashPrograms). */
export const SCRIPT: BashParseOption.Options = {
  flags: "aefqh",
  args: "cEIOBTm",
  attached: "t",
  longArgs: ["--command", "--echo", "--log-in", "--log-out", "--log-io", "--log-timing", "--logging-format"],
  longFlags: ["--append", "--return", "--flush", "--force", "--quiet", "--help", "--version"],
  command: ["-c", "--command"],
}

/**
 * util-linux `nsenter`: the namespace options and `-r`/`-w` take an optional attached argument.
 * `-wDIR`/`--wd=DIR` runs the command in DIR; `-w` alone, in the target's directory. Entering
 * the mount namespace (`-m`, `-a`) or a root (`-r`, `-W`) changes what every path means.
 */
const NSENTER: Runner = {
  flags: "aFZ",
  args: "tSGW",
  attached: "muipnCUTrw",
  longArgs: ["--target", "--setuid", "--setgid", "--wdns"],
  longFlags: ["--all", "--no-fork", "--follow-context", "--preserve-credentials"],
  longOptional: ["--mount", "--uts", "--ipc", "--net", "--pid", "--cgroup", "--user", "--time", "--root", "--wd"],
  chdir: ["-w", "--wd"],
  opaque: ["-a", "--all", "-m", "--mount", "-r", "--root", "-W", "--wdns"],
}

/** `nsenter`: a working directory that is not named (`-w` alone) is the target's, unknown here: opaque. */
const nsenter = (words: Words, start: number, end: number): Layer => {
  const layer = runner(NSENTER)(words, start, end)
  return layer.inner.some((entry) => entry.cwd.includes(undefined)) ? { ...layer, opaque: true } : layer
}

/** systemd-run; `-d`/`--same-dir` and `--working-directory` say where the command runs. */
const SYSTEMD_RUN: Runner = {
  flags: "qPGtSd",
  args: "uEp",
  longArgs: ["--unit", "--property", "--setenv", "--uid", "--gid", "--nice", "--slice", "--description"],
  longFlags: ["--user", "--scope", "--pty", "--pipe", "--wait", "--quiet", "--collect", "--same-dir", "--shell"],
  chdir: ["--working-directory"],
  // A property may set `WorkingDirectory=`, `RootDirectory=` or `BindPaths=`.
  opaque: ["-p", "--property"],
}
const PLACED = ["-d", "--same-dir", "-S", "--shell", "--working-directory"]

/** `systemd-run`: a service starts in `/` (or the user manager's home) unless told otherwise: opaque then. */
const systemdRun = (words: Words, start: number, end: number): Layer => {
  const layer = runner(SYSTEMD_RUN)(words, start, end)
  const placed = BashParseOption.read(SYSTEMD_RUN, words, start, end).every((state) => state.seen.some((name) => PLACED.includes(name)))
  return placed ? layer : { ...layer, opaque: true }
}

/**
 * Shells whose `-c` string is read as bash reads it: bash itself (`rbash` is bash restricted),
 * and the Bourne and Korn shells (`posh`, `lksh`, `pdksh`, `oksh`, `loksh`, busybox's `hush`),
 * which the gate already read for `sh`, `ksh`, `mksh`: `rbash -c 'git push o'` was allowed.
 */
const SHELLS = ["sh", "bash", "rbash", "zsh", "dash", "ksh", "ash", "mksh", "yash", "fish", "posh", "lksh", "pdksh", "oksh", "loksh", "hush"]
const SHELL_NAMES: ReadonlyMap<string, true> = new Map(SHELLS.map((name) => [name, true]))

const READERS: ReadonlyMap<string, Reader> = new Map<string, Reader>([
  ["sudo", runner(sudo)],
  ["doas", runner({ flags: "nL", args: "uC", shells: "s" })],
  [
    "env",
    runner({
      flags: "i0v",
      args: "uCS",
      longArgs: ["--unset", "--chdir", "--split-string"],
      longFlags: ["--ignore-environment", "--null", "--debug"],
      chdir: ["-C", "--chdir"],
      opaque: ["-S", "--split-string"],
      assignments: true,
      dash: true,
    }),
  ],
  ["timeout", runner({ flags: "v", args: "sk", longArgs: ["--signal", "--kill-after"], longFlags: ["--preserve-status", "--foreground", "--verbose"], operands: 1 })],
  ["time", runner({ flags: "pavq", args: "fo", longArgs: ["--format", "--output"], longFlags: ["--append", "--verbose", "--quiet", "--portability"], inShell: true })],
  ["nice", runner({ args: "n", longArgs: ["--adjustment"], numeric: true })],
  ["nohup", runner({})],
  ["ionice", runner({ flags: "t", args: "cnpPu", longArgs: ["--class", "--classdata", "--pid", "--pgid", "--uid"], longFlags: ["--ignore"] })],
  ["stdbuf", runner({ args: "ioe", longArgs: ["--input", "--output", "--error"] })],
  ["command", runner({ flags: "p", stops: "vV", inShell: true })],
  ["builtin", runner({ inShell: true })],
  ["exec", runner({ flags: "cl", args: "a" })],
  ["xargs", xargs],
  ["setsid", runner({ flags: "cfw", longFlags: ["--ctty", "--fork", "--wait"] })],
  // Programs that run the rest of their words as a command (found by the second review).
  ["jobs", runner({ flags: "lnprsx" })],
  ["flock", flock(runner({ flags: "sxunoFv", args: "wEc", longArgs: ["--timeout", "--conflict-exit-code", "--command"], longFlags: ["--shared", "--exclusive", "--unlock", "--nonblock", "--close", "--no-fork", "--verbose"], command: ["-c", "--command"], operands: 1 }))],
  ["taskset", runner({ flags: "acp", longFlags: ["--all-tasks", "--cpu-list", "--pid"], operands: 1 })],
  ["chrt", runner({ flags: "abdefiomprRv", args: "TPD", longArgs: ["--sched-runtime", "--sched-period", "--sched-deadline"], operands: 1 })],
  // `-w`/`--wd` is a working directory like `env -C`; `-R`/`--root` changes what every path means.
  ["unshare", runner({ flags: "mutinpUCTrcf", args: "RSGw", longArgs: ["--root", "--wd", "--setuid", "--setgid"], chdir: ["-w", "--wd"], opaque: ["-R", "--root"] })],
  ["prlimit", runner({ args: "p", longArgs: ["--pid", "--output"] })],
  // Under a new root every path, relative or absolute, means another file.
  ["chroot", BashParseLayer.opaque],
  ["nsenter", nsenter],
  ["setpriv", runner({ flags: "d", longArgs: ["--reuid", "--regid", "--groups", "--inh-caps", "--ambient-caps", "--bounding-set", "--securebits", "--pdeathsig", "--selinux-label", "--apparmor-profile"], longFlags: ["--clear-groups", "--keep-groups", "--init-groups", "--nnp", "--no-new-privs", "--reset-env"] })],
  ["strace", runner({ flags: "cCdDfFhiqrtTvVxyz", args: "abeEIopPsSuU", longArgs: ["--output", "--trace", "--signal", "--user"] })],
  ["ltrace", runner({ flags: "bcCfhiLrStTV", args: "aAeEnlopsuxX", longArgs: ["--output", "--library"] })],
  ["systemd-run", systemdRun],
  ["busybox", runner({})],
  ["toybox", runner({})],
  ["watch", watch],
  ["find", find],
  ["su", suReader],
  ["runuser", runuser],
  ["trap", trap],
  ["mapfile", mapfile],
  ["readarray", mapfile],
  ["script", stringOption(SCRIPT, true, BashParseLayer.permuted)],
  ["alias", alias],
  ...SHELLS.map((name): [string, Reader] => [name, shell]),
  ...BashParseLaunch.READERS,
  ...BashParseDetach.READERS,
  ...BashParseInterpreter.READERS,
])

/** Shells (by any installed name, `zsh-5.9`): reading one's standard input from a pipe, heredoc or here-string makes the input opaque. */
export const isShell = (name: string): boolean => BashProgramNames.lookup(SHELL_NAMES, name) !== undefined

/** Whether a table here reads the program `name` (its exact base name). */
export const knows = (name: string): boolean => READERS.has(name)

/**
 * The layer of the command whose name is `words[start]` (base name), over its words up to
 * `end`; undefined when it runs nothing of its own words.
 * @example BashParseWrapper.unwrap(["timeout", "-s", "KILL", "5", "rm", "x"], 0, 6)?.inner // [{ start: 4, end: 6, cwd: [] }]
 */
export const unwrap = (words: Words, start: number, end: number): Layer | undefined => {
  const name = words[start]
  const base = name?.slice(name.lastIndexOf("/") + 1)
  // A package manager named by its spec (`corepack pnpm@9 exec …`) runs what it runs under its bare name.
  const bare = base === undefined ? undefined : BashSynonymsPackage.bare(base)
  const reader =
    base === undefined
      ? undefined
      : (BashProgramNames.lookup(READERS, base) ??
        (bare !== undefined && BashParseLaunch.COREPACK_RUNS.test(bare) ? READERS.get(bare) : undefined) ??
        (BashParseLaunch.isLoader(base) ? BashParseLayer.opaque : undefined))
  return reader?.(words, start, end)
}
