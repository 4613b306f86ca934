/**
 * Launchers (07): programs that run a command named by their own words, each with its grammar —
 * personality and scheduling tools (`setarch x86_64 cmd`, `linux64 cmd`, `choom -n 5 -- cmd`,
 * `uclampset`, `runcon ctx cmd`), session tools (`sg group -c 'cmd'`, `dbus-run-session`,
 * `fakeroot`, `eatmydata`, `ssh-agent`, `chronic`), debuggers and profilers (`valgrind`, `gdb
 * --args`, `perf stat|record|trace`), terminal multiplexers (`tmux new 'cmd'`, `screen cmd`) and
 * package runners (`npx`, `npm exec`, `corepack npm@10`, `pnpm exec|dlx`, `yarn exec|dlx`, `bunx`, `uv run`, `uvx`,
 * `poetry run`, `pipenv run`, `bundle exec`). Gotcha: where a grammar is unclear the layer is
 * opaque (`tmux send-keys`, `npx -c`, `gdb -ex`, `screen -X`, `parallel`, `start-stop-daemon`).
 */
export * as BashParseLaunch from "./parse-launch.js"

import { BashParseLayer } from "./parse-layer.js"
import { BashParseOption } from "./parse-option.js"

type Reader = BashParseLayer.Reader
type Runner = BashParseLayer.Runner
type Options = BashParseOption.Options

const NONE = BashParseLayer.NONE
const OPAQUE = BashParseLayer.OPAQUE
const runner = BashParseLayer.runner

/**
 * A runner of the package binary or command its first operand names (`npx eslint .`); its own
 * options end there, but for `npm exec`, whose parser reads them anywhere before a `--`
 * (`npm exec eslint --call x` runs `x`).
 */
const bin =
  (spec: Options, anywhere = false): Reader =>
  (words, start, end) => {
    const states = anywhere ? BashParseLayer.permuted(spec, words, start, end) : BashParseOption.read(spec, words, start, end).map((state) => ({ ...state, operands: state.index < end ? [state.index] : [] }))
    const inner = states.flatMap((state) => (state.operands.length === 0 ? [] : [{ start: state.operands[0] as number, end, cwd: state.cwd }]))
    return { ...NONE, inner: BashParseLayer.distinct(inner), opaque: BashParseOption.isOpaque(spec, states) }
  }

/** `name [global options] sub …`: the reader of the sub-command found after the global options. */
const commands =
  (global: Options, subs: Readonly<Record<string, Reader>>): Reader =>
  (words, start, end) => {
    const states = BashParseOption.read(global, words, start, end)
    if (BashParseOption.isOpaque(global, states)) return OPAQUE
    const layers = states.flatMap((state) => {
      const name = words[state.index]
      const reader = state.index < end && name !== undefined && Object.hasOwn(subs, name) ? subs[name] : undefined
      const layer = reader?.(words, state.index, end)
      if (layer === undefined) return []
      // A sub-command's reader counts the words it keeps from the sub-command; the save counts them from the name.
      const keep = typeof layer.keep === "number" ? layer.keep + state.index - start : layer.keep
      return [{ ...layer, keep, inner: layer.inner.map((entry) => ({ ...entry, cwd: [...state.cwd, ...entry.cwd] })) }]
    })
    return BashParseLayer.merge(layers)
  }

/** `yarn exec words…`: Yarn runs its words as a script of its shell; read as a command string. */
const script: Reader = (words, start, end) => {
  const parts = words.slice(start + 1, end)
  if (parts.length === 0) return undefined
  return { ...NONE, strings: [parts.every((part) => part !== undefined) ? parts.join(" ") : undefined], keep: 1 }
}

