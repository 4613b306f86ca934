/**
 * One line, judged and (when the gate allows it) run: it FAILS when bash ran a program, or tried
 * a name, that is not the first word of a resource the allow list allows, or when anything in the
 * temporary tree outside the workdir (the log aside) was created, changed or deleted. The tree is
 * rebuilt after any change, the workdir's included, so every line starts from the same state.
 * Lines BashFuzzSafety refuses are never run.
 */
export * as BashFuzzCheck from "./check.js"

import type { BashParse } from "../../../src/tool/builtin/bash/parse.js"
import { BashFuzzExecute } from "./execute.js"
import { BashFuzzJudge } from "./judge.js"
import { BashFuzzSafety } from "./safety.js"
import { BashFuzzSandbox } from "./sandbox.js"

export type Status = "asked" | "unsafe" | "passed" | "failed"

export interface Verdict {
  readonly line: string
  readonly status: Status
  readonly decision: BashFuzzJudge.Decision
  /** Why it failed: `ran <program>`, `tried <name>` (not found), `<created|changed|deleted> <path>`. */
  readonly reasons: ReadonlyArray<string>
  readonly result: BashFuzzExecute.Result | undefined
}

export type Judge = (line: string) => BashFuzzJudge.Decision

export interface Checker {
  readonly sandbox: BashFuzzSandbox.Sandbox
  /** Judges `line` and runs it when allowed; `original` is the line a shrink candidate came from (for BashFuzzSafety). */
  readonly check: (line: string, original?: string) => Promise<Verdict>
  /** The gate's decision alone. */
  readonly judge: Judge
  readonly dispose: () => void
}

const distinct = (values: ReadonlyArray<string>) => [...new Set(values)]

/** The failure reasons of a run the gate judged with `judged`. */
export const reasonsOf = (judged: ReadonlySet<string>, result: BashFuzzExecute.Result, changes: ReadonlyArray<BashFuzzSandbox.Change>): ReadonlyArray<string> => [
  ...distinct(result.programs.map((record) => record.program).filter((program) => !judged.has(program))).map((program) => `ran ${program}`),
  ...distinct(result.missing.map((record) => record.program).filter((program) => !judged.has(program))).map((program) => `tried ${JSON.stringify(program)}`),
  ...changes.map((change) => `${change.change} ${change.path}`),
]

/**
 * A checker with its own sandbox; `judge` replaces the gate (the harness's own tests use it).
 * @example (await make(parser).check("echo hi")).status // "passed"
 */
export const make = (parser: BashParse.Parser, options: { readonly judge?: (sandbox: BashFuzzSandbox.Sandbox) => Judge } = {}): Checker => {
  const sandbox = BashFuzzSandbox.create()
  const judge = options.judge?.(sandbox) ?? ((line: string) => BashFuzzJudge.decide(parser, line, { work: sandbox.work, home: sandbox.home }))
  const baseline = { outside: BashFuzzSandbox.outsideSnapshot(sandbox), work: BashFuzzSandbox.workSnapshot(sandbox) }
  const check = async (line: string, original?: string): Promise<Verdict> => {
    const decision = judge(line)
    if (!decision.allowed) return { line, status: "asked", decision, reasons: [], result: undefined }
    if (!BashFuzzSafety.safe(line, sandbox.root, original)) return { line, status: "unsafe", decision, reasons: [], result: undefined }
    const result = await BashFuzzExecute.run(sandbox, line)
    const changes = BashFuzzSandbox.diff(baseline.outside, BashFuzzSandbox.outsideSnapshot(sandbox))
    if (changes.length > 0 || BashFuzzSandbox.diff(baseline.work, BashFuzzSandbox.workSnapshot(sandbox)).length > 0) {
      BashFuzzSandbox.reset(sandbox)
      baseline.outside = BashFuzzSandbox.outsideSnapshot(sandbox)
      baseline.work = BashFuzzSandbox.workSnapshot(sandbox)
    }
    const reasons = reasonsOf(decision.judged, result, changes)
    return { line, status: reasons.length === 0 ? "passed" : "failed", decision, reasons, result }
  }
  return { sandbox, check, judge, dispose: () => BashFuzzSandbox.dispose(sandbox) }
}
