/**
 * The operation behind a command's leading options (07): `git -C . push origin` runs `git push`,
 * yet its arity window (`git -C`) hides the sub-command from a `git push *` rule. For a command of
 * arity 2 or more, every option word inside its arity window is dropped, in every plausible
 * reading of those options, and what is left is one more form to judge (`git push origin`). An
 * option in the small table below takes the next word as its argument or not as listed (unless
 * written `--opt=value`); an unknown option is read both ways. Gotcha: these forms only add
 * resources (strictest wins), so they never save: an "always" covers nothing broader than before.
 */
export * as BashParseOperation from "./parse-operation.js"

import { BashArity } from "./arity.js"

/** Extra forms of one reading past which the rest are dropped (a longer list only adds noise). */
export const MAX_FORMS = 32
/** Option readings walked per reading before the walk stops. */
export const MAX_STEPS = 256

interface Spec {
  /** Options that take the next word as their argument (`-C dir`, `--git-dir dir`). */
  readonly args: ReadonlyArray<string>
  /** Options that take none. */
  readonly flags?: ReadonlyArray<string>
  /** A `+word` is an option with no argument (`cargo +nightly`). */
  readonly plus?: boolean
  /**
   * Options that change nothing of what the operation runs or where it writes, so a rule for the
   * operation may judge the command without them (`git --no-pager status` is `git status`).
   */
  readonly harmless?: ReadonlyArray<string>
  /** Options whose argument is the directory the operation works in (`git -C dir`): directory targets. */
  readonly directories?: ReadonlyArray<string>
}

const JS: Spec = { args: ["--prefix", "-C", "--workspace", "-w", "--dir", "--cwd"], harmless: ["--workspace", "-w"], directories: ["--prefix", "-C", "--dir", "--cwd"] }

/** Global options by command (the base name, or its first words once a sub-command is read). */
export const OPTIONS: Readonly<Record<string, Spec>> = {
  git: {
    args: ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix", "--attr-source", "--list-cmds"],
    flags: ["-p", "--paginate", "-P", "--no-pager", "--bare", "--no-replace-objects", "--no-lazy-fetch", "--no-optional-locks", "--no-advice"],
    harmless: ["-p", "--paginate", "-P", "--no-pager", "--no-replace-objects", "--no-lazy-fetch", "--no-optional-locks", "--no-advice", "--namespace"],
    directories: ["-C", "--git-dir", "--work-tree"],
  },
  docker: {
    args: ["--context", "-H", "--host", "--config", "-c", "-l", "--log-level"],
    flags: ["-D", "--debug", "--tls", "--tlsverify"],
    harmless: ["--context", "-c", "-H", "--host", "-l", "--log-level", "-D", "--debug"],
  },
  kubectl: { args: ["-n", "--namespace", "--context", "--cluster", "--user", "-s", "--server", "--kubeconfig"], harmless: ["-n", "--namespace", "--context", "--cluster", "--user"] },
  npm: JS,
  pnpm: JS,
  yarn: JS,
  gh: { args: ["-R", "--repo"], harmless: ["-R", "--repo"] },
  cargo: { args: [], plus: true },
}
const specs = new Map(Object.entries(OPTIONS))
const NONE: Spec = { args: [] }

const basename = (word: string) => word.slice(word.lastIndexOf("/") + 1)

/** How an option word moves the reading: the word offsets the next word can be at. */
const steps = (spec: Spec, word: string): ReadonlyArray<number> => {
  if (word === "--" || word.includes("=") || (spec.plus === true && word.startsWith("+"))) return [1]
  if (spec.args.includes(word)) return [2]
  if (spec.flags?.includes(word) === true) return [1]
  return [1, 2]
}

const isOption = (spec: Spec, word: string) => (word.startsWith("-") && word.length > 1) || (spec.plus === true && /^\+./.test(word))

