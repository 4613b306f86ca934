/**
 * The fuzzer loop: the seed corpus, then generated lines (BashFuzzGrammar, one seed per line)
 * until the time budget or the line count runs out, whichever first. Each failing line is shrunk
 * (BashFuzzShrink) within its own budget; findings are kept once per shortest form, and at most
 * MAX_SHRINKS_PER_KEY are shrunk per family and kind of reason (`ran`, `tried`, `changed`…): the
 * rest are only counted, since shrinking costs a bash run per attempt. Lines show the sandbox root
 * as `<root>`.
 */
export * as BashFuzz from "./fuzz.js"

import type { BashFuzzCheck } from "./check.js"
import { BashFuzzCorpus } from "./corpus.js"
import { BashFuzzGrammar } from "./grammar.js"
import { BashFuzzJudge } from "./judge.js"
import { BashFuzzSandbox } from "./sandbox.js"
import { BashFuzzShrink } from "./shrink.js"

/** Defaults: the time one shrink may take, and how many failing lines per family and kind of reason are shrunk. */
export const SHRINK_MS = 4_000
export const MAX_SHRINKS_PER_KEY = 6
export const MAX_KEPT = 10

export interface Options {
  readonly seed: number
  readonly budgetMs: number
  readonly maxLines: number
  readonly corpus?: ReadonlyArray<BashFuzzCorpus.Seed>
  readonly shrinkMs?: number
  readonly maxShrinksPerKey?: number
  readonly onFinding?: (finding: Finding) => void
}

export interface Finding {
  /** The shortest failing form, root shown as `<root>`. */
  readonly line: string
  readonly original: string
  readonly family: string
  readonly reasons: ReadonlyArray<string>
  /** `corpus`, or the run seed and line index that replay it (`BashFuzzGrammar.lineSeed`). */
  readonly source: "corpus" | { readonly seed: number; readonly index: number }
  /** What the DEBUG trap saw when the shortest form ran. */
  readonly trap: ReadonlyArray<string>
  /** Later failing lines of the same family and kind of reason, not shrunk or shrunk to a form already found. */
  more: number
}

export interface FamilyStats {
  lines: number
  allowed: number
  failed: number
}

export interface Stats {
  lines: number
  corpus: number
  generated: number
  allowed: number
  executed: number
  passed: number
  failed: number
  unsafe: number
  timedOut: number
  elapsedMs: number
  readonly families: Record<string, FamilyStats>
  readonly findings: Array<Finding>
  /** First words of commands the DEBUG trap saw in no resource and judged by none, with one line each (report only). */
  readonly soft: Map<string, string>
  /** The first MAX_KEPT lines that ran out of time (report only: a timeout is no failure). */
  readonly timeouts: Array<string>
}

/** A line with the sandbox root replaced by `<root>`. */
export const display = (sandbox: BashFuzzSandbox.Sandbox, line: string): string => line.replaceAll(sandbox.root, "<root>")

/** Commands the DEBUG trap saw that are in no resource and whose first word is not judged (report only). */
const softOf = (verdict: BashFuzzCheck.Verdict): ReadonlyArray<string> => {
  const resources = verdict.decision.parsed.resources.map((resource) => resource.text)
  return (verdict.result?.trap ?? [])
    .filter((command) => !BashFuzzSandbox.OWN_COMMANDS.includes(command) && !resources.some((text) => text.includes(command.trim())))
    .map((command) => BashFuzzJudge.firstWord(command))
    .filter((word) => word !== "" && !verdict.decision.judged.has(word))
}

/**
 * Runs the corpus and generated lines through `checker`.
 * @example (await run(checker, { seed: 1, budgetMs: 10_000, maxLines: 500 })).findings
 */
export const run = async (checker: BashFuzzCheck.Checker, options: Options): Promise<Stats> => {
  const started = Date.now()
  const stats: Stats = { lines: 0, corpus: 0, generated: 0, allowed: 0, executed: 0, passed: 0, failed: 0, unsafe: 0, timedOut: 0, elapsedMs: 0, families: {}, findings: [], soft: new Map(), timeouts: [] }
  const byKey = new Map<string, Array<Finding>>()
  const seen = new Set<string>()
  const family = (name: string) => (stats.families[name] ??= { lines: 0, allowed: 0, failed: 0 })
  const one = async (line: string, name: string, pieces: ReadonlyArray<string>, source: Finding["source"]) => {
    stats.lines++
    family(name).lines++
    const verdict = await checker.check(line)
    if (verdict.status === "asked") return
    stats.allowed++
    family(name).allowed++
    if (verdict.status === "unsafe") return void stats.unsafe++
    stats.executed++
    if (verdict.result?.timedOut === true && ++stats.timedOut <= MAX_KEPT) stats.timeouts.push(display(checker.sandbox, line))
    softOf(verdict).forEach((word) => stats.soft.has(word) || stats.soft.set(word, display(checker.sandbox, line)))
    if (verdict.status === "passed") return void stats.passed++
    stats.failed++
    family(name).failed++
    const key = `${name} ${(verdict.reasons[0] ?? "").split(" ")[0]}`
    const same = byKey.get(key) ?? []
    byKey.set(key, same)
    const last = same[same.length - 1]
    if (source !== "corpus" && last !== undefined && same.length >= (options.maxShrinksPerKey ?? MAX_SHRINKS_PER_KEY)) return void last.more++
    const shortest = await BashFuzzShrink.shrink(checker, verdict, pieces, { attempts: BashFuzzShrink.DEFAULT_ATTEMPTS, deadline: Date.now() + (options.shrinkMs ?? SHRINK_MS) })
    const shown = display(checker.sandbox, shortest)
    if (seen.has(shown)) return void (last === undefined ? undefined : last.more++)
    seen.add(shown)
    const final = await checker.check(shortest, line)
    const finding: Finding = { line: shown, original: display(checker.sandbox, line), family: name, reasons: final.reasons.length > 0 ? final.reasons : verdict.reasons, source, trap: final.result?.trap ?? [], more: 0 }
    same.push(finding)
    stats.findings.push(finding)
    options.onFinding?.(finding)
  }
  const overBudget = () => Date.now() - started >= options.budgetMs
  for (const seed of options.corpus ?? BashFuzzCorpus.ALL) {
    if (overBudget()) break
    stats.corpus++
    await one(seed.line, seed.family, [], "corpus")
  }
  for (let index = 0; index < options.maxLines && !overBudget(); index++) {
    const line = BashFuzzGrammar.generate(BashFuzzGrammar.lineSeed(options.seed, index), index, checker.sandbox.root)
    stats.generated++
    await one(line.text, line.family, line.pieces, { seed: options.seed, index })
  }
  stats.elapsedMs = Date.now() - started
  return stats
}