const SETARCH: Runner = {
  flags: "v3BFLRSTXZ",
  stops: "hV",
  longFlags: ["--verbose", "--3gb", "--4gb", "--32bit", "--fdpic-funcptrs", "--addr-compat-layout", "--addr-no-randomize", "--whole-seconds", "--sticky-timeouts", "--read-implies-exec", "--mmap-page-zero", "--short-inode", "--uname-2.6"],
  longStops: ["--list", "--help", "--version"],
  shell: true,
}
/** The names setarch is installed under, whose own name is the architecture (`linux64 cmd`). */
const ARCHES = ["linux32", "linux64", "i386", "x86_64", "uname26", "ppc32", "ppc64", "s390", "s390x", "sparc32", "sparc64"]

/** `setarch arch [options] [cmd…]` (with no command, `/bin/sh`); `setarch --list`. */
const setarch: Reader = (words, start, end) => (words[start + 1]?.startsWith("-") === true ? runner(SETARCH) : BashParseLayer.after(1, runner(SETARCH)))(words, start, end)

const RUNCON: Options = { flags: "c", args: "urtl", longArgs: ["--user", "--role", "--type", "--range"], longFlags: ["--compute"], longStops: ["--help", "--version"] }
const CONTEXT_PARTS = ["-u", "-r", "-t", "-l", "--user", "--role", "--type", "--range"]

/** `runcon context cmd…`, or `runcon -t type cmd…`: a context operand only when no part of one is given. */
const runcon: Reader = (words, start, end) => {
  const states = BashParseOption.read(RUNCON, words, start, end)
  const inner = states.flatMap((state) => {
    const at = state.index + (state.seen.some((name) => CONTEXT_PARTS.includes(name)) ? 0 : 1)
    return BashParseOption.stopped(RUNCON, state) || at >= end ? [] : [{ start: at, end, cwd: [] }]
  })
  return { ...NONE, inner: BashParseLayer.distinct(inner), opaque: BashParseOption.isOpaque(RUNCON, states) }
}

/** `sg [-] group [-c] command`: the command is one string for `/bin/sh -c`; no command starts a shell. */
const sg: Reader = (words, start, end) => {
  const group = words[start + 1] === "-" ? start + 2 : start + 1
  if (group >= end) return undefined
  const at = words[group + 1] === "-c" ? group + 2 : group + 1
  if (at >= end) return { ...NONE, keep: "own", stdin: true }
  return at === end - 1 ? { ...NONE, strings: [words[at]], keep: at - start } : OPAQUE
}

/** gdb options that run gdb commands; gdb takes one dash or two and any unambiguous prefix. */
const GDB_RUNS = ["ex", "x", "iex", "ix", "eval-command", "command", "init-command", "init-eval-command", "batch", "batch-silent"]

/** `gdb [options] --args cmd…` runs cmd; gdb itself reads its commands from standard input. */
const gdb: Reader = (words, start, end) => {
  const args = words.slice(start + 1, end)
  const runs = (word: string) => {
    const name = word.replace(/^--?/, "").split("=")[0] as string
    return word.startsWith("-") && name !== "" && GDB_RUNS.some((known) => known.startsWith(name))
  }
  if (args.some((word) => word === undefined || runs(word))) return OPAQUE
  const flag = args.findIndex((word) => word === "--args" || word === "-args")
  const program = flag === -1 ? -1 : args.findIndex((word, index) => index > flag && !(word as string).startsWith("-"))
  const inner = program === -1 ? [] : [{ start: start + 1 + program, end, cwd: [] }]
  return { ...NONE, inner, keep: inner.length > 0 ? "inner" : "own", stdin: true }
}

const PERF: Options = { flags: "pPvh", longArgs: ["--debug", "--buildid-dir"], longFlags: ["--paginate", "--no-pager", "--version", "--help"], opaque: ["--exec-path"] }
/** perf sub-commands that run the command in their words after their options. */
const PERF_RUNS = ["stat", "record", "trace", "ftrace"]
const PERF_RUN: Runner = { flags: "aqv", args: "eopCt", longArgs: ["--event", "--output", "--pid", "--tid", "--cpu"] }

