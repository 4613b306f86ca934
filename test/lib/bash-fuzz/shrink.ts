/**
 * The shortest form of a failing line that still fails for the same first reason: whole pieces
 * are dropped first, then words (with the blank before them: `$(echo)` goes at once, which
 * single characters cannot do), then runs of characters, halving the run length down to one
 * (ddmin), until no deletion keeps it failing or the budget runs out. Every candidate goes through the checker,
 * so BashFuzzSafety refuses one that spells a new word or path: shrinking never invents a command.
 */
export * as BashFuzzShrink from "./shrink.js"

import type { BashFuzzCheck } from "./check.js"

export interface Budget {
  readonly attempts: number
  /** Date.now() past which shrinking stops. */
  readonly deadline: number
}

export const DEFAULT_ATTEMPTS = 400

const withoutPiece = (pieces: ReadonlyArray<string>, index: number) => pieces.filter((_, i) => i !== index)

/**
 * The shortest failing form found of `verdict.line` (built from `pieces`, when known).
 * @example await shrink(checker, verdict, [], { attempts: 200, deadline: Date.now() + 5_000 }) // "echo a\n\\touch CANARY"
 */
export const shrink = async (checker: BashFuzzCheck.Checker, verdict: BashFuzzCheck.Verdict, pieces: ReadonlyArray<string>, budget: Budget): Promise<string> => {
  const key = verdict.reasons[0]
  const original = verdict.line
  const tried = new Map<string, boolean>()
  const spent = { attempts: 0 }
  const fails = async (candidate: string): Promise<boolean> => {
    const known = tried.get(candidate)
    if (known !== undefined) return known
    if (candidate.trim() === "" || spent.attempts >= budget.attempts || Date.now() > budget.deadline) return false
    spent.attempts++
    const result = await checker.check(candidate, original)
    const failing = result.status === "failed" && key !== undefined && result.reasons.includes(key)
    tried.set(candidate, failing)
    return failing
  }
  const byPieces = async (current: ReadonlyArray<string>, index: number): Promise<ReadonlyArray<string>> => {
    if (index >= current.length) return current
    const next = withoutPiece(current, index)
    return (await fails(next.join(""))) ? byPieces(next, index) : byPieces(current, index + 1)
  }
  const byWords = async (text: string, word: number): Promise<string> => {
    // Split keeps the blanks: word k is at index 2k, the blank before it at 2k - 1.
    const tokens = text.split(/([ \t\n]+)/)
    if (2 * word >= tokens.length) return text
    const next = tokens.filter((_, i) => i !== 2 * word && i !== 2 * word - 1).join("")
    return next !== text && (await fails(next)) ? byWords(next, word) : byWords(text, word + 1)
  }
  const pass = async (text: string, size: number, at: number): Promise<string> => {
    if (at >= text.length) return text
    const candidate = text.slice(0, at) + text.slice(at + size)
    return (await fails(candidate)) ? pass(candidate, size, at) : pass(text, size, at + size)
  }
  const byChars = async (text: string, size: number): Promise<string> => {
    const next = await pass(text, size, 0)
    if (size > 1) return byChars(next, Math.max(1, Math.floor(size / 2)))
    return next.length < text.length ? byChars(next, 1) : next
  }
  const start = pieces.length > 1 && pieces.join("") === original ? (await byPieces(pieces, 0)).join("") : original
  const worded = await byWords(start, 0)
  return byChars(worded, Math.max(1, Math.floor(worded.length / 2)))
}
