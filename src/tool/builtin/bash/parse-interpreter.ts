/**
 * Interpreters and editors (07): like a shell, each runs a program from inline text, a script
 * file or its standard input. Inline text (`python -c`, `node -e`, `perl -e`/`-M`, `ruby -e`/`-r`,
 * `php -r`, `lua -e`, `Rscript -e`, `julia -e`, `pwsh -c`, `dc -e`), preloads (`node -r`,
 * `--import`) and interactive modes make the input opaque; with no script the program is standard
 * input (`curl … | python3`), opaque when that is fed, as for a shell. `python -m mod` and a script
 * are judged by their words. Editors read their keystrokes from standard input (`vim`, `ex`,
 * `ed`), and any option of theirs (`vim -c`, `+cmd`, `-S`, `-s`) makes the input opaque. Database
 * shells run shell commands from their own language (`sqlite3 db '.shell …'`, `psql -c '\! …'`):
 * their inline commands are opaque too. So do mail readers and file-transfer clients (`!cmd`),
 * whose standard input is their commands.
 */
export * as BashParseInterpreter from "./parse-interpreter.js"

import { BashParseLayer } from "./parse-layer.js"

type Reader = BashParseLayer.Reader
type Layer = BashParseLayer.Layer

/** How one interpreter reads its options; short options are written with their dash (`-c`). */
interface Language {
  /** Options that run code the words do not show: inline text, preloads, interactive modes. */
  readonly runs: ReadonlyArray<string>
  /** Short option letters that take a value: the rest of the word, or the next word. */
  readonly args?: string
  /** Short option letters whose value, if any, is the rest of the word (`perl -Fpattern`). */
  readonly attached?: string
  /** Short option letters whose value, if any, is the digits after them (`perl -l0ne`). */
  readonly digits?: string
  readonly longArgs?: ReadonlyArray<string>
  /** Options after which the rest are the program's arguments, with no script (`python -m mod`). */
  readonly ends?: ReadonlyArray<string>
  /** What a module named by a short `ends` option runs (`python -m timeit 'code'`), by its name: the rest of the word or the next one. */
  readonly modules?: (module: string | undefined, rest: ReadonlyArray<string | undefined>) => Layer | undefined
  /** Options whose value is the script (`php -f file`). */
  readonly files?: ReadonlyArray<string>
  /** Options after which nothing runs (`--version`). */
  readonly stops?: ReadonlyArray<string>
}

const NONE = BashParseLayer.NONE
const OPAQUE = BashParseLayer.OPAQUE
const STDIN: Layer = { ...NONE, keep: "own", stdin: true }

const has = (list: ReadonlyArray<string> | undefined, name: string) => list?.includes(name) === true

/**
 * Reads an interpreter's options up to its script: opaque on inline code or a word that is not
 * static where an option could be (`<(…)` included); a layer that reads standard input when there
 * is no script; none when it runs a script or a module, which its words show.
 */
const language =
  (spec: Language): Reader =>
  (words, start, end) => {
    const script = (at: number): Layer | undefined => (at < end ? undefined : STDIN)
    for (let i = start + 1; i < end; i++) {
      const word = words[i]
      if (word === undefined) return OPAQUE
      if (word === "-") return STDIN
      if (word === "--") return script(i + 1)
      if (!word.startsWith("-")) return script(i)
      if (word.startsWith("--")) {
        const name = word.split("=")[0] as string
        if (has(spec.runs, name)) return OPAQUE
        if (has(spec.ends, name) || has(spec.stops, name)) return undefined
        if (has(spec.files, name)) return word.includes("=") ? undefined : script(i + 1)
        if (!word.includes("=") && has(spec.longArgs, name)) i++
        continue
      }
      for (let at = 1; at < word.length; at++) {
        const letter = word[at] as string
        const name = `-${letter}`
        const last = at === word.length - 1
        if (has(spec.runs, name)) return OPAQUE
        if (has(spec.ends, name)) return spec.modules?.(last ? (i + 1 < end ? words[i + 1] : "") : word.slice(at + 1), words.slice(last ? i + 2 : i + 1, end))
        if (has(spec.stops, name)) return undefined
        if (has(spec.files, name)) return last ? script(i + 1) : undefined
        if (spec.args?.includes(letter) === true) {
          if (last) i++
          break
        }
        if (spec.attached?.includes(letter) === true) break
        if (spec.digits?.includes(letter) === true) while (/[0-9a-fA-Fx]/.test(word[at + 1] ?? "") && !has(spec.runs, `-${word[at + 1]}`)) at++
      }
    }
    return STDIN
  }