/** `perf stat|record|trace [options] cmd…`; a nested `… record` and `perf script` with words are opaque. */
const perf: Reader = (words, start, end) => {
  const states = BashParseOption.read(PERF, words, start, end)
  if (states.length !== 1 || BashParseOption.isOpaque(PERF, states)) return OPAQUE
  const at = (states[0] as BashParseOption.State).index
  const sub = words[at]
  if (at >= end) return undefined
  if (sub !== undefined && PERF_RUNS.includes(sub)) return runner(PERF_RUN)(words, at, end)
  const rest = words.slice(at + 1, end)
  return sub === undefined || rest.includes("record") || (sub === "script" && rest.length > 0) ? OPAQUE : undefined
}

const TMUX: Options = { flags: "2CDlNuvV", args: "cfLST", opaque: ["-c", "-f"] }
/** tmux commands that run their last argument as a shell command, and how their options read. */
const TMUX_RUNS: Readonly<Record<string, Options>> = {
  "new-session": { flags: "AdDEPX", args: "cefFnstxy" },
  "new-window": { flags: "abdkPS", args: "cenFt" },
  "split-window": { flags: "bdfhIvPZ", args: "celpFt" },
  "respawn-pane": { flags: "k", args: "cet" },
  "respawn-window": { flags: "k", args: "cet" },
  "run-shell": { flags: "b", args: "cdt", opaque: ["-C"] },
  "display-popup": { flags: "BCEkN", args: "bcdehsStTwxy" },
  "pipe-pane": { flags: "Oo", args: "t", opaque: ["-I"] },
}
const TMUX_ALIASES: Readonly<Record<string, string>> = { new: "new-session", neww: "new-window", splitw: "split-window", respawnp: "respawn-pane", respawnw: "respawn-window", run: "run-shell", popup: "display-popup", pipep: "pipe-pane" }
/** tmux commands that run nothing and type nothing into a pane (names and aliases). */
const TMUX_SAFE = [
  ...["attach-session", "attach", "detach-client", "detach", "has-session", "has", "kill-server", "kill-session", "kill-window", "killw", "kill-pane", "killp"],
  ...["list-buffers", "lsb", "list-clients", "lsc", "list-commands", "lscm", "list-keys", "lsk", "list-panes", "lsp", "list-sessions", "ls", "list-windows", "lsw"],
  ...["capture-pane", "capturep", "display-message", "display", "rename-session", "rename", "rename-window", "renamew", "select-window", "selectw", "select-pane", "selectp"],
  ...["select-layout", "selectl", "resize-pane", "resizep", "resize-window", "resizew", "show-options", "show", "show-window-options", "showw", "show-environment", "showenv"],
  ...["show-messages", "showmsgs", "show-buffer", "showb", "delete-buffer", "deleteb", "clear-history", "clearhist", "last-window", "last", "last-pane", "lastp"],
  ...["next-window", "next", "previous-window", "prev", "swap-pane", "swapp", "swap-window", "swapw", "move-window", "movew", "break-pane", "breakp", "join-pane", "joinp"],
  ...["rotate-window", "rotatew", "switch-client", "switchc", "refresh-client", "refresh", "start-server", "start", "wait-for", "wait", "copy-mode", "clock-mode"],
]

/**
 * tmux: its commands are separated by `;` words (or a word's trailing `;`). A command that runs a
 * shell command runs its one static argument as a command string; anything else that may run or
 * type a command (`send-keys`, `if-shell`, `source-file`, a format's `#(…)`) is opaque.
 */
