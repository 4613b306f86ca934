/**
 * The CLI's help, made from the command specs (cli/spec.ts) only: the overview of `toolgate` and
 * `toolgate help`, each command's page, and "did you mean" for a mistyped command, flag or name
 * (the nearest by edit distance, when it is near enough to be a typo). Nothing here loads a
 * library, so help costs what starting Node costs.
 */
export * as Help from "./help.js"

import { fileURLToPath } from "node:url"
import type { Spec } from "./spec.js"
import { Spec as SpecModule } from "./spec.js"

/** Where the documentation is: the `docs/` folder shipped beside `dist/`. */
export const DOCS = fileURLToPath(new URL("../../docs/cli.md", import.meta.url))

/** A suggestion is made only within this many edits, and within a third of the word's length. */
export const MAX_DISTANCE = 3

export const Messages = {
  title: "toolgate: the tool and permission runtime of an AI coding agent",
  overviewUsage: "Usage: toolgate <command> [flags]",
  commands: "Commands:",
  help: "Show the help of toolgate or of one command",
  more: 'Run "toolgate help <command>" or "toolgate <command> --help" for its flags, examples and exit codes.',
  globalFlags: "  -h, --help     Show help\n  -v, --version  Show toolgate's version",
  docs: (path: string) => `Docs: ${path}`,
  usage: "Usage:",
  flags: "Flags:",
  examples: "Examples:",
  exitCodes: "Exit codes:",
  didYouMean: (name: string) => `Did you mean ${name}?`,
} as const

/** The overview: every command with its one line. */
export const overview = (specs: ReadonlyArray<Spec.Spec>): string => {
  const width = Math.max(...specs.map((spec) => spec.name.length)) + 2
  return [
    Messages.title,
    "",
    Messages.overviewUsage,
    "",
    Messages.commands,
    ...specs.map((spec) => `  ${spec.name.padEnd(width)}${spec.summary}`),
    `  ${"help".padEnd(width)}${Messages.help}`,
    "",
    "Flags:",
    Messages.globalFlags,
    "",
    Messages.more,
    Messages.docs(DOCS),
  ].join("\n")
}

const flagLabel = (name: string, flag: Spec.Flag) =>
  `${flag.short === undefined ? "    " : `-${flag.short}, `}--${name}${flag.value === undefined ? "" : ` <${flag.value}>`}`

/** One command's page: usage, what it does, every flag with its default, examples, exit codes. */
export const command = (spec: Spec.Spec): string => {
  const flags = [...Object.entries(spec.flags), ["help", SpecModule.HELP_FLAG] as const]
  const labels = flags.map(([name, flag]) => flagLabel(name, flag))
  const width = Math.max(...labels.map((label) => label.length)) + 2
  return [
    spec.summary,
    "",
    Messages.usage,
    ...spec.usage.map((line) => `  ${line}`),
    "",
    ...spec.description,
    "",
    Messages.flags,
    ...flags.map(([, flag], index) => `  ${(labels[index] as string).padEnd(width)}${flag.description}${flag.default === undefined ? "" : ` (default: ${flag.default})`}`),
    "",
    Messages.examples,
    ...spec.examples.flatMap((example) => [`  # ${example.description}`, `  ${example.command}`]),
    "",
    Messages.exitCodes,
    ...spec.exitCodes.map(([code, meaning]) => `  ${String(code).padEnd(4)}${meaning}`),
  ].join("\n")
}

/** Levenshtein distance, case-insensitive. */
export const distance = (a: string, b: string): number => {
  const left = a.toLowerCase()
  const right = b.toLowerCase()
  const row = Array.from({ length: right.length + 1 }, (_, index) => index)
  for (let i = 1; i <= left.length; i++) {
    let diagonal = row[0] as number
    row[0] = i
    for (let j = 1; j <= right.length; j++) {
      const above = row[j] as number
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + (left[i - 1] === right[j - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return row[right.length] as number
}

/** The candidate nearest to `word`, when it is close enough to be what was meant. */
export const nearest = (word: string, candidates: ReadonlyArray<string>): string | undefined => {
  const limit = Math.min(MAX_DISTANCE, Math.max(1, Math.ceil(word.length / 3)))
  const scored = candidates.map((candidate) => ({ candidate, score: distance(word, candidate) })).filter(({ score }) => score <= limit)
  const best = scored.sort((a, b) => a.score - b.score)[0]
  return best?.candidate
}

/** ` Did you mean <x>?` after a message, or nothing. */
export const suggestion = (word: string, candidates: ReadonlyArray<string>, show: (name: string) => string = (name) => name): string => {
  const found = nearest(word, candidates)
  return found === undefined ? "" : ` ${Messages.didYouMean(show(found))}`
}