/** `vim file`: keystrokes come from standard input; any option or `+cmd` may run commands. */
const editor: Reader = (words, start, end) => {
  for (let i = start + 1; i < end; i++) {
    const word = words[i]
    if (word === "--") return STDIN
    if (word === undefined || word.startsWith("-") || word.startsWith("+")) return OPAQUE
  }
  return STDIN
}

/** sqlite3's options that take the next word as their value (its options take one dash or two). */
const SQLITE_ARGS = ["-separator", "-newline", "-nullvalue", "-vfs", "-lookaside", "-pagecache", "-heap", "-mmap", "-maxsize", "-escape"]

/**
 * `sqlite3 [options] [database [sql…]]`: SQL after the database, `-cmd` and `-init` can run a
 * shell (`.shell`, `.system`) and write files (`.output`, `.once`, `VACUUM INTO`), so they are
 * opaque; with none, the commands come from standard input.
 */
const sqlite: Reader = (words, start, end) => {
  let operands = 0
  for (let i = start + 1; i < end; i++) {
    const word = words[i]
    if (word === undefined) return OPAQUE
    if (word.startsWith("-") && operands === 0) {
      const name = word.replace(/^--/, "-").split("=")[0] as string
      if (name === "-cmd" || name === "-init") return OPAQUE
      if (SQLITE_ARGS.includes(name) && !word.includes("=")) i++
      continue
    }
    operands++
  }
  return operands > 1 ? OPAQUE : STDIN
}

const DENO_STOPS = ["-V", "--version", "-h", "--help"]

/** PowerShell takes any prefix of its parameters, in any case (`-c`, `-Command`, `-ec`): a command or an encoded one is opaque. */
const powershell: Reader = (words, start, end) => {
  const args = words.slice(start + 1, end)
  if (args.some((word) => word === undefined || word === "-" || /^-(?:c|e)/i.test(word))) return OPAQUE
  return args.some((word) => !(word as string).startsWith("-")) ? undefined : STDIN
}

/** `deno eval`, `deno repl` and `--eval` run inline code; `deno` alone is a REPL on standard input. */
const deno: Reader = (words, start, end) => {
  const args = words.slice(start + 1, end)
  if (args.length === 0) return STDIN
  if (args.some((word) => word === undefined || word.startsWith("--eval"))) return OPAQUE
  const sub = args.find((word) => !(word as string).startsWith("-"))
  if (sub === undefined) return args.some((word) => DENO_STOPS.includes(word as string)) ? undefined : STDIN
  return sub === "eval" || sub === "repl" ? OPAQUE : undefined
}

/**
 * Standard modules that run code their words or standard input hold: `timeit` its statements and
 * `-s` setup (`python3 -m timeit "__import__('os').system(…)"` ran under a `git push *` deny),
 * `pdb` its `-c` commands (`!` runs Python), `idlelib -c`; `code` and `asyncio` are a REPL on
 * standard input. Any other module is judged by its words, as before.
 */
const pythonModule = (module: string | undefined, rest: ReadonlyArray<string | undefined>): Layer | undefined => {
  if (module === undefined) return OPAQUE
  if (["timeit", "pdb", "idlelib", "idlelib.idle", "idle"].includes(module)) return OPAQUE
  if (module === "pip") return pipConfig(rest)
  return ["code", "asyncio"].includes(module) ? STDIN : undefined
}

/**
 * `python -m pip config set …` writes pip's config as `pip config set` does (BashProgramsConfig):
 * opaque, and so is a word that may expand before pip's command or after `config`.
 */
const pipConfig = (rest: ReadonlyArray<string | undefined>): Layer | undefined => {
  const first = rest.findIndex((word) => word === undefined || !word.startsWith("-"))
  if (first !== -1 && rest[first] === undefined) return OPAQUE
  const at = rest.indexOf("config")
  if (at === -1) return undefined
  const action = rest.slice(at + 1).find((word) => word === undefined || !word.startsWith("-"))
  return at + 1 < rest.length && (action === undefined || !["list", "get", "debug"].includes(action)) ? OPAQUE : undefined
}