const tmux: Reader = (words, start, end) => {
  const args = words.slice(start + 1, end)
  if (args.some((word) => word === undefined || word.includes("#(") || word.includes("#{"))) return OPAQUE
  const states = BashParseOption.read(TMUX, words, start, end)
  if (states.length !== 1 || BashParseOption.isOpaque(TMUX, states)) return OPAQUE
  const groups: Array<Array<{ readonly text: string; readonly at: number }>> = [[]]
  for (let at = (states[0] as BashParseOption.State).index; at < end; at++) {
    const word = words[at] as string
    const split = word.endsWith(";") && !word.endsWith("\\;")
    const text = split ? word.slice(0, -1) : word.endsWith("\\;") ? `${word.slice(0, -2)};` : word
    if (text !== "" || !split) groups.at(-1)?.push({ text, at })
    if (split) groups.push([])
  }
  const strings: Array<{ readonly text: string; readonly at: number }> = []
  for (const group of groups.filter((list) => list.length > 0)) {
    const name = (group[0] as { readonly text: string }).text
    const spec = TMUX_RUNS[TMUX_ALIASES[name] ?? name]
    if (spec === undefined) {
      if (!TMUX_SAFE.includes(name)) return OPAQUE
      continue
    }
    const local = group.map((part) => part.text)
    const read = BashParseOption.read(spec, local, 0, local.length)
    if (read.length !== 1 || BashParseOption.isOpaque(spec, read)) return OPAQUE
    const rest = group.slice((read[0] as BashParseOption.State).index)
    if (rest.length > 1) return OPAQUE
    strings.push(...rest)
  }
  if (strings.length === 0) return undefined
  return { ...NONE, strings: strings.map((entry) => entry.text), keep: (strings[0] as { readonly at: number }).at - start }
}

/** npm's options that run a command string or choose the shell of scripts; the `npx`/`npm exec` table. */
const NPX: Options = {
  flags: "yq",
  args: "pwc",
  longArgs: ["--package", "--call", "--workspace", "--prefix", "--script-shell", "--node-options", "--userconfig"],
  longFlags: ["--yes", "--no", "--quiet", "--ignore-existing", "--workspaces", "--include-workspace-root", "--no-install"],
  opaque: ["-c", "--call", "--script-shell", "--node-options", "--userconfig"],
}
const NPM: Options = { args: "Cw", longArgs: ["--prefix", "--workspace", "--userconfig", "--script-shell", "--node-options"], longFlags: ["--workspaces", "--silent", "--yes"], opaque: ["--script-shell", "--node-options", "--userconfig"] }
const PNPM: Options = { flags: "rw", args: "CF", longArgs: ["--dir", "--filter", "--workspace-dir"], longFlags: ["--recursive", "--workspace-root", "--silent"], chdir: ["-C", "--dir"] }
const PNPM_EXEC: Options = { flags: "r", args: "c", longArgs: ["--filter", "--resume-from"], longFlags: ["--recursive", "--parallel", "--no-bail", "--report-summary", "--shell-mode"], opaque: ["-c", "--shell-mode"] }
const PNPM_DLX: Options = { args: "c", longArgs: ["--package", "--allow-build"], longFlags: ["--silent", "--shell-mode"], opaque: ["-c", "--shell-mode"] }
const YARN: Options = { longArgs: ["--cwd"], chdir: ["--cwd"], longFlags: ["--silent", "--verbose"] }
const YARN_DLX: Options = { flags: "q", args: "p", longArgs: ["--package"], longFlags: ["--quiet"] }
const BUNX: Options = { args: "p", longArgs: ["--package"], longFlags: ["--bun", "--silent", "--verbose", "--no-install"] }
const BUN: Options = { longFlags: ["--bun", "--watch", "--hot", "--smol", "--silent"], args: "eprc", longArgs: ["--eval", "--print", "--preload", "--config", "--cwd"], chdir: ["--cwd"], opaque: ["-e", "-p", "-r", "--eval", "--print", "--preload", "-c", "--config"] }
const UV: Options = { flags: "qvn", longArgs: ["--directory", "--project", "--config-file", "--cache-dir", "--color"], chdir: ["--directory"], opaque: ["--config-file"] }
const UV_RUN: Options = {
  flags: "qvsm",
  args: "wpC",
  longArgs: ["--with", "--with-editable", "--with-requirements", "--python", "--directory", "--project", "--package", "--extra", "--group", "--only-group", "--no-group", "--index", "--default-index", "--env-file"],
  longFlags: ["--no-project", "--isolated", "--frozen", "--locked", "--all-extras", "--script", "--module", "--no-sync", "--active", "--no-dev"],
  chdir: ["--directory"],
  opaque: ["--env-file"],
}
const UVX: Options = { flags: "qv", args: "wp", longArgs: ["--from", "--with", "--with-editable", "--with-requirements", "--python", "--index", "--env-file"], longFlags: ["--isolated", "--offline"], opaque: ["--env-file"] }
const POETRY: Options = { flags: "qvnV", args: "CP", longArgs: ["--directory", "--project"], longFlags: ["--no-ansi", "--no-plugins", "--no-cache", "--no-interaction", "--quiet", "--verbose"], chdir: ["-C", "--directory"] }
const PIPENV: Options = { flags: "qv", longArgs: ["--python"], longFlags: ["--quiet", "--verbose"] }
/**
 * Programs that run a command made of their later words, after options and operands of their own
 * no table here reads (`faketime TIME cmd`, `cgexec -g CTRL:PATH cmd`, `xvfb-run -a cmd`): each
 * was allowed under a `git push *` deny with `git push` as its command. Opaque, so they ask (fail closed).
 */
