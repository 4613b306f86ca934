/**
 * pip's other names (07): pip installs itself as `pip`, `pip3` and `pip3.11` (one program), and
 * `python -m pip` runs the same module. A rule compares spellings, so a `pip install *` rule must
 * see `pip3 install x` and `python3 -m pip install x`: each is also `pip …`. python's own options
 * before `-m` are read as python reads them: letters cluster (`-Im pip`), `-m` and `-W`/`-X` take
 * the rest of the word or the next one (`-mpip`, `-W ignore`), and `-c` or a script ends it.
 */
export * as BashSynonymsPip from "./synonyms-pip.js"

/** pip's versioned names (`pip3`, `pip3.11`); `pip` itself is the spelling the others become. */
export const PIP = /^pip\d+(?:\.\d+)*$/
/** python's names (`python`, `python3`, `python3.11`). */
export const PYTHON = /^python(?:\d+(?:\.\d+)*)?$/
/** python's one-letter options that take a value. */
export const VALUED = "WX"
/** python's long options that take the next word. */
export const LONG_VALUED = ["--check-hash-based-pycs"]

/** The index of the first word after `python … -m pip`, or undefined when the command is not one. */
const afterModule = (words: ReadonlyArray<string>): number | undefined => {
  for (let at = 1; at < words.length; at++) {
    const word = words[at] as string
    if (!word.startsWith("-") || word === "-" || word === "--") return undefined
    if (word.startsWith("--")) {
      if (LONG_VALUED.includes(word)) at++
      continue
    }
    for (let letter = 1; letter < word.length; letter++) {
      const option = word[letter] as string
      if (option === "c") return undefined
      const attached = word.slice(letter + 1)
      if (option === "m") return (attached === "" ? words[at + 1] : attached) === "pip" ? at + (attached === "" ? 2 : 1) : undefined
      if (VALUED.includes(option)) {
        if (attached === "") at++
        break
      }
    }
  }
  return undefined
}

/**
 * `words` (base name first) spelled with `pip`, when they run pip under another name; none otherwise.
 * @example BashSynonymsPip.synonyms(["python3", "-m", "pip", "install", "x"]) // [["pip", "install", "x"]]
 * @example BashSynonymsPip.synonyms(["pip3.11", "install", "x"]) // [["pip", "install", "x"]]
 */
export const synonyms = (words: ReadonlyArray<string>): ReadonlyArray<ReadonlyArray<string>> => {
  const name = words[0] ?? ""
  if (PIP.test(name)) return [["pip", ...words.slice(1)]]
  const at = PYTHON.test(name) ? afterModule(words) : undefined
  return at === undefined ? [] : [["pip", ...words.slice(at)]]
}
