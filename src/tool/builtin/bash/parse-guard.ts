/**
 * Fail-closed checks for what bash runs that the grammar does not show as commands (07): text a
 * later step evaluates as code, and substitutions tree-sitter-bash leaves inside words. Each check
 * answers "opaque" when it cannot show the input harmless; none models more than it must.
 * - Hidden substitutions: every `$(`, backtick, `<(` and `>(` in a parsed text must be one the walk
 *   walked, or sit in text bash reads literally: a quoted-delimiter heredoc body, an escaped
 *   character, or a single-quoted part of a static argument of a command that does not read its
 *   arguments as names or code (the walk records those, see `literalArgument`).
 * - Evaluation sinks: arithmetic that mentions a name or an expansion (a variable's value is itself
 *   evaluated, `x='a[$(cmd)]'; ((x))` runs cmd), a subscript that is not a number, `${!x}`,
 *   `${x@P}`, substring offsets, `[[ -v ]]` and arithmetic `[[` operators on non-numbers, `[`/`test`
 *   whose operators could come from an expansion, declarations that evaluate their values, and
 *   `unset` of anything but plain names.
 * - Names: PS4, PROMPT_COMMAND, BASH_ENV, ENV, SHELLOPTS, BASHOPTS, BASH_FUNC_*, expand_aliases,
 *   extdebug and IFS (but for `IFS=… read`) anywhere in the text, quotes removed.
 * Gotcha: these are deliberately coarse: `echo '$(x)'` and `(( i + 1 ))` are opaque (ask), which
 * costs a question, never a bypass.
 */
export * as BashParseGuard from "./parse-guard.js"

import type { Node } from "web-tree-sitter"
import { BashParseDelimiter } from "./parse-delimiter.js"
import { BashParseWord } from "./parse-word.js"

