/**
 * permission: evaluating 1 000 000 (action, resource) pairs against a 1 000-rule ruleset with the
 * compiled evaluator, against the naive approach that turns each rule into a JavaScript RegExp on
 * every call. The naive side is far too slow for a million pairs, so it runs on a sample and its
 * per-pair time is extrapolated; on that sample both sides must decide identically. Then the
 * pathological pattern `*a*a*a*a*a*a*b` against 100 000 `a`s, where a backtracking RegExp
 * explodes: the naive side runs in a child process that is stopped after a time limit.
 * Target: ≥ 10× speed-up.
 */
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { PermissionEvaluate } from "../src/permission/evaluate.js"
import type { PermissionRule } from "../src/permission/rule.js"
import { Wildcard } from "../src/permission/wildcard.js"

const RULES = 1_000
const PAIRS = 1_000_000
const NAIVE_SAMPLE = 2_000
const PATHOLOGICAL_INPUT = 100_000
const NAIVE_LIMIT_MS = 20_000
const PATHOLOGICAL = "*a*a*a*a*a*a*b"

/** Deterministic pseudo-random numbers (mulberry32), so every run measures the same data. */
const random = (() => {
  let seed = 0x5eed
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
})()
const pick = <A>(items: ReadonlyArray<A>): A => items[Math.floor(random() * items.length)] as A

const ACTIONS = ["read", "edit", "bash", "glob", "grep", "webfetch", "websearch", "skill"]
const VERBS = ["status", "push", "log", "diff", "commit", "fetch", "rebase", "checkout"]
const EFFECTS: ReadonlyArray<PermissionRule.Effect> = ["allow", "ask", "deny"]

const resourcePattern = (action: string, i: number): string => {
  if (action === "bash") return pick([`git ${pick(VERBS)} *`, `npm run script${i} *`, `make target${i}`, `docker * ${i}`, "rm *"])
  if (action === "webfetch") return pick([`https://host${i}.example.com/*`, "https://*.internal/*", `http://?${i}.test/*`])
  if (action === "read" || action === "edit") return pick([`src/module${i}/**`, "*.env", `packages/p${i}/*.ts`, `tests/**/case${i}?.ts`, "**/*.lock"])
  return pick([`*${i}*`, `term${i}`, "*"])
}

const ruleset: ReadonlyArray<PermissionRule.Sourced> = Array.from({ length: RULES }, (_, i) => {
  const action = i % 50 === 0 ? "*" : pick(ACTIONS)
  return { action, resource: resourcePattern(action, i), effect: pick(EFFECTS), source: { kind: "default" } }
})

const resource = (action: string): string => {
  const i = Math.floor(random() * RULES)
  if (action === "bash") return pick([`git ${pick(VERBS)} origin main`, `npm run script${i} --watch`, `make target${i}`, "ls -la", `rm -rf build${i}`])
  if (action === "webfetch") return pick([`https://host${i}.example.com/docs/page`, "https://api.internal/v1", `https://other${i}.org/`])
  if (action === "read" || action === "edit") return pick([`src/module${i}/index.ts`, "config/.env", `packages/p${i}/main.ts`, `tests/unit/case${i}a.ts`, "README.md"])
  return pick([`query ${i}`, `term${i}`, "anything"])
}

const pairs: ReadonlyArray<readonly [string, string]> = Array.from({ length: PAIRS }, () => {
  const action = pick(ACTIONS)
  return [action, resource(action)] as const
})

/** The naive matcher: a fresh RegExp per rule per call. */
const toRegExp = (pattern: string) => {
  const glob = pattern.replaceAll("\\", "/")
  const body = (text: string) => text.replace(/[.+^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*").replaceAll("?", ".")
  return new RegExp(glob.endsWith(" *") ? `^(?:${body(glob)}|${body(glob.slice(0, -2))})$` : `^${body(glob)}$`, "su")
}
const naive = (action: string, resourceText: string) => {
  const input = resourceText.replaceAll("\\", "/")
  for (let i = ruleset.length - 1; i >= 0; i--) {
    const rule = ruleset[i] as PermissionRule.Sourced
    if (toRegExp(rule.action).test(action) && toRegExp(rule.resource).test(input)) return rule.effect
  }
  return "ask"
}

const pathologicalChild = () => {
  const input = "a".repeat(PATHOLOGICAL_INPUT)
  const start = performance.now()
  toRegExp(PATHOLOGICAL).test(input)
  console.log(performance.now() - start)
}

if (process.argv.includes("--naive-pathological")) {
  pathologicalChild()
} else {
  const evaluator = PermissionEvaluate.compile([ruleset])
  const started = performance.now()
  const decisions = pairs.map(([action, text]) => evaluator.evaluate(action, text).effect)
  const oursMs = performance.now() - started

  const sample = pairs.slice(0, NAIVE_SAMPLE)
  const naiveStart = performance.now()
  const naiveDecisions = sample.map(([action, text]) => naive(action, text))
  const naiveMs = performance.now() - naiveStart
  const mismatches = naiveDecisions.filter((effect, i) => effect !== decisions[i]).length
  if (mismatches > 0) throw new Error(`${mismatches} of ${NAIVE_SAMPLE} decisions differ between the evaluator and the RegExp baseline`)
  const naivePerPairUs = (naiveMs * 1_000) / NAIVE_SAMPLE
  const oursPerPairUs = (oursMs * 1_000) / PAIRS

  const input = "a".repeat(PATHOLOGICAL_INPUT)
  const oursPathStart = performance.now()
  const matched = Wildcard.match(input, PATHOLOGICAL)
  const oursPathMs = performance.now() - oursPathStart
  const child = spawnSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--naive-pathological"], {
    encoding: "utf8",
    timeout: NAIVE_LIMIT_MS,
  })
  const naivePath = child.status === 0 ? `${Number(child.stdout.trim()).toFixed(0)} ms` : `did not finish in ${NAIVE_LIMIT_MS / 1_000} s (stopped)`

  const counts = EFFECTS.map((effect) => `${effect} ${decisions.filter((d) => d === effect).length.toLocaleString("en")}`).join(", ")
  console.log(`permission: ${PAIRS.toLocaleString("en")} pairs against ${RULES.toLocaleString("en")} rules (decided: ${counts})`)
  console.log(`  compiled evaluator       ${oursMs.toFixed(0)} ms (${oursPerPairUs.toFixed(2)} µs/pair)`)
  console.log(`  RegExp per rule per call ${naivePerPairUs.toFixed(1)} µs/pair on ${NAIVE_SAMPLE.toLocaleString("en")} pairs (same decisions) → ≈ ${((naivePerPairUs * PAIRS) / 1e6).toFixed(0)} s for all`)
  console.log(`  speed-up                 ${(naivePerPairUs / oursPerPairUs).toFixed(0)}× (target ≥ 10×)`)
  console.log(`  ${PATHOLOGICAL} vs ${PATHOLOGICAL_INPUT.toLocaleString("en")} a's: Wildcard ${oursPathMs.toFixed(2)} ms (match=${matched}), RegExp ${naivePath}`)
}
