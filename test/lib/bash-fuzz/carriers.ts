/**
 * The families of risky syntax, each a function that hides a payload in one carrier: backquotes
 * nested with `\``, `$( )` in quotes, control characters before `#`, backslash-newlines, comments
 * mid-word, heredocs, here-strings, fd redirects and `/dev/fd`, parameter and arithmetic
 * expansions, quote mixes, assignments and wrappers. Some carriers run the payload in bash and
 * some only look as if they might; the gate must surface it or go opaque when bash runs it.
 */
export * as BashFuzzCarriers from "./carriers.js"

import type { BashFuzzRandom } from "./random.js"

/** What a carrier builds from: the random source and the pieces of one line. */
export interface Build {
  readonly random: BashFuzzRandom.Random
  /** A payload without the characters in `forbid`. */
  readonly payload: (forbid?: string) => string
  readonly control: () => string
  readonly victim: () => string
  readonly allowed: () => string
  readonly head: () => string
}

export type Carrier = (build: Build) => string

/** Inside single quotes: no `'`. Inside double quotes or backquotes: none of `"`, `'`, `` ` ``, `$`, `\`. */
const SINGLE = "'"
const DOUBLE = "\"'`$\\"

const backslashes = (count: number) => "\\".repeat(count)

const backquote: Carrier = ({ random, payload, head }) => {
  const levels = 1 + random.int(3)
  const inner = Array.from({ length: levels }).reduce<string>((text) => {
    const escape = backslashes(random.pick([0, 1, 1, 2, 3, 4]))
    return random.pick([`echo ${escape}\`${text}${escape}\``, `echo "${escape}\`${text}${escape}\`"`, `${escape}\`${text}${escape}\``])
  }, payload(DOUBLE))
  return random.pick([`${head()}\`${inner}\``, `${head()}"\`${inner}\`"`, `${head()}'\`${inner}\`'`, `${head()}\\\`${inner}\\\``, `${head()}\`echo '\`${payload(DOUBLE)}\`'\``])
}

const dollar: Carrier = ({ random, payload, head }) => {
  const single = payload(SINGLE)
  const double = payload(DOUBLE)
  return head() + random.pick([
    `'$(${single})'`,
    `"\\$(${double})"`,
    `\\$(${double})`,
    `"$(echo '$(${single})')"`,
    `$'$(${single})'`,
    `$"\\$(${double})"`,
    `$"$(${double})"`,
    `'"$(${single})"'`,
    `"'$(${double})'"`,
    `$(echo '$(${single})')`,
    `"$(echo "\\$(${double})")"`,
    `'$('"${double}"')'`,
    `$'\\'$(${single})\\''`,
    `'\\'$(${single})'\\''`,
    `"$(echo \\"$(${double})\\")"`,
    `\\"$(${double})\\"`,
  ])
}

const control: Carrier = ({ random, payload, control: cc }) => {
  const char = cc()
  const hidden = payload()
  return random.pick([
    `echo a${char}#; ${hidden}`,
    `echo a ${char}#; ${hidden}`,
    `echo a${char}#\n${hidden}`,
    `echo a <${char}\n${hidden}`,
    `echo a${char}\\\n${hidden}`,
    `echo a >${char}#; ${hidden}`,
    `${char}echo a#; ${hidden}`,
    `echo a${char}&& ${hidden}`,
    `echo '${char}'#; ${hidden}`,
    `echo a\\${char}#; ${hidden}`,
    `echo ${char}#${char}; ${hidden}`,
    `echo a${char}#${char}\n${hidden}`,
    `echo a${char}; ${hidden}`,
    `echo a${char}${char}#; ${hidden}`,
    `echo a <${char}; ${hidden}`,
    `echo a 2>${char}\n${hidden}`,
    `echo a ${char}\n${hidden}`,
  ])
}

const newline: Carrier = ({ random, payload, head }) => {
  const sep = random.pick(["\n", "\n ", "; ", ";", "\r\n", "\\\r\n", "\n#\n", "\n\n"])
  const join = random.pick(["\\\n", "\\", "\\\\\n", "\\\n\n", "\\\n\\\n", "\n\\\n", "", "\\\r\n", " \\\n"])
  const quoted = random.chance(0.2)
  const body = (hidden: string) => `${head()}a${sep}${join}${hidden}`
  return random.pick([
    () => body(payload()),
    () => `(${body(payload())})`,
    () => `{ ${body(payload())}; }`,
    () => `${random.pick(["sh", "bash"])} -c '${body(payload(SINGLE))}'`,
    () => `echo $(${body(payload())})`,
    () => `echo "$(${body(payload(quoted ? DOUBLE : "\""))})"`,
    () => `echo "a${sep}${join}${payload(DOUBLE)}"`,
    () => `echo 'a'${join}${sep}${payload()}`,
    () => `${join}${payload()}`,
    () => `echo a #c${join}${payload()}`,
  ])()
}