const PYTHON = language({ runs: ["-c", "-i"], ends: ["-m"], modules: pythonModule, stops: ["-h", "-V", "-?", "--help", "--version", "--help-all", "--help-env", "--help-xoptions"], args: "WXQ", longArgs: ["--check-hash-based-pycs"] })
const NODE = language({
  runs: ["-e", "--eval", "-p", "--print", "-r", "--require", "--import", "--loader", "--experimental-loader", "-i", "--interactive", "--env-file", "--env-file-if-exists", "--run"],
  stops: ["-v", "--version", "-h", "--help", "--v8-options", "--completion-bash"],
  ends: ["--test"],
  args: "C",
  longArgs: ["--conditions", "--input-type", "--title", "--redirect-warnings", "--diagnostic-dir", "--report-dir", "--test-reporter", "--test-reporter-destination"],
})
const PERL = language({ runs: ["-e", "-E", "-M", "-m", "-i", "-d", "-D"], stops: ["-v", "-V", "-h"], args: "I", attached: "Fx", digits: "0lC" })
const RUBY = language({ runs: ["-e", "-r", "-i"], stops: ["-h", "-v", "--help", "--version", "--copyright"], args: "CEI", attached: "FKx", digits: "0TW", longArgs: ["--encoding", "--external-encoding", "--internal-encoding"] })
const PHP = language({
  runs: ["-r", "-B", "-R", "-F", "-E", "-a", "-d", "-c", "-z", "--interactive", "--define", "--php-ini", "--zend-extension", "--process-begin", "--process-code", "--process-file", "--process-end"],
  files: ["-f", "--file"],
  ends: ["-S", "--server"],
  stops: ["-h", "-v", "-i", "-m", "--help", "--version", "--info", "--modules"],
  args: "t",
  longArgs: ["--docroot"],
})
const LUA = language({ runs: ["-e", "-l", "-i", "-b", "-j"], stops: ["-v"], attached: "O" })
const R = language({ runs: ["-e"], files: ["-f", "--file"], stops: ["--version", "--help", "-h"] })
const JULIA = language({ runs: ["-e", "--eval", "-E", "--print", "-L", "--load", "-i"], stops: ["-v", "--version", "-h", "--help"], args: "pJCtO" })
/** psql: a command, a file of commands, an output or log file (`\!` runs a shell; `-o` writes) are opaque. */
const PSQL = language({
  runs: ["-c", "--command", "-f", "--file", "-o", "--output", "-L", "--log-file"],
  stops: ["-V", "--version", "-?", "--help", "-l", "--list"],
  args: "dFhpPRTUv",
  longArgs: ["--dbname", "--field-separator", "--host", "--port", "--pset", "--record-separator", "--table-attr", "--username", "--set", "--variable"],
})
const DC = language({ runs: ["-e", "--expression"], stops: ["-h", "-V", "--help", "--version"], files: ["-f", "--file"] })

/**
 * A language no table here reads (Tcl's `tclsh`, `wish`, `jimsh`, `expect`), or a shell whose
 * language is not bash's (`csh`, `tcsh`, `rc`, `es`, `elvish`, `nu`, `xonsh`, Oils' `osh` and
 * `ysh`, `sash`): a script file is judged by its words, like `python x.py`; any option may be
 * inline code (`tcsh -c`, `expect -c`, `xonsh -c`) and is opaque; with no script, the program is
 * standard input. `tclsh <<< 'exec git push o'` and `tcsh -c 'git push o'` were allowed.
 */
const foreign: Reader = (words, start, end) => {
  for (let i = start + 1; i < end; i++) {
    const word = words[i]
    if (word === undefined || word.startsWith("-") || word.startsWith("+")) return OPAQUE
    return undefined
  }
  return STDIN
}
/** Letters of the mail readers' options that take a value (`-s subject`, `-c`, `-b`, `-r`, `-a` header). */
const MAIL_ARGS = "scbra"
/** Letters of the mail readers' flags that neither run nor read a mailbox. */
const MAIL_FLAGS = "nNvEdiI"

