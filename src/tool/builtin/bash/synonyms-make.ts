/**
 * make's goals (07): make runs every goal its words name, wherever they stand among its options
 * and variable assignments (`make VAR=1 install`, `make all install`, `make install -j4` all run
 * `install`). A rule compares spellings, so a `make install *` rule must see each goal: the command
 * is also `make <goal> <its other words>` for every goal after the first word. A word with `=` is
 * an assignment, not a goal; the value of an option that takes one is not a goal (`-C dir`,
 * `--file=f`; `-j`/`-l` take the next word only when it is a number); after `--` every word is a goal
 * or an assignment. More than MAX_GOALS goals make the command opaque.
 */
export * as BashSynonymsMake from "./synonyms-make.js"

/** make's one-letter options that take a value (attached, or the next word). */
export const VALUED = "CfIoWE"
/** Its one-letter options whose value is optional: attached, or the next word when it is a number. */
export const OPTIONAL = "jl"
/** Its long options that take the next word when written without `=`. */
export const LONG_VALUED = ["--directory", "--file", "--makefile", "--include-dir", "--old-file", "--assume-old", "--what-if", "--new-file", "--assume-new", "--eval"]
/** Its long options whose value is optional (a number as the next word). */
export const LONG_OPTIONAL = ["--jobs", "--load-average", "--max-load"]

/** Goals past which a command is not spelled out goal by goal: it is opaque. */
export const MAX_GOALS = 16

const NUMBER = /^\d+(?:\.\d+)?$/

/** The indexes of the goals in `words` (the name first). */
export const goals = (words: ReadonlyArray<string>): ReadonlyArray<number> => {
  const found: number[] = []
  let options = true
  for (let at = 1; at < words.length; at++) {
    const word = words[at] as string
    const next = words[at + 1]
    if (options && word === "--") options = false
    else if (options && word.startsWith("--")) {
      if (LONG_VALUED.includes(word) || (LONG_OPTIONAL.includes(word) && next !== undefined && NUMBER.test(next))) at++
    } else if (options && word.startsWith("-") && word !== "-") {
      for (let letter = 1; letter < word.length; letter++) {
        const option = word[letter] as string
        const attached = word.slice(letter + 1)
        if (VALUED.includes(option) || OPTIONAL.includes(option)) {
          if (attached === "" && (VALUED.includes(option) || (next !== undefined && NUMBER.test(next)))) at++
          break
        }
      }
    } else if (!word.includes("=")) found.push(at)
  }
  return found
}

/**
 * The make command `words` (base name first) spelled with each goal but the first word first; none
 * for another program or when the first word is the only goal; undefined past MAX_GOALS goals.
 * @example BashSynonymsMake.synonyms(["make", "VAR=1", "install"]) // [["make", "install", "VAR=1"]]
 */
export const synonyms = (words: ReadonlyArray<string>): ReadonlyArray<ReadonlyArray<string>> | undefined => {
  if (words[0] !== "make") return []
  const found = goals(words)
  if (found.length > MAX_GOALS) return undefined
  return found
    .filter((at) => at !== 1)
    .map((at) => ["make", words[at] as string, ...words.slice(1, at), ...words.slice(at + 1)])
}