const WORDS: ReadonlyArray<string> = ["a", "'a'", '"a"', "$(echo a)", "${x}", "a\\", "\\'", "$'a'", "`echo a`", "$((1))", "''", '""', "a\\ ", "${x:-a}", "$x", "a=b", "~+", "{a,b}", "$'\\''", "*", "$'a\\''"]
const TAILS: ReadonlyArray<string> = ["", "\\", "; ", "'", '"', "`", "$(", "x\\", "\\\\", "#", " "]
const COMMENT_SEPARATORS: ReadonlyArray<string> = ["; ", "\n", "\\\n", "\\\n\n", " && ", "\r\n", "\n\\\n", "\\\r\n"]

const comment: Carrier = ({ random, payload, head }) => {
  const tail = `#${random.pick(TAILS)}${random.pick(COMMENT_SEPARATORS)}${payload()}`
  return random.pick([`${head()}${random.pick(WORDS)}${tail}`, tail, `echo a ${tail}`, `echo a;${tail}`, `echo ${random.pick(WORDS)}${random.pick(WORDS)}${tail}`])
}

const DELIMITERS: ReadonlyArray<readonly [string, string]> = [
  ["EOF", "EOF"],
  ["'EOF'", "EOF"],
  ['"EOF"', "EOF"],
  ["\\EOF", "EOF"],
  ["E\\OF", "EOF"],
  ['E"O"F', "EOF"],
  ["'E'OF", "EOF"],
  ["$'EOF'", "EOF"],
  ["-EOF", "\tEOF"],
  ["-'EOF'", "\tEOF"],
  [" EOF", "EOF"],
  ["EOF;", "EOF;"],
  // bash ends the delimiter at a metacharacter, tree-sitter at a blank.
  ["EOF|", "EOF|"],
  ["EOF&", "EOF&"],
  ["EOF>", "EOF>"],
  ["'EOF';", "EOF"],
  ["E'O'F|", "EOF"],
  ["E\\\nOF", "EOF"],
]
const BODIES: ReadonlyArray<(hidden: string) => string> = [
  (p) => `$(${p})`,
  (p) => `\`${p}\``,
  (p) => `\\$(${p})`,
  (p) => ` $(${p})`,
  (p) => `\t$(${p})`,
  (p) => `\t\`${p}\``,
  (p) => ` \`${p}\``,
  (p) => `\${x:-$(${p})}`,
  (p) => `$((\`${p}\`))`,
  (p) => `EOF $(${p})`,
  (p) => `\\\n$(${p})`,
  (p) => `'$(${p})'`,
  (p) => `"$(${p})"`,
  (p) => `\${x:-'$(${p})'}`,
  (p) => `a\\\n\`${p}\``,
  () => "EOF\\",
  () => " EOF",
  () => "EOF ",
  () => "a",
]

/** Bodies with no payload: where the heredoc ends is the whole question. */
const PLAIN_BODIES: ReadonlyArray<string> = ["a", "$x", "${x}", "${x-''}", "'", '"', "`", "\\", "$'a'", "$(", "EOF ", " EOF", "\tEOF", "#"]

/** A heredoc with a plain body and the payload after its end: bash runs it when the reader misplaces the end. */
const plainHeredoc: Carrier = ({ random, payload }) => {
  const [delimiter, terminator] = random.pick(DELIMITERS)
  const command = random.pick(["cat", "grep a", "cat >/dev/null"])
  const text = [`${command} <<${delimiter}${random.pick(["", "", " $(echo)", " a", " #c"])}`, random.pick(PLAIN_BODIES), terminator, payload()].join("\n")
  return random.pick([text, `(${text}\n)`, `echo $(${text}\n)`, `echo "$(${text}\n)"`, `{ ${text}\n}`, `(${text})`])
}

const heredoc: Carrier = (build) => {
  const { random, payload } = build
  if (random.chance(0.5)) return plainHeredoc(build)
  const [delimiter, terminator] = random.pick(DELIMITERS)
  const command = random.pick(["cat", "grep a", "cat >/dev/null", "cat > d/out", "echo a"])
  const rest = random.pick(["", "; echo a", " | grep a", " && echo a", " #c", " $(echo a)", `; ${payload()}`, " <<X", ";echo a", "|grep a", "&&echo a", `;${payload()}`, `&${payload()}`, ">/dev/null", ")"])
  const body = Array.from({ length: 1 + random.int(2) }, () => random.pick(BODIES)(payload(DOUBLE)))
  const end = random.chance(0.7) ? terminator : random.pick(["EOF ", "\tEOF", " EOF", "EOF\r", "'EOF'", "E\\OF", "EOF\\", "X"])
  const after = random.pick([[payload()], ["EOF", payload()], ["echo done"], [payload(), "EOF"], ["X", payload()], []])
  const text = [`${command} <<${delimiter}${rest}`, ...body, end, ...after].join("\n")
  return random.pick([text, text, `echo "$(${text}\n)"`, `echo $(${text}\n)`, `(${text}\n)`])
}