/** Quote and escape characters removed: `CD''PATH` and `HO\ME` spell CDPATH and HOME. */
export const unquoted = (text: string): string => text.replace(/\\\n/g, "").replace(/[\\'"]/g, "")

/**
 * Variables and options whose value bash runs as code, or that change how it reads code or which
 * program a name runs: BASH_CMDS and PATH (set, not read: `$PATH` is fine), BASH_ALIASES and POSIX
 * mode (`set -o posix`, POSIXLY_CORRECT), which turns alias expansion on. `${PATH}` is a read;
 * `{PATH}>f` is not: a redirection's descriptor name is assigned the descriptor's number.
 */
const EVALUATED =
  /(?<![A-Za-z0-9_])(?:(?:PS4|PROMPT_COMMAND|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|BASH_CMDS|BASH_ALIASES|POSIXLY_CORRECT|posix|expand_aliases|extdebug)(?![A-Za-z0-9_])|BASH_FUNC_)|(?<![A-Za-z0-9_$])(?<!\$\{)PATH(?![A-Za-z0-9_])/

/**
 * Variables that name a program to run, a config home or file (which can name programs: git's
 * `core.fsmonitor`, a kubeconfig's exec plugin, npm's `script-shell`), or a library, plugin or
 * module path: whoever sets one chooses what a later, allowed command runs (`XDG_CONFIG_HOME=cfg;
 * git status`, `read EDITOR; git commit`). Set by `NAME=`, `export`, `declare`, `local`,
 * `readonly`, `printf -v`, `read`, `mapfile`, `for NAME in`, `getopts`…: so any mention of one
 * that is not a read (`$NAME`, `${NAME…}`) makes the text opaque. Besides the names, prefixes of
 * tool families and suffixes that say "a path, a program, options". NODE_ENV is plain data.
 */
const FAMILIES = [
  ...["GIT", "LD", "DYLD", "XDG", "NODE", "NPM", "YARN", "PNPM", "COREPACK", "BUN", "DENO", "CARGO", "RUSTUP", "PIP", "UV", "POETRY", "PIPENV", "CONDA"],
  ...["PERL", "RUBY", "GEM", "BUNDLE", "JAVA", "_JAVA", "JDK", "MAVEN", "GRADLE", "SBT", "DOTNET", "NUGET", "HELM", "KUBE", "DOCKER", "AWS", "CLOUDSDK"],
  ...["TOOLGATE", "GOOGLE", "AZURE", "TF", "ANSIBLE", "SSH", "GPG", "GCONV", "GLIBC", "MALLOC", "MAN", "SUDO", "OPENSSL", "GROFF", "[Nn][Pp][Mm]_[Cc][Oo][Nn][Ff][Ii][Gg]"],
  ...["DBUS", "RSYNC", "GIO", "GTK", "QT", "ERL", "R", "LUA", "CMAKE", "HG", "PHP", "VIM", "EMACS", "TCL", "OCAML", "OPAM", "CABAL", "STACK", "COMPOSER", "CURL", "WGET"],
]
const SUFFIXES = [
  ...["HOME", "PATH", "DIR", "DIRS", "CONFIG", "CONF", "RC", "OPTIONS", "OPTS", "FLAGS", "PRELOAD", "LIB", "LIBS", "COMMAND", "CMD", "EDITOR", "PAGER"],
  ...["SHELL", "PROGRAM", "ASKPASS", "WRAPPER", "PLUGIN", "PLUGINS", "EXEC", "HOOK", "HOOKS", "LOADER", "STARTUP", "INCLUDE", "FILE", "CREDENTIALS"],
  ...["LAUNCHER", "RSH", "PROG", "MODULES", "PROFILE", "ENVIRON"],
  // A prefix put before a program's name (`GROFF_COMMAND_PREFIX=./ man ls` runs `./troff`, the
  // fifth review). Not every `_PREFIX`: `cmake -DCMAKE_INSTALL_PREFIX=…` is an install folder.
  "COMMAND_PREFIX",
]
/**
 * Endings that say "options, flags, start-up code or a log file" even without an underscore before
 * them (`GNUMAKEFLAGS`, `ZIPOPT`, `VIMINIT`, `EXINIT`, `SSLKEYLOGFILE`), and a program's rc file
 * (`WGETRC=./rc wget` reads `output_document = .git/hooks/pre-commit` from it; `SYSTEMWGETRC`):
 * `RC` after a name of three letters or more that is not `SRC` (`SRC`, `JAVA_SRC`, `ARC`, `CRC` stay plain words).
 */
const BARE_SUFFIXES = ["FLAGS", "OPT", "OPTS", "INIT", "LOGFILE", "[A-Z0-9_]{2}[A-RT-Z0-9_]RC"]
const NAMES = [
  ...["HOME", "PAGER", "EDITOR", "VISUAL", "SHELL", "BROWSER", "TERMINFO", "GNUPGHOME", "CC", "CXX", "CPP", "LD", "AR", "AS", "NM", "RANLIB", "RUSTC", "CROSS_COMPILE"],
  ...["RUSTDOC", "MAKE", "MAKEFLAGS", "MFLAGS", "MAKEFILES", "CLASSPATH", "ZDOTDIR", "INPUTRC", "KUBECONFIG", "NLSPATH", "HOSTALIASES", "TMPDIR"],
  // less reads every setting from a `LESS…` variable, and a lesskey source's `#env` section sets the
  // others: `LESSKEYIN=./k less f` ran the `LESSOPEN` that `./k` named, its output a pipe (the sixth
  // review); so did `LESSKEYIN_SYSTEM`, `LESSKEY_SYSTEM` (and less 643's `LESSKEY_CONTENT`).
  ...["LESS[A-Z0-9_]*", "MANPAGER", "MANOPT", "MANPATH", "PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB", "RUBYOPT", "RUBYLIB"],
  ...["GOFLAGS", "GOROOT", "GOPATH", "GOTOOLCHAIN", "GOENV", "GOPROXY", "GOTOOLDIR", "GOBIN", "GOWORK", "VIRTUAL_ENV", "CFLAGS", "CXXFLAGS", "LDFLAGS", "RUSTFLAGS"],
  ...["PYTHON[A-Z]*", "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS"],
  ...["EXRC", "MYVIMRC", "VIMRUNTIME", "GVIMINIT", "HGRCPATH", "HGEDITOR", "HGMERGE", "PHPRC", "UNZIP", "ZIPOPT", "ZIP", "GZIP", "XZ_OPT", "BZIP2", "BZIP"],
]
/** Python variables that are plain data. */
const PLAIN_PYTHON = ["PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PYTHONHASHSEED", "PYTHONIOENCODING", "PYTHONUTF8"]

const VARIABLE = `(?!(?:NODE_ENV|${PLAIN_PYTHON.join("|")})(?![A-Za-z0-9_]))(?:(?:${FAMILIES.join("|")})_[A-Za-z0-9_]*|[A-Z0-9_]*_(?:${SUFFIXES.join("|")})|[A-Z0-9_]*(?:${BARE_SUFFIXES.join("|")})|${NAMES.join("|")})(?![A-Za-z0-9_])`
/** A mention that is not a read, or an expansion that assigns (`${EDITOR:=vim}`). */
const COMMAND_VARIABLES = new RegExp(`(?<![A-Za-z0-9_$]|\\$\\{)${VARIABLE}|\\$\\{${VARIABLE}:?=`)

/** git's own inline configuration (`git -c core.pager=…`, `-c alias.p=push`, `--config-env`): it can name programs and rename sub-commands. */
const GIT_CONFIG = /(?<![A-Za-z0-9_])git(?:\s+-\S+(?:\s+[^-\s]\S*)?)*\s+(?:-c|--config-env)(?:\s|=|[A-Za-z])/

/**
 * toolgate itself, by name or path (`toolgate trust`, `npx toolgate`, `node …/toolgate/dist/…`):
 * a command that runs it could change toolgate's own rules, so only an exact rule allows it.
 * Its config files are plain data (`cat toolgate.json`).
 */
const TOOLGATE = /(?<![A-Za-z0-9_-])toolgate(?![A-Za-z0-9_-]|\.jsonc?(?![A-Za-z0-9_/-]))/i

/** Whether `text` names a variable or option that makes it opaque, or toolgate itself (quotes removed). */
export const evaluates = (text: string): boolean => {
  const plain = unquoted(text)
  return EVALUATED.test(plain) || COMMAND_VARIABLES.test(plain) || GIT_CONFIG.test(plain) || TOOLGATE.test(plain)
}

/** CDPATH, the directory stack, OLDPWD or cdable_vars: where `cd`, `pushd` and `popd` land is unknown. */
const UNSETTLING = /CDPATH|DIRSTACK|OLDPWD|cdable_vars/

/** Whether `text` may change where `cd`, `pushd` and `popd` go (quotes removed). */
export const unsettles = (text: string): boolean => UNSETTLING.test(unquoted(text))

/** Drops every use of `$HOME` and `${HOME}`: whatever is left that names HOME may change it. */
const HOME_READS = /\$\{HOME\}|\$HOME(?![A-Za-z0-9_])/g

/** HOME as a name of its own (not JAVA_HOME). */
const HOME = /(?<![A-Za-z0-9_])HOME(?![A-Za-z0-9_])/

/** Whether `text` may change HOME, so that `~` is unknown (quotes removed: `HO''ME=x`). */
export const mayChangeHome = (text: string): boolean => HOME.test(unquoted(text).replace(HOME_READS, ""))

const IFS = /(?<![A-Za-z0-9_])IFS(?![A-Za-z0-9_])/g

/** What the walk of one parsed text saw, for `hidden`. */
export interface Ledger {
  /** Where each walked substitution starts (`$(`, a backtick, `<(`, `>(`, `$((`), and where a backtick one ends. */
  readonly walked: Set<number>
  /** Ranges `[start, end)` bash reads literally: quoted-delimiter heredoc bodies, single-quoted argument parts. */
  readonly literal: Array<readonly [number, number]>
  /** Single characters bash reads literally (escaped, or `<(` inside double quotes). */
  readonly escaped: Set<number>
  /** Static arguments may be exempted: the text defines no function that could read them as names. */
  readonly arguments: boolean
}

export const ledger = (root: Node): Ledger => ({
  walked: new Set(),
  literal: [],
  escaped: new Set(),
  arguments: root.descendantsOfType("function_definition").length === 0,
})

const text = (node: Node, source: string) => source.slice(node.startIndex, node.endIndex)

/** Marks every character after an unescaped backslash in `[start, end)` as escaped. */
const escapes = (source: string, start: number, end: number, into: Set<number>) => {
  for (let i = start; i < end; i++) {
    if (source[i] !== "\\") continue
    into.add(i + 1)
    i++
  }
}

/** Records a walked substitution or arithmetic expansion. */
export const walked = (node: Node, source: string, into: Ledger): void => {
  into.walked.add(node.startIndex)
  if (source[node.startIndex] === "`") into.walked.add(node.endIndex - 1)
}

/**
 * Records the literal text of a static argument word (`literal` defined) of a command that reads
 * its arguments as plain data: single-quoted parts, escaped characters, and `<(`/`>(` inside
 * double quotes. Only parts directly in the word count: a quote nested in an expansion is not one.
 */
export const literalArgument = (node: Node, source: string, into: Ledger): void => {
  if (!into.arguments) return
  const parts = node.type === "concatenation" ? node.children : [node]
  parts.forEach((part) => {
    if (part.type === "raw_string") return void into.literal.push([part.startIndex, part.endIndex])
    if (part.type !== "word" && part.type !== "string") return
    escapes(source, part.startIndex, part.endIndex, into.escaped)
    if (part.type !== "string") return
    for (let i = part.startIndex; i < part.endIndex; i++) if ((source[i] === "<" || source[i] === ">") && source[i + 1] === "(") into.escaped.add(i)
  })
}

const HIDDEN = /`|\$\(|[<>]\(/g

/** Whether `source` holds a substitution bash runs that the walk did not walk (the ledger's exemptions aside). */
export const hidden = (source: string, seen: Ledger): boolean =>
  Array.from(source.matchAll(HIDDEN)).some(
    (match) => !seen.walked.has(match.index) && !seen.escaped.has(match.index) && !seen.literal.some(([start, end]) => match.index >= start && match.index < end),
  )

/** Arithmetic with nothing but numbers and operators: no name, no expansion, no quote. */
const PLAIN_ARITHMETIC = /^[\s0-9+\-*/%()<>=!&|^~?:,;]*$/
/** Expansions that are always a number: `$#`, `$?`, `$!`, `$$`, `${#name}`, `${#name[@]}`. */
const NUMERIC_EXPANSION = /\$[#?!$]|\$\{#[A-Za-z_][A-Za-z0-9_]*(?:\[[@*]\])?\}/g
const INDEX = /^\s*-?\s*\d+\s*$|^\s*[@*]\s*$/
const NUMBER = /^[-+]?\d+$/
/** A number, or an expansion that is always one, alone (double quotes allowed). */
const isNumeric = (operand: string) => NUMBER.test(operand.replace(/^"(.*)"$/, "$1").replace(NUMERIC_EXPANSION, "0"))
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/
const ARITHMETIC_TESTS = ["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]
const NAME_TESTS = ["-v", "-R"]

/** The text between the `((`/`$((`/`$[` of an arithmetic node and its closing, as `[start, end)`; undefined if none. */
const arithmeticRange = (node: Node): readonly [number, number] | undefined => {
  const open = node.children.findIndex((child) => child.type === "((" || child.type === "$((" || child.type === "$[")
  const close = node.children.findLastIndex((child) => child.type === "))" || child.type === "]")
  if (open === -1 || close <= open) return undefined
  return [(node.children[open] as Node).endIndex, (node.children[close] as Node).startIndex]
}

const ARITHMETIC = ["arithmetic_expansion", "compound_statement", "c_style_for_statement"]
const NAME = /[A-Za-z_][A-Za-z0-9_]*/g
/** `name=<digits>` as a statement's assignment. */
const NUMBER_ASSIGNMENT = /^=\d+(?=[\s;&|)]|$)/
const ASSIGNING = /^\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)|^\s*(?:\+\+|--)/

/**
 * Names that hold a number wherever arithmetic reads them (`i=1; echo $((i+1))`): outside
 * arithmetic the text only ever assigns them digits (`i=1`) or reads them (`$i`), and something
 * assigns them. Arithmetic stores numbers, so its own assignments (`i++`) keep them numbers. Any
 * other mention (`read i`, `for i in`, `i=$x`, `declare i`) may store text, which arithmetic
 * would evaluate as code (`a[$(cmd)]`).
 */
export const counters = (root: Node, source: string): ReadonlySet<string> => {
  const ranges = root.descendantsOfType(ARITHMETIC).flatMap((node) => {
    const range = arithmeticRange(node)
    return range === undefined ? [] : [range]
  })
  if (ranges.length === 0) return new Set()
  const inArithmetic = (at: number) => ranges.some(([start, end]) => at >= start && at < end)
  const names = new Set(ranges.flatMap(([start, end]) => source.slice(start, end).match(NAME) ?? []))
  return new Set(
    Array.from(names).filter((name) => {
      const mentions = Array.from(source.matchAll(new RegExp(`(?<![A-Za-z0-9_$]|\\$\\{)${name}(?![A-Za-z0-9_])`, "g")))
      const assigns = mentions.some((mention) => {
        const after = source.slice(mention.index + name.length)
        return ASSIGNING.test(after) || /(?:\+\+|--)\s*$/.test(source.slice(0, mention.index))
      })
      const plain = mentions.every((mention) => inArithmetic(mention.index) || NUMBER_ASSIGNMENT.test(source.slice(mention.index + name.length)))
      return assigns && plain
    }),
  )
}

const arithmetic = (node: Node, source: string, numbers: ReadonlySet<string>): boolean => {
  const range = arithmeticRange(node)
  if (range === undefined) return false
  const inner = source.slice(...range).replace(NUMERIC_EXPANSION, "0")
  const named = inner.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$?([A-Za-z_][A-Za-z0-9_]*)/g, (found, braced?: string, bare?: string) => (numbers.has((braced ?? bare) as string) ? "0" : found))
  return !PLAIN_ARITHMETIC.test(named)
}

/** `${!x}`, `${x@P}` (any transformation), a substring offset that is not a number. */
const expansion = (node: Node, source: string): boolean => {
  const children = node.children
  if (children[1]?.type === "!") return true
  if (children.some((child) => child.type === "@")) return true
  const colon = children.findIndex((child) => child.type === ":")
  return colon !== -1 && children.slice(colon + 1).some((child) => child.type !== ":" && child.type !== "}" && (child.type !== "number" || !NUMBER.test(text(child, source))))
}

/** The words of a `[ … ]` test as bash's `[` builtin sees them, operators included. */
const testWords = (node: Node, source: string): ReadonlyArray<TestWord> =>
  node.children.flatMap((child): ReadonlyArray<TestWord> => {
    if (child.type === "unary_expression" || child.type === "binary_expression" || child.type === "parenthesized_expression") return testWords(child, source)
    if (!child.isNamed || child.type === "test_operator") return [{ literal: text(child, source), source: text(child, source) }]
    const word = BashParseWord.read(child, source, { home: undefined })
    return [{ literal: word.literal, source: word.source }]
  })

const doubleBracket = (node: Node, source: string): boolean =>
  node.descendantsOfType("test_operator").some((operator) => {
    const op = text(operator, source)
    if (NAME_TESTS.includes(op)) return true
    if (!ARITHMETIC_TESTS.includes(op)) return false
    const parent = operator.parent
    if (parent === null || parent.type !== "binary_expression") return true
    return [parent.childForFieldName("left"), parent.childForFieldName("right")].some((side) => side === null || !isNumeric(text(side, source)))
  })

const DECLARING = ["declare", "typeset", "local", "readonly"]

/**
 * `declare -i`/`-n`/`-a`/`-A` evaluate or redirect what they assign; `declare`, `typeset`,
 * `local` and `readonly` evaluate a value that looks like `(…)` as an array (even from `"$v"`);
 * a name that is not a plain identifier (`'a[$(x)]'`, `$n`) may be evaluated as a subscript.
 */
const declaration = (node: Node, source: string): boolean => {
  const keyword = text(node.children[0] as Node, source)
  return node.children.slice(1).some((child) => {
    if (child.type === "variable_assignment") {
      const name = child.childForFieldName("name")
      if (name === null || name.type !== "variable_name") return true
      const value = child.childForFieldName("value")
      if (value === null || value.type === "array" || !DECLARING.includes(keyword)) return false
      const literal = BashParseWord.read(value, source, { home: undefined }).literal
      return literal === undefined || literal.trimStart().startsWith("(")
    }
    if (child.type === "variable_name") return false
    const literal = BashParseWord.read(child, source, { home: undefined }).literal
    if (literal === undefined) return true
    if (/^[-+]/.test(literal)) return /[inaA]/.test(literal)
    return !IDENTIFIER.test(literal)
  })
}

const unset = (node: Node, source: string): boolean =>
  node.children.slice(1).some((child) => {
    if (child.type === "variable_name") return false
    const literal = BashParseWord.read(child, source, { home: undefined }).literal
    return literal === undefined || (!/^-[fvn]+$/.test(literal) && !IDENTIFIER.test(literal))
  })

const lineStart = (source: string, at: number) => source.lastIndexOf("\n", at - 1) + 1
const lineEnd = (source: string, at: number) => {
  const next = source.indexOf("\n", at)
  return next === -1 ? source.length : next
}

/**
 * A heredoc whose end the grammar placed where bash would not (a delimiter word bash ends sooner,
 * a body line equal to the delimiter, an end line that is not exactly it, words of its line read
 * from the body) is opaque. A quoted delimiter makes the body
 * literal; otherwise only its escaped characters are, and a `${…}` whose word holds a quote or
 * anything that evaluates makes it opaque (`quotedBraceWord`, `bodyEvaluates`).
 */
const heredoc = (node: Node, source: string, into: Ledger): boolean => {
  const start = node.children.find((child) => child.type === "heredoc_start")
  const end = node.children.find((child) => child.type === "heredoc_end")
  if (start === undefined || end === undefined) return true
  // The end token is the delimiter's line alone; one that runs into later lines swallowed them.
  if (text(end, source).replace(/\n$/, "").includes("\n")) return true
  // Words and redirects of the heredoc's line that run into the body (`\`` starting a body line).
  const line = lineEnd(source, start.endIndex)
  if (node.children.some((child, index) => ["argument", "redirect"].includes(node.fieldNameForChild(index) ?? "") && child.endIndex > line)) return true
  // bash's delimiter word must be the grammar's: `<<EOF;cmd` is `EOF` then `cmd` for bash.
  const read = BashParseDelimiter.read(source, start.startIndex)
  if (read === undefined || read.end !== start.endIndex) return true
  const delimiter = read.line
  const strip = node.children.some((child) => child.type === "<<-")
  const trim = (line: string) => (strip ? line.replace(/^\t+/, "") : line)
  const body = node.children.find((child) => child.type === "heredoc_body")
  const from = lineStart(source, (body ?? end).startIndex)
  const lines = source.slice(from, end.startIndex).split("\n").slice(0, -1)
  const last = source.slice(lineStart(source, end.startIndex), lineEnd(source, end.startIndex))
  if (trim(last) !== delimiter || lines.some((line) => trim(line) === delimiter)) return true
  if (read.quoted) into.literal.push([from, end.startIndex])
  else escapes(source, from, end.startIndex, into.escaped)
  const content = source.slice(from, end.startIndex)
  return !read.quoted && (quotedBraceWord(content) || bodyEvaluates(content))
}

/** Arithmetic in a heredoc body: `$((x))` (which the grammar may take for a substitution), `$[x]`. */
const BODY_ARITHMETIC = /\$\(\(|\$\[/
/** The head of a `${…}`: `!` or `#`, the name, a subscript, and the two characters after them. */
const BRACE_HEAD = /^\$\{([!#]?)(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(\[[^\]]*\])?([\s\S]?)([\s\S]?)/

/**
 * Whether an unquoted heredoc body evaluates something, read from the text: arithmetic, or a
 * `${…}` that is indirect (`${!x}`), has a subscript that is not a number, `@` or `*`, a
 * transformation (`@P`) or a substring offset. The grammar leaves body lines that start with a
 * blank unparsed, so the tree's own checks (`inspect`) never see them there.
 */
const bodyEvaluates = (body: string): boolean =>
  BODY_ARITHMETIC.test(body) ||
  Array.from(body.matchAll(/\$\{/g)).some((match) => {
    const head = BRACE_HEAD.exec(body.slice(match.index))
    if (head === null) return true
    const [, prefix, subscript, next, after] = head
    if (prefix === "!" || (subscript !== undefined && !/^\[(?:[@*]|-?\d+)\]$/.test(subscript))) return true
    return next === "@" || (next === ":" && !"-=+?".includes(after || "-"))
  })

/**
 * Whether a `${…}` in `body` holds a quote (escaped or not, `$'` and `$"` included) before the
 * brace that closes it, nested `${…}` counted. In an unquoted heredoc body bash reads that word
 * as in double quotes, where `'$"(cmd)'` and `"$""(cmd)"` run cmd (BashParseLexical), and the
 * grammar leaves body lines that start with a blank unparsed: so the text is judged, not the tree.
 */
const quotedBraceWord = (body: string): boolean =>
  Array.from(body.matchAll(/\$\{/g)).some((match) => {
    let depth = 1
    for (let i = match.index + 2; i < body.length && depth > 0; i++) {
      const char = body[i] as string
      if (char === "'" || char === '"') return true
      if (char === "}") depth--
      if (char === "$" && body[i + 1] === "{") depth++
      // Skips an escaped character (not a quote: that counts too) and the brace of a nested `${`.
      if ((char === "\\" && body[i + 1] !== "'" && body[i + 1] !== '"') || (char === "$" && body[i + 1] === "{")) i++
    }
    return false
  })

/** `IFS=… read`/`mapfile`/`readarray`: IFS only splits what that one command reads. */
const harmlessIfs = (node: Node, source: string): boolean => {
  const parent = node.parent
  const name = node.childForFieldName("name")
  if (parent === null || parent.type !== "command" || name === null || text(name, source) !== "IFS") return false
  const command = parent.childForFieldName("name")
  if (command === null || command.startIndex < node.startIndex) return false
  const literal = BashParseWord.read(command, source, { home: undefined }).literal
  return literal === "read" || literal === "mapfile" || literal === "readarray"
}

const INSPECTED = [
  "arithmetic_expansion",
  "compound_statement",
  "c_style_for_statement",
  "subscript",
  "expansion",
  "array",
  "test_command",
  "declaration_command",
  "unset_command",
  "heredoc_redirect",
  "variable_assignment",
]

/**
 * Whether the tree of `source` holds an evaluation sink or a heredoc the grammar may have
 * misread; records heredoc bodies bash reads literally in `into`.
 * @example BashParseGuard.inspect(tree.rootNode, "x=1; ((x))", ledger) // true
 */
export const inspect = (root: Node, source: string, into: Ledger): boolean => {
  const numbers = counters(root, source)
  let ifs = 0
  const found = root.descendantsOfType(INSPECTED).some((node) => {
    switch (node.type) {
      case "arithmetic_expansion":
      case "compound_statement":
      case "c_style_for_statement":
        return arithmetic(node, source, numbers)
      case "subscript": {
        const index = node.childForFieldName("index")
        return index === null || !INDEX.test(text(index, source))
      }
      case "expansion":
        return expansion(node, source)
      case "array":
        // `a=([k]=v)`: the key is a subscript.
        return node.namedChildren.some((element) => text(element, source).startsWith("["))
      case "test_command":
        // `[` and `]` are the first and last children.
        return node.children[0]?.type === "[[" ? doubleBracket(node, source) : testArguments(testWords(node, source).slice(1, -1))
      case "declaration_command":
        return declaration(node, source)
      case "unset_command":
        return unset(node, source)
      case "heredoc_redirect":
        return heredoc(node, source, into)
      case "variable_assignment":
        if (harmlessIfs(node, source)) ifs++
        return false
      default:
        return false
    }
  })
  return found || Array.from(unquoted(source).matchAll(IFS)).length > ifs
}

/** One word of a `test`/`[` command: its value when static, and its source. */
export interface TestWord {
  readonly literal: string | undefined
  readonly source: string
}

const UNARY = /^-[abcdefghknoprstuwxzGLNOS]$/
const BINARY = ["=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef", "-a", "-o"]
/** One double-quoted string, or a special parameter that is always a number: a single field. */
const ONE_FIELD = /^"(?:[^"\\]|\\[\s\S])*"$|^\$[#?!$]$/

/**
 * Whether `test`/`[` arguments (without the closing `]`) may name a variable bash evaluates:
 * `-v`/`-R`, or an operator that could come from an expansion. Words that expand are allowed
 * only as single fields in the shapes whose parse bash fixes by argument count (POSIX rules):
 * `[ X ]`, `[ -f X ]`, `[ ! X ]`, `[ X = Y ]`, `[ ! -f X ]`, `[ ! X = Y ]`.
 */
export const testArguments = (words: ReadonlyArray<TestWord>): boolean => {
  if (words.some((word) => word.literal !== undefined && NAME_TESTS.includes(word.literal))) return true
  if (words.every((word) => word.literal !== undefined)) return false
  if (words.some((word) => word.literal === undefined && !ONE_FIELD.test(word.source))) return true
  const is = (index: number, accept: (literal: string) => boolean) => {
    const literal = words[index]?.literal
    return literal !== undefined && accept(literal)
  }
  const unary = (index: number) => is(index, (literal) => UNARY.test(literal))
  const binary = (index: number) => is(index, (literal) => BINARY.includes(literal))
  const not = (index: number) => is(index, (literal) => literal === "!")
  switch (words.length) {
    case 1:
      return false
    case 2:
      return !(unary(0) || not(0))
    case 3:
      return !(binary(1) || (not(0) && unary(1)))
    case 4:
      return !(not(0) && binary(2))
    default:
      return true
  }
}