/**
 * The forms of a command with the options inside its arity window dropped, in every reading:
 * each is the kept words (name and sub-commands) then the rest of the command from the last one.
 * `words` are the words as read (a word's value, else its source), `rendered` as written in forms,
 * `fixed(i)` whether word i has one value whatever the environment.
 * Only forms that dropped an option and kept a sub-command; none for a command of arity 1.
 * Undefined when the command cannot be judged this way: a word the walk read (a sub-command, an
 * option or its argument) expands, so it may split or name another sub-command (`git -C . $X`,
 * `git -C $D status`), or the readings pass MAX_FORMS / MAX_STEPS. The caller makes it opaque.
 * @example BashParseOperation.forms(["git", "-C", ".", "push"], ["git", "-C", ".", "push"], () => true) // [["git", "push"]]
 */
export const forms = (words: ReadonlyArray<string>, rendered: ReadonlyArray<string>, fixed: (index: number) => boolean): ReadonlyArray<ReadonlyArray<string>> | undefined => {
  const name = words[0]
  if (name === undefined || BashArity.arity([name]) < 2) return []
  const found = new Map<string, ReadonlyArray<string>>()
  const seen = new Set<string>()
  const state = { budget: MAX_STEPS, unjudged: false }
  /** `kept`: indexes of the name and the sub-commands read so far; `at`: the next word. */
  const visit = (kept: ReadonlyArray<number>, at: number) => {
    const key = `${kept.join(",")}|${at}`
    if (seen.has(key)) return
    if (--state.budget < 0 || found.size >= MAX_FORMS) return void (state.unjudged = true)
    seen.add(key)
    const head = kept.map((index) => rendered[index] as string)
    const complete = BashArity.arity([...kept.map((index) => words[index] as string), ...words.slice(at, at + BashArity.MAX_KEY_WORDS)]) <= kept.length
    const word = words[at]
    if (complete || word === undefined) {
      // Every word before `at` is kept or dropped: a word was dropped when fewer were kept.
      if (kept.length >= 2 && at > kept.length) {
        if (Array.from({ length: at - 1 }, (_, offset) => offset + 1).some((index) => !fixed(index))) state.unjudged = true
        const form = [...head, ...rendered.slice(at)]
        found.set(form.join(" "), form)
      }
      return
    }
    const spec = specs.get([basename(name), ...kept.slice(1).map((index) => words[index] as string)].join(" ")) ?? NONE
    if (isOption(spec, word)) return steps(spec, word).forEach((step) => visit(kept, at + step))
    visit([...kept, at], at + 1)
  }
  visit([0], 1)
  return state.unjudged ? undefined : Array.from(found.values())
}

/** A command read without its harmless leading options: the words from its operation on, and the directories it works in. */
export interface Plain {
  /** Index of the first word of the operation (`status` in `git -C src status`). */
  readonly at: number
  readonly directories: ReadonlyArray<string>
}

/**
 * The command without its leading options, when every one of them is harmless or names the
 * directory it works in, and each is static; undefined otherwise (then the command is judged
 * with them, as written). A `+toolchain` of cargo is harmless.
 * @example BashParseOperation.plain(["git", "-C", "src", "status"], () => true) // { at: 3, directories: ["src"] }
 */
export const plain = (words: ReadonlyArray<string>, fixed: (index: number) => boolean): Plain | undefined => {
  const name = words[0]
  const spec = name === undefined ? undefined : specs.get(basename(name))
  if (spec === undefined) return undefined
  const directories: string[] = []
  let at = 1
  for (; at < words.length; at++) {
    const word = words[at] as string
    if (!isOption(spec, word)) break
    if (!fixed(at)) return undefined
    if (spec.plus === true && word.startsWith("+")) continue
    const equals = word.indexOf("=")
    const option = word.startsWith("--") && equals !== -1 ? word.slice(0, equals) : word
    const inline = option !== word
    const takes = spec.args.includes(option)
    if (takes && !inline && !fixed(at + 1)) return undefined
    const value = inline ? word.slice(equals + 1) : takes ? words[at + 1] : undefined
    if (spec.directories?.includes(option) === true && value !== undefined) directories.push(value)
    else if (spec.harmless?.includes(option) !== true) return undefined
    if (takes && !inline) at++
  }
  return at > 1 && at < words.length ? { at, directories } : undefined
}