const herestring: Carrier = ({ random, payload }) => {
  const single = payload(SINGLE)
  const double = payload(DOUBLE)
  const word = random.pick([`'$(${single})'`, `"\\$(${double})"`, `\\\`${double}\\\``, `$'$(${single})'`, `"$(echo '$(${single})')"`, `'a'#; ${payload()}`, `a\\\n${payload()}`, `$'a\\'; ${payload()}'`])
  return `${random.pick(["cat", "grep a", "cat >/dev/null"])} <<<${random.pick(["", " "])}${word}`
}

const fd: Carrier = ({ random, victim }) => {
  const file = victim()
  const number = random.pick(["3", "4", "0", "1", "5", "9"])
  const open = `${number}${random.pick(["<", "<", "<>"])}${file}`
  const device = number === "0" ? random.pick(["/dev/stdin", "/dev/fd/0"]) : number === "1" ? random.pick(["/dev/stdout", "/dev/fd/1"]) : `/dev/fd/${number}`
  const command = random.pick(["echo pwned", "printf x", "cat a.txt", "ls", "git status", "grep a a.txt"])
  return random.pick([
    `${command} ${open} >${device}`,
    `${command} >${device} ${open}`,
    `{ ${command} >${device}; } ${open}`,
    `( ${command} >${device} ) ${open}`,
    `${command} ${open} >>${device}`,
    `${command} ${open} 1>&${number}`,
    `${command} ${open} 2>${device} >&2`,
    `${command} ${open} | cat >${device}`,
    `while true; do ${command} >${device}; break; done ${open}`,
    `${command} 1<>${file}`,
    `${command} <>${file} >&0`,
    `${command} >&${file}`,
    `${command} &>${file}`,
    `${command} >|${file}`,
    `${command} 2>${file} >&2`,
    `${command} > ${file}`,
    `${command} &>>${file}`,
    `${command} ${open} >${device} 1>&${number}`,
    `echo $(${command} >${device}) ${open}`,
    `${command} <${file} >/dev/stdin`,
    `${command} 0<>${file} >/dev/stdin`,
    `cd link && ${command} > f`,
    `cd link; ${command} > ../victim`,
    `cd ~+/../outside && ${command} > victim`,
    `${command} > ~+/../outside/victim`,
    `${command} > ~/h`,
    `${command} > link/f`,
    `${command} > d/../link/f`,
  ])
}

const param: Carrier = ({ random, payload, head }) => {
  const single = payload(SINGLE)
  const double = payload(DOUBLE)
  return head() + random.pick([
    `\${x:-'$(${single})'}`,
    `"\${x:-'$(${single})'}"`,
    `\${x:-\\\`${double}\\\`}`,
    `"\${x#'$(${single})'}"`,
    `\${x%'$(${single})'}`,
    `"\${x:-"'$(${single})'"}"`,
    `\${x:-"\\$(${double})"}`,
    `"\${x:-\\$(${double})}"`,
    `\${x-'}'$(${single})'}'}`,
    `"\${x:+'$(${single})'}"`,
    `\${x:-a}#; ${payload()}`,
    `"\${x:-'}'"'$(${single})'`,
    `\${x:-'\\''}$(${double})`,
    `"\${x##'$(${single})'}"`,
    // Double-quoted, the word reads otherwise: single quotes are characters, inner double quotes
    // are dropped, `$'…'` is expanded again (the fuzzer's seed 2613767319).
    `"\${x-'$"(${double})'}"`,
    `"\${x:-"$""(${double})"}"`,
    `"\${x-$'\\x24(${double})'}"`,
    `\${x-"\${y:-'$"(${double})'}"}`,
    `"\${x:='$"(${double})'}"`,
    `<<EOF\n \${x-'$"(${double})'}\nEOF`,
  ])
}

const arithmetic: Carrier = ({ random, payload, head }) =>
  head() + random.pick([`$((1+2))#; ${payload()}`, `$(( \`${payload(DOUBLE)}\` ))`, `$(( '$(${payload(SINGLE)})' ))`, `$[1]#; ${payload()}`, `$[ \`${payload(DOUBLE)}\` ]`, `$((1))\\\n${payload()}`, `"$(( 1 ))"'$(${payload(SINGLE)})'`])