const UNREAD_RUNNERS = [
  ...["unbuffer", "faketime", "proxychains", "proxychains4", "torsocks", "tsocks", "firejail", "cgexec"],
  ...["numactl", "catchsegv", "xvfb-run", "pkexec", "dbus-launch", "nocache", "trickle", "flatpak-spawn", "distrobox-enter", "bwrap"],
  // The fifth review (2026-12-06): libcap's `capsh -- -c cmd` (its `--` hands the rest to bash),
  // glibc's `memusage` and `xtrace`, KDE's `heaptrack`, systemd's `systemd-inhibit`, `systemd-cat`,
  // `run0` and `systemd-nspawn`, daemontools and runit (`chpst`, `envdir`, `setuidgid`, `softlimit`,
  // `setlock`), container inits (`tini`, `dumb-init`, `gosu`, `su-exec`), build wrappers (`ccache`,
  // `sccache`, `distcc`, `icecc`, `bear`, `scan-build`, `intercept-build`), moreutils (`ifne`,
  // `pee`, `mispipe`, `lckdo`), watchers and benchmarks (`entr`, `watchexec`, `nodemon`,
  // `hyperfine`), environment loaders (`dotenv`, `dotenvx`, `cross-env`, `env-cmd`, `direnv`,
  // `nix-shell`), and `sshpass`, `rlwrap`, `cpulimit`, `dtach`, `abduco`, `proot`, `schroot`, `rr`, `lldb`.
  ...["capsh", "memusage", "xtrace", "heaptrack", "systemd-inhibit", "systemd-cat", "run0", "systemd-nspawn"],
  ...["chpst", "envdir", "envuidgid", "setuidgid", "softlimit", "setlock", "tini", "dumb-init", "gosu", "su-exec"],
  ...["ccache", "sccache", "distcc", "icecc", "bear", "scan-build", "intercept-build", "ifne", "pee", "mispipe", "lckdo"],
  ...["entr", "watchexec", "nodemon", "hyperfine", "dotenv", "dotenvx", "cross-env", "env-cmd", "direnv", "nix-shell"],
  ...["sshpass", "rlwrap", "cpulimit", "dtach", "abduco", "proot", "schroot", "rr", "lldb"],
  // The sixth review: busybox's `cttyhack cmd` (pushed under a `git push *` deny) and `run-init
  // root cmd`, and moreutils' `zrun cmd file.gz`.
  ...["cttyhack", "run-init", "zrun"],
]

/**
 * The dynamic loader runs the program its operand names (`ld.so /bin/sh -c …`,
 * `/lib64/ld-linux-x86-64.so.2 …`), and its options load libraries: opaque by its name's shape.
 */
