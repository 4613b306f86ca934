/**
 * bash-fuzz: the differential fuzzer (test/lib/bash-fuzz) for as long as asked, with a new seed
 * each run unless one is given: `npm run bench -- bash-fuzz [--minutes N] [--seed S] [--line I]`
 * (`--line` replays one generated line of the seed and shows what the gate and bash made of it).
 * Prints each finding as it is found (shortest line, JSON), then lines/s, the allowed share, the
 * families, and the baseline: the gate's parse alone against `bash -n` on the same lines.
 */
import { spawnSync } from "node:child_process"
import { parseArgs } from "node:util"
import { BashParse } from "../src/tool/builtin/bash/parse.js"
import { BashFuzzCheck } from "../test/lib/bash-fuzz/check.js"
import { BashFuzz } from "../test/lib/bash-fuzz/fuzz.js"
import { BashFuzzGrammar } from "../test/lib/bash-fuzz/grammar.js"
import { BashFuzzRandom } from "../test/lib/bash-fuzz/random.js"

const DEFAULT_MINUTES = 1
/** Lines in the baseline: parsed by the gate (best of ROUNDS) and syntax-checked by `bash -n`. */
const BASELINE_LINES = 2_000
const BASH_N_LINES = 300
const ROUNDS = 3
/** DEBUG-trap commands shown per finding. */
const MAX_TRAP = 6

const { values } = parseArgs({ options: { minutes: { type: "string" }, seed: { type: "string" }, line: { type: "string" } } })
const minutes = Number(values.minutes ?? DEFAULT_MINUTES)
const seed = values.seed === undefined ? BashFuzzRandom.freshSeed() : Number(values.seed) >>> 0
const parser = await BashParse.load()
const checker = BashFuzzCheck.make(parser)

const replay = async (index: number) => {
  const line = BashFuzzGrammar.generate(BashFuzzGrammar.lineSeed(seed, index), index, checker.sandbox.root)
  const verdict = await checker.check(line.text)
  console.log(JSON.stringify({ family: line.family, line: BashFuzz.display(checker.sandbox, line.text), status: verdict.status, reasons: verdict.reasons, parsed: verdict.decision.parsed, external: verdict.decision.external, result: verdict.result }, null, 2))
}

const baseline = (lines: ReadonlyArray<string>) => {
  const options = { home: checker.sandbox.home }
  const round = () => {
    const start = process.hrtime.bigint()
    for (const line of lines) parser.parse(line, options)
    return Number(process.hrtime.bigint() - start) / 1e6
  }
  round()
  const parseMs = Math.min(...Array.from({ length: ROUNDS }, round))
  const sample = lines.slice(0, BASH_N_LINES)
  const start = process.hrtime.bigint()
  for (const line of sample) spawnSync(checker.sandbox.bash, ["-n", "-c", line], { stdio: "ignore", env: checker.sandbox.env })
  const bashMs = Number(process.hrtime.bigint() - start) / 1e6
  const parseRate = (lines.length * 1_000) / parseMs
  const bashRate = (sample.length * 1_000) / bashMs
  console.log(`baseline: gate parse ${Math.round(parseRate).toLocaleString("en")} lines/s (${lines.length} lines, best of ${ROUNDS}) vs bash -n ${Math.round(bashRate).toLocaleString("en")} lines/s (${sample.length} lines, one process each) → ${(parseRate / bashRate).toFixed(1)}× faster`)
}

const main = async () => {
  if (values.line !== undefined) return replay(Number(values.line))
  console.log(`bash-fuzz: seed ${seed}, ${minutes} min (replay: npm run bench -- bash-fuzz --seed ${seed} --minutes ${minutes})`)
  const stats = await BashFuzz.run(checker, {
    seed,
    budgetMs: minutes * 60_000,
    maxLines: Number.POSITIVE_INFINITY,
    onFinding: (finding) => console.log(`finding (${finding.family}, ${finding.reasons.join(", ")}): ${JSON.stringify(finding.line)} from ${JSON.stringify(finding.source)}`),
  })
  const seconds = stats.elapsedMs / 1_000
  console.log(
    `bash-fuzz: ${stats.lines.toLocaleString("en")} lines in ${seconds.toFixed(0)} s → ${(stats.lines / seconds).toFixed(1)} lines/s; ` +
      `${stats.allowed} allowed (${((100 * stats.allowed) / Math.max(1, stats.lines)).toFixed(1)}%), ${stats.executed} executed (${(stats.executed / seconds).toFixed(1)}/s), ` +
      `${stats.failed} failed, ${stats.timedOut} timed out, ${stats.unsafe} refused as unsafe`,
  )
  for (const [name, family] of Object.entries(stats.families).sort(([a], [b]) => a.localeCompare(b)))
    console.log(`  ${name.padEnd(11)} ${String(family.lines).padStart(6)} lines ${String(family.allowed).padStart(6)} allowed (${((100 * family.allowed) / Math.max(1, family.lines)).toFixed(0).padStart(3)}%) ${String(family.failed).padStart(5)} failed`)
  console.log(`findings (${stats.findings.length} distinct shortest lines):`)
  for (const finding of stats.findings)
    console.log(`  ${finding.family.padEnd(11)} ${JSON.stringify(finding.line)}  [${finding.reasons.join(", ")}]${finding.more > 0 ? ` +${finding.more} more` : ""}  trap ${JSON.stringify(finding.trap.slice(0, MAX_TRAP))}`)
  if (stats.timeouts.length > 0) console.log(`timed out (report, not failures): ${JSON.stringify(stats.timeouts)}`)
  if (stats.soft.size > 0) console.log(`DEBUG trap only (report, not failures): ${JSON.stringify(Object.fromEntries(stats.soft))}`)
  baseline(Array.from({ length: BASELINE_LINES }, (_, index) => BashFuzzGrammar.generate(BashFuzzGrammar.lineSeed(seed, index), index, checker.sandbox.root).text))
}

try {
  await main()
} finally {
  checker.dispose()
}