const QUOTES: ReadonlyArray<string> = ["'a\\'", "$'a\\''", '"a\\"', '$"a\\"', "'", '"', "$'", '$"', "'\\''", "$'\\''", '"\\""', "'a'\"b\"", "$'\\x27'", "\\'", '\\"', "$'\\\\'", "'\\\\'", "$'\\\\''", "\"'\"", "'\"'"]

const quote: Carrier = ({ random, payload }) => `echo ${random.pick(QUOTES)} ; ${payload()} ; echo ${random.pick(QUOTES)}`

const assignment: Carrier = ({ random, payload, allowed }) =>
  random.pick([`A=1 ${allowed()}`, `X=$(echo a) ${allowed()}`, `X='$(${payload(SINGLE)})' ${allowed()}`, `X=\\\`${payload(DOUBLE)}\\\` ${allowed()}`, `X=a\\\n${payload()}`, `X="a"#; ${payload()}`, `X=$'\\''$(${payload(DOUBLE)}) ${allowed()}`])

/** Payloads bash never runs, in clean syntax: what the gate allows here, bash must leave alone. */
const inert: Carrier = ({ random, payload, head }) => {
  const single = payload(SINGLE)
  const double = payload(DOUBLE)
  return random.pick([
    () => `${head()}'${single}'`,
    () => `${head()}'$(${single})'`,
    () => `${head()}'\`${single}\`'`,
    () => `printf '%s\\n' '$(${single})'`,
    () => `${head()}a # ${payload()}`,
    () => `${head()}a #$(${payload()})`,
    () => `cat <<'EOF'\n$(${double})\nEOF`,
    () => `cat <<"EOF"\n\`${double}\`\nEOF`,
    () => `cat <<\\EOF\n$(${double})\nEOF`,
    () => `grep a <<'EOF'\n${payload()}\nEOF`,
    () => `${head()}"\\$(${double})"`,
    () => `${head()}"\\\`${double}\\\`"`,
    () => `grep a <<<'$(${single})'`,
    () => `${head()}$'\\x60${single}\\x60'`,
    () => `${head()}a\\;${double}`,
    () => `${head()}a\\&${double}`,
    () => `${head()}a\\|${double}`,
    () => `${head()}"a;${double}"`,
    () => `${head()}'a;${single}'`,
    () => `${head()}a\\\n${double}`,
    () => `${head()}\\\`${double}\\\``,
    () => `${head()}$'a\\'$(${single})'`,
    () => `${head()}"'"'$(${single})'"'"`,
  ])()
}

const WRAPPERS: ReadonlyArray<string> = ["env ", "timeout 1 ", "nice ", "command ", "builtin ", "exec ", "xargs ", "env A=1 "]

const wrapper: Carrier = (build) => {
  const inner = build.random.pick(FAMILIES.filter(([name]) => name !== "wrapper"))[1](build)
  return build.random.pick([`${build.random.pick(WRAPPERS)}${inner}`, `${build.random.pick(["sh", "bash"])} -c '${inner.replaceAll("'", "'\\''")}'`, `bash -c "${inner.replace(/[\\"$`]/g, (char) => `\\${char}`)}"`])
}

/** Every family, by name, for the per-family statistics. */
export const FAMILIES: ReadonlyArray<readonly [string, Carrier]> = [
  ["inert", inert],
  ["backquote", backquote],
  ["dollar", dollar],
  ["control", control],
  ["newline", newline],
  ["comment", comment],
  ["heredoc", heredoc],
  ["herestring", herestring],
  ["fd", fd],
  ["param", param],
  ["arithmetic", arithmetic],
  ["quote", quote],
  ["assignment", assignment],
  ["wrapper", wrapper],
]

/** How often each family is drawn: the ones that come out allowed more often get more. */
export const WEIGHTS: Readonly<Record<string, number>> = {
  inert: 7,
  backquote: 4,
  dollar: 4,
  control: 2,
  newline: 2,
  comment: 3,
  heredoc: 3,
  herestring: 2,
  fd: 3,
  param: 1,
  arithmetic: 1,
  quote: 2,
  assignment: 1,
  wrapper: 1,
}

/** A family drawn by WEIGHTS. */
export const draw = (random: BashFuzzRandom.Random): readonly [string, Carrier] => {
  const total = FAMILIES.reduce((sum, [name]) => sum + (WEIGHTS[name] ?? 1), 0)
  const target = random.next() * total
  const found = FAMILIES.reduce<{ readonly at: number; readonly chosen: readonly [string, Carrier] | undefined }>(
    (state, family) => {
      if (state.chosen !== undefined) return state
      const at = state.at + (WEIGHTS[family[0]] ?? 1)
      return at > target ? { at, chosen: family } : { at, chosen: undefined }
    },
    { at: 0, chosen: undefined },
  )
  return found.chosen ?? (FAMILIES[FAMILIES.length - 1] as readonly [string, Carrier])
}
