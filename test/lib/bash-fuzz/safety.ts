/**
 * What may run as root on this machine: a line is run only when every `/` in it belongs to a path
 * atom of BashFuzzAtoms (so no absolute path but `<root>/outside/…` and the `/dev` names, and no
 * `..` but `../outside`), it builds no slash or dot from an escape (`$'\x2f'`, `\057`), names no
 * variable that holds a system path (`$_`, `$0`, `$BASH`), no `~user`, and no builtin that reaches
 * past the shell (`kill`, `enable`, …). Shrinking deletes characters, so a candidate must also be
 * made only of words that are pieces of its original's words: it cannot spell a new command.
 */
export * as BashFuzzSafety from "./safety.js"

const NAME = "[A-Za-z0-9_]+"
const BEFORE = "(?<![A-Za-z0-9_./~}$+-])"
const AFTER = "(?![A-Za-z0-9_./-])"

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** The path atoms of a tree rooted at `root`, as one global regex. */
export const atoms = (root: string): RegExp =>
  new RegExp(
    [
      `\\.\\./outside(?:/${NAME})?`,
      `${escapeRegex(root)}/outside(?:/${NAME})?`,
      `link(?:/\\.\\.)?/${NAME}`,
      `\\.\\./victim`,
      `d/\\.\\./link/${NAME}`,
      `d/${NAME}`,
      `~\\+/\\.\\./outside(?:/${NAME})?`,
      `~/${NAME}`,
      `/dev/(?:null|stdin|stdout|stderr|fd/[0-9])`,
    ]
      .map((pattern) => `${BEFORE}${pattern}${AFTER}`)
      .join("|"),
    "g",
  )

/** The [start, end) spans of the path atoms in `line`. */
export const atomSpans = (line: string, root: string): ReadonlyArray<readonly [number, number]> =>
  Array.from(line.matchAll(atoms(root)), (match) => [match.index, match.index + match[0].length] as const)

const FORBIDDEN: ReadonlyArray<RegExp> = [
  /\//,
  /\.\./,
  /\\x0*2(?![0-9a-dA-D])/,
  /\\0*5(?![0-5])/,
  /\\[uU]/,
  /\$\{?[_0!@*]/,
  /\$\{?BASH/,
  /~[A-Za-z_]/,
  /(?<![A-Za-z0-9_])(?:kill|enable|ulimit|umask|reboot|shutdown|halt|poweroff|mount|umount|disown|suspend|logout)(?![A-Za-z0-9_])/,
  /\u0000/,
]

const WORD = /[A-Za-z_]+/g

/** Whether `line` may run; with `original`, also whether every word of `line` is part of one of its words. */
export const safe = (line: string, root: string, original?: string): boolean => {
  const rest = line.replace(atoms(root), "_")
  if (FORBIDDEN.some((pattern) => pattern.test(rest))) return false
  if (original === undefined) return true
  const words = Array.from(original.replace(atoms(root), " ").matchAll(WORD), (match) => match[0])
  return Array.from(rest.matchAll(WORD), (match) => match[0]).every((word) => word === "_" || words.some((known) => known.includes(word)))
}