/**
 * bsd-mailx, s-nail and heirloom mailx: reading a mailbox (`-f`, or no recipient), they take their
 * commands from standard input, and `!cmd` runs a shell: `printf '!git push o\n' | mail -N -f mb`
 * pushed (the sixth review). Sending (`mail -s subject addr`) reads the message there. Any other
 * option (s-nail's `-Y` command, `-S` variable, `-~` escapes in a batch) is opaque.
 */
const mail: Reader = (words, start, end) => {
  let recipients = 0
  for (let i = start + 1; i < end; i++) {
    const word = words[i]
    if (word === undefined) return OPAQUE
    if (word === "--") {
      recipients += end - i - 1
      break
    }
    if (!word.startsWith("-") || word === "-") {
      recipients++
      continue
    }
    for (let at = 1; at < word.length; at++) {
      const letter = word[at] as string
      if (letter === "f") return STDIN
      if (MAIL_ARGS.includes(letter)) {
        if (at === word.length - 1) i++
        break
      }
      if (!MAIL_FLAGS.includes(letter)) return OPAQUE
    }
  }
  return recipients === 0 ? STDIN : undefined
}

/**
 * File-transfer and terminal clients whose standard input is their command language, where `!cmd`
 * runs a shell (`ftp`, `lftp`, `telnet`, `smbclient`, by their manuals; sftp's `-b` is read with
 * ssh): what feeds them is opaque, and so is any option (lftp's `-c`/`-e`/`-f`, smbclient's `-c`).
 */
const client: Reader = (words, start, end) => (words.slice(start + 1, end).some((word) => word === undefined || word.startsWith("-")) ? OPAQUE : STDIN)

/** The mail readers that take `!` commands on standard input. */
const MAILERS = ["mail", "mailx", "Mail", "bsd-mailx", "s-nail", "heirloom-mailx", "nail"]
/** Clients whose standard input is their command language. */
const CLIENTS = ["ftp", "tnftp", "netkit-ftp", "pftp", "lftp", "telnet", "telnet.netkit", "inetutils-telnet", "smbclient"]

/**
 * Tcl's interpreters and expect, macro and plotting languages with a shell escape (`m4`'s
 * `syscmd`, `gnuplot`'s `system`, `mlr`'s `system`), Lisps and others that run inline code by an
 * option (`guile -c`, `sbcl --eval`, `octave --eval`, `emacs --eval`), and the shells whose
 * language is not bash's (see `foreign`).
 */
export const FOREIGN = [
  ...["tclsh", "wish", "jimsh", "expect", "expectk", "m4", "gnuplot", "mlr", "octave", "guile", "racket", "sbcl", "clisp", "swipl", "gforth", "emacs"],
  ...["csh", "tcsh", "bsd-csh", "rc", "es", "elvish", "nu", "xonsh", "osh", "ysh", "oil", "ion", "murex", "sash"],
  // REPLs and templates of languages with a table elsewhere, which read code from standard input
  // (the sixth review pushed through `… | irb`, `… | erb` and `… | jshell`).
  ...["irb", "erb", "jshell"],
]

const PYTHONS = ["python", "python2", "python2.7", "python3", ...Array.from({ length: 10 }, (_, n) => `python3.${n + 6}`), "pypy", "pypy3"]
const EDITORS = ["vim", "vi", "nvim", "view", "vimdiff", "nvimdiff", "gvim", "gview", "rvim", "rview", "evim", "ex", "nex", "ed", "red"]

export const READERS: ReadonlyArray<readonly [string, Reader]> = [
  ...PYTHONS.map((name) => [name, PYTHON] as const),
  ...["node", "nodejs", "ts-node", "tsx"].map((name) => [name, NODE] as const),
  ["perl", PERL],
  ["ruby", RUBY],
  ["php", PHP],
  ...["lua", "luajit", "lua5.1", "lua5.2", "lua5.3", "lua5.4"].map((name) => [name, LUA] as const),
  ["dc", DC],
  ["R", R],
  ["Rscript", R],
  ["julia", JULIA],
  ["pwsh", powershell],
  ["powershell", powershell],
  ["deno", deno],
  ["sqlite3", sqlite],
  ["psql", PSQL],
  ...EDITORS.map((name) => [name, editor] as const),
  ...FOREIGN.map((name) => [name, foreign] as const),
  ...MAILERS.map((name) => [name, mail] as const),
  ...CLIENTS.map((name) => [name, client] as const),
]