const LOADER = /^ld(?:-[A-Za-z0-9_.-]+|64)?\.so(?:\.\d+)*$/

/** Whether `name` (a base name) is the dynamic loader. */
export const isLoader = (name: string): boolean => LOADER.test(name)

/**
 * Programs whose sub-command runs a command made of later words (`ip netns exec ns cmd`, `conda
 * run cmd`, `mise exec -- cmd`, `pyenv exec cmd`, `op run -- cmd`): opaque when any later word
 * is that sub-command, since their own options are not read here. ip takes any prefix of `exec`
 * (`ip netns e ns cmd`) and runs a file of ip commands with `-batch` (`-b`, `--ba`; not `-br`ief).
 */
const SUB_RUNNERS: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  ["conda", ["run"]],
  ["mamba", ["run"]],
  ["micromamba", ["run"]],
  ["pixi", ["run", "exec"]],
  ["hatch", ["run", "shell"]],
  ["pdm", ["run"]],
  ["rye", ["run"]],
  ["mise", ["exec", "x", "run", "r"]],
  ["asdf", ["exec", "env"]],
  ["pyenv", ["exec"]],
  ["rbenv", ["exec"]],
  ["nodenv", ["exec"]],
  ["goenv", ["exec"]],
  ["jenv", ["exec"]],
  ["fnm", ["exec"]],
  ["volta", ["run"]],
  ["nvm", ["exec", "run"]],
  ["op", ["run"]],
  ["doppler", ["run"]],
  ["aws-vault", ["exec"]],
  ["nix", ["develop", "shell", "run", "env"]],
]

const subRunner =
  (names: ReadonlyArray<string>): Reader =>
  (words, start, end) =>
    words.slice(start + 1, end).some((word) => word === undefined || names.includes(word)) ? OPAQUE : undefined

/** `ip … exec`, `ip … e`, `ip -b file` (ip tries `-batch` before `-brief`, and takes `--` for `-`): see SUB_RUNNERS. */
const ip: Reader = (words, start, end) =>
  words.slice(start + 1, end).some((word) => word === undefined || (word !== "" && "exec".startsWith(word)) || (word.length >= 2 && "-batch".startsWith(word.replace(/^--/, "-")))) ? OPAQUE : undefined

const SCREEN: Runner = { flags: "aAdDfFiLlmOqrRUxw", args: "cehpsStTX", stops: "lrxw", opaque: ["-X", "-c", "-s"] }

/** `cmake -E` commands that run or write nothing. */
const CMAKE_SAFE = ["echo", "echo_append", "cat", "capabilities", "compare_files", "environment", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "sleep", "true", "false"]

/**
 * `cmake -E env [NAME=VALUE|--unset=NAME|--modify OP]… [--] cmd…`, `cmake -E time cmd…` and
 * `cmake -E chdir dir cmd…` run a command (real cmake pushed through each under a `git push *`
 * deny); its other `-E` commands copy, link, remove and extract files, opaque here. Any other
 * cmake line runs the project's own build, as `make` does.
 */
const cmake: Reader = (words, start, end) => {
  if (words[start + 1] !== "-E") return words.slice(start + 1, end).includes("-E") ? OPAQUE : undefined
  const sub = words[start + 2]
  if (sub !== undefined && CMAKE_SAFE.includes(sub)) return undefined
  if (sub === "time") return start + 3 < end ? { ...NONE, inner: [{ start: start + 3, end, cwd: [] }] } : undefined
  if (sub === "chdir") return start + 4 < end ? { ...NONE, inner: [{ start: start + 4, end, cwd: [words[start + 3]] }] } : undefined
  if (sub !== "env") return OPAQUE
  let at = start + 3
  for (; at < end; at++) {
    const word = words[at]
    if (word === undefined) return OPAQUE
    if (word === "--") {
      at++
      break
    }
    if (word === "--modify") at++
    else if (!word.startsWith("--unset=") && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) break
  }
  return at < end ? { ...NONE, inner: [{ start: at, end, cwd: [] }] } : undefined
}

