/**
 * The permission parser judged against real bash: every line the gate would allow under a small
 * allow list is run in a throwaway tree with recording shims as PATH (test/lib/bash-fuzz), and it
 * must run no program the gate did not judge and touch nothing outside the workdir. A fixed seed
 * and a time budget keep it reproducible and under a minute; `npm run bench -- bash-fuzz` runs
 * it for longer with fresh seeds.
 */
import { describe, expect, it } from "@effect/vitest"
import { BashParse } from "../../../../src/tool/builtin/bash/parse.js"
import { BashFuzzCheck } from "../../../lib/bash-fuzz/check.js"
import { BashFuzz } from "../../../lib/bash-fuzz/fuzz.js"
import { BashFuzzJudge } from "../../../lib/bash-fuzz/judge.js"

const SEED = 20_261_130
/** Stop generating after this long (the corpus and shrinking included), or after MAX_LINES lines. */
const BUDGET_MS = 40_000
const MAX_LINES = 5_000
/** Fewer executed lines than this means the harness tested nothing. */
const MIN_EXECUTED = 100
const TEST_TIMEOUT_MS = 60_000
/** Shrinking runs bash once per attempt: keep it to a few lines per family and kind of reason. */
const SHRINK_MS = 2_500
const MAX_SHRINKS_PER_KEY = 3

const parser = await BashParse.load()

/** A gate that allows every line and judges only `echo`: the harness must see through it. */
const permissive = (): BashFuzzCheck.Judge => () => ({
  effect: "allow",
  allowed: true,
  parsed: { resources: [{ text: "echo hi", save: undefined }], opaque: false, targets: [], absolutePaths: [] },
  external: [],
  judged: new Set(["echo"]),
})

const withChecker = async <A>(checker: BashFuzzCheck.Checker, body: (checker: BashFuzzCheck.Checker) => Promise<A>): Promise<A> => {
  try {
    return await body(checker)
  } finally {
    checker.dispose()
  }
}

describe("BashParse against real bash", () => {
  it("runs a harmless allowed line and passes it", () =>
    withChecker(BashFuzzCheck.make(parser), async (checker) => {
      const echo = await checker.check("echo hi")
      expect({ status: echo.status, allowed: echo.decision.allowed, output: echo.result?.output, trap: echo.result?.trap }).toEqual({ status: "passed", allowed: true, output: "hi\n", trap: ["echo hi"] })
      const git = await checker.check("git status && ls -la d")
      expect({ status: git.status, programs: git.result?.programs.map((record) => record.program) }).toEqual({ status: "passed", programs: ["git", "ls"] })
    }))

  it("asks for a visible payload and for a write outside the workdir, and runs neither", () =>
    withChecker(BashFuzzCheck.make(parser), async (checker) => {
      const touch = await checker.check("echo hi; touch CANARY")
      const write = await checker.check("echo pwned > ../outside/victim")
      expect([touch.status, write.status, write.decision.external]).toEqual(["asked", "asked", ['file "../outside/victim"']])
    }))

  it("fails a line whose program or write the gate did not judge, and rebuilds the tree after a write", () =>
    withChecker(BashFuzzCheck.make(parser, { judge: permissive }), async (checker) => {
      const verdicts = [
        await checker.check("echo hi; touch CANARY"),
        await checker.check("echo hi; CANARY_1"),
        await checker.check("echo pwned > ../outside/victim"),
        await checker.check("echo pwned 3<../outside/notes >/dev/fd/3"),
        await checker.check("echo hi > d/out"),
        await checker.check("echo hi"),
      ]
      expect(verdicts.map((verdict) => [verdict.status, verdict.reasons])).toEqual([
        ["failed", ["ran touch"]],
        ["failed", ['tried "CANARY_1"']],
        ["failed", ["changed outside/victim"]],
        ["failed", ["changed outside/notes"]],
        ["passed", []],
        ["passed", []],
      ])
    }))

  it("refuses to run a line with a path outside the tree", () =>
    withChecker(BashFuzzCheck.make(parser, { judge: permissive }), async (checker) => {
      const statuses: Array<BashFuzzCheck.Status> = []
      for (const line of ["echo x > /tmp/x", "echo x > $_", "cd ..; cd ..; echo x > y", "echo x > $'\\x2f'tmp", "kill -9 1"]) statuses.push((await checker.check(line)).status)
      expect(statuses).toEqual(["unsafe", "unsafe", "unsafe", "unsafe", "unsafe"])
    }))

  it(
    "finds no line that runs a program the gate did not judge or writes outside the workdir (seed corpus, then generated lines)",
    () =>
      withChecker(BashFuzzCheck.make(parser), async (checker) => {
        const stats = await BashFuzz.run(checker, { seed: SEED, budgetMs: BUDGET_MS, maxLines: MAX_LINES, shrinkMs: SHRINK_MS, maxShrinksPerKey: MAX_SHRINKS_PER_KEY })
        const share = ((100 * stats.allowed) / Math.max(1, stats.lines)).toFixed(1)
        console.log(
          `bash-fuzz seed ${SEED}: ${stats.lines} lines (${stats.corpus} corpus, ${stats.generated} generated) in ${(stats.elapsedMs / 1_000).toFixed(1)} s, ` +
            `${stats.allowed} allowed (${share}%), ${stats.executed} executed, ${stats.failed} failed, ${stats.timedOut} timed out, ${stats.unsafe} refused as unsafe`,
        )
        const failures = stats.findings.map((finding) => ({ line: finding.line, reasons: finding.reasons, family: finding.family, source: finding.source, more: finding.more }))
        failures.forEach((failure) => console.log(`bash-fuzz finding (${failure.family}, ${failure.reasons.join(", ")}): ${JSON.stringify(failure.line)} from ${JSON.stringify(failure.source)}`))
        expect(stats.unsafe).toBe(0)
        expect(stats.executed).toBeGreaterThanOrEqual(MIN_EXECUTED)
        expect(failures).toEqual([])
      }),
    TEST_TIMEOUT_MS,
  )

  it("judges with the small allow list, last match winning", () =>
    expect(BashFuzzJudge.RULES.map((rule) => `${rule.effect} ${rule.resource}`)).toEqual(["ask *", "allow echo *", "allow git status*", "allow printf *", "allow true", "allow cat *", "allow ls *", "allow grep *"]))
})