/** The package managers corepack runs: `corepack npm@10 publish` is npm 10's `npm publish`. */
export const COREPACK_RUNS = /^(?:npm|npx|pnpm|pnpx|yarn|yarnpkg)(?:@.*)?$/

/** `corepack <manager>[@version] …` runs the manager with the rest; corepack's own commands run none; one that expands may be either. */
const corepack: Reader = (words, start, end) => {
  const name = start + 1 < end ? words[start + 1] : ""
  if (name === undefined) return OPAQUE
  return COREPACK_RUNS.test(name) ? { ...NONE, inner: [{ start: start + 1, end, cwd: [] }] } : undefined
}

export const READERS: ReadonlyArray<readonly [string, Reader]> = [
  ["chronic", runner({ flags: "ev" })],
  ["eatmydata", runner({})],
  ["ssh-agent", runner({ flags: "cDds", args: "aEOPt", stops: "k" })],
  ["setarch", setarch],
  ...ARCHES.map((name) => [name, runner(SETARCH)] as const),
  ["choom", runner({ args: "np", longArgs: ["--adjust", "--pid"], stops: "hV", longStops: ["--help", "--version"] })],
  ["uclampset", runner({ flags: "aRsv", args: "mMp", longArgs: ["--pid"], longFlags: ["--all-tasks", "--reset-on-fork", "--system", "--verbose", "--max-only"], stops: "hV" })],
  ["runcon", runcon],
  ["sg", sg],
  ["dbus-run-session", runner({ longArgs: ["--config-file"], longStops: ["--help", "--version"], opaque: ["--dbus-daemon"] })],
  ["fakeroot", runner({ flags: "uvh", args: "lfisb", longArgs: ["--lib", "--faked", "--fd-base"], longFlags: ["--unknown-is-real"], stops: "vh", longStops: ["--version", "--help"], opaque: ["-l", "--lib", "-f", "--faked"], shell: true })],
  ["valgrind", runner({ flags: "qvhd", longStops: ["--help", "--help-debug", "--version"], opaque: ["--db-command"] })],
  ["gdb", gdb],
  ["perf", perf],
  ["start-stop-daemon", BashParseLayer.opaque],
  ["parallel", BashParseLayer.opaque],
  ...UNREAD_RUNNERS.map((name) => [name, BashParseLayer.opaque] as const),
  ...SUB_RUNNERS.map(([name, subs]) => [name, subRunner(subs)] as const),
  ["ip", ip],
  // e2fsprogs' `logsave [-asv] logfile cmd…` runs the command and writes its output to the log.
  ["logsave", runner({ flags: "asv", operands: 1 })],
  ["cmake", cmake],
  ["tmux", tmux],
  ["screen", runner(SCREEN)],
  ["npx", bin(NPX)],
  ["corepack", corepack],
  ["npm", commands(NPM, { exec: bin(NPX, true), x: bin(NPX, true), explore: BashParseLayer.opaque })],
  ["pnpm", commands(PNPM, { exec: bin(PNPM_EXEC), dlx: bin(PNPM_DLX) })],
  ["pnpx", bin(PNPM_DLX)],
  ["yarn", commands(YARN, { exec: script, dlx: bin(YARN_DLX) })],
  ["bunx", bin(BUNX)],
  ["bun", commands(BUN, { x: bin(BUNX), exec: BashParseLayer.opaque, repl: BashParseLayer.opaque })],
  ["uv", commands(UV, { run: bin(UV_RUN), tool: commands({}, { run: bin(UVX) }) })],
  ["uvx", bin(UVX)],
  ["poetry", commands(POETRY, { run: bin({}) })],
  ["pipenv", commands(PIPENV, { run: bin({}) })],
  ["bundle", commands({}, { exec: bin({ longFlags: ["--keep-file-descriptors"] }) })],
]
