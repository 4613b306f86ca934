import { describe, expect, it } from "@effect/vitest"
import type { ChangeLog } from "../../src/snapshot/change-log.js"
import { RevertPlan } from "../../src/snapshot/revert-plan.js"
import { TreeEntry } from "../../src/snapshot/tree-entry.js"

const blob = (char: string, mode = "100644"): TreeEntry.Entry => ({ mode, object: char.repeat(40) })
const [A, B, C] = [blob("a"), blob("b"), blob("c")]
const [S, T] = [blob("s", TreeEntry.SIZE_ONLY), blob("t", TreeEntry.SIZE_ONLY)]
const LARGE = { path: "f", action: "keep", reason: "large" } as const

describe("RevertPlan.decide", () => {
  const cases: ReadonlyArray<{ readonly name: string; readonly facts: RevertPlan.Facts; readonly expected: RevertPlan.Decision | undefined }> = [
    { name: "restores a file still as the session left it", facts: { path: "f", now: B, base: B, expected: B, touched: { target: A, left: B } }, expected: { step: { path: "f", action: "restore" }, state: A } },
    { name: "deletes a file the session created", facts: { path: "f", now: B, base: B, expected: B, touched: { left: B } }, expected: { step: { path: "f", action: "delete" } } },
    { name: "recreates a file the session deleted", facts: { path: "f", touched: { target: A } }, expected: { step: { path: "f", action: "recreate" }, state: A } },
    { name: "restores a mode change", facts: { path: "f", now: blob("a", "100755"), base: blob("a", "100755"), expected: blob("a", "100755"), touched: { target: A, left: blob("a", "100755") } }, expected: { step: { path: "f", action: "restore" }, state: A } },
    { name: "keeps a file the person changed after the session", facts: { path: "f", now: C, base: C, expected: C, touched: { target: A, left: B } }, expected: { step: { path: "f", action: "keep", reason: "session" } } },
    { name: "keeps a file the person re-created after the session deleted it", facts: { path: "f", now: C, base: C, expected: C, touched: { target: A } }, expected: { step: { path: "f", action: "keep", reason: "session" } } },
    { name: "keeps a file the person changed after the revert before", facts: { path: "f", now: C, base: B, expected: A, touched: { target: A, left: B } }, expected: { step: { path: "f", action: "keep", reason: "revert" } } },
    { name: "does nothing to a file already as it was", facts: { path: "f", now: A, base: A, expected: A, touched: { target: A, left: A } }, expected: undefined },
    { name: "unrevert puts back the state before the chain", facts: { path: "f", now: A, base: B, expected: A }, expected: { step: { path: "f", action: "restore" }, state: B } },
    { name: "keeps a file whose earlier version is known by size only", facts: { path: "f", now: B, base: B, expected: B, touched: { target: S, left: B } }, expected: { step: LARGE } },
    { name: "keeps a large file the session created, known by size only", facts: { path: "f", now: S, base: S, expected: S, touched: { left: S } }, expected: { step: LARGE } },
    { name: "keeps a large file where a version would be put back", facts: { path: "f", now: T, base: T, expected: T, touched: { target: A, left: T } }, expected: { step: LARGE } },
    { name: "does nothing to a large file as it was", facts: { path: "f", now: S, base: S, expected: S, touched: { target: S, left: S } }, expected: undefined },
    { name: "unrevert keeps a file changed since the revert", facts: { path: "f", now: C, base: B, expected: A }, expected: { step: { path: "f", action: "keep", reason: "revert" } } },
  ]
  for (const c of cases) it(c.name, () => expect(RevertPlan.decide(c.facts)).toEqual(c.expected))
})

const entry = (id: number, kind: ChangeLog.Kind, messageID: string | undefined, paths: ReadonlyArray<string>, closed = true): ChangeLog.Entry => ({
  id,
  kind,
  messageID,
  before: "t".repeat(40),
  after: closed ? "u".repeat(40) : undefined,
  changes: closed ? paths.map((path) => ({ path, before: A, after: B })) : undefined,
})

const ids = (entries: ReadonlyArray<ChangeLog.Entry>) => entries.map((item) => item.id)

describe("RevertPlan.timeline", () => {
  it("drops the messages a chain reverted once the session goes on, and keeps them after an unrevert", () => {
    const base = [entry(1, "tool", "m1", ["a"]), entry(2, "tool", "m2", ["b"]), entry(3, "shell", "m3", ["c"]), entry(4, "revert", "m2", ["b", "c"])]
    expect(ids(RevertPlan.timeline(base).live)).toEqual([1, 2, 3])
    expect(ids(RevertPlan.timeline(base).chain)).toEqual([4])
    expect(ids(RevertPlan.timeline(base).settled)).toEqual([1, 2, 3])
    const committed = RevertPlan.timeline([...base, entry(5, "tool", "m4", ["d"])])
    expect([ids(committed.live), ids(committed.chain), ids(committed.settled)]).toEqual([[1, 5], [], [1, 2, 3, 4, 5]])
    const undone = RevertPlan.timeline([...base, entry(5, "unrevert", undefined, ["b", "c"]), entry(6, "tool", "m4", ["d"])])
    expect([ids(undone.live), ids(undone.chain)]).toEqual([[1, 2, 3, 6], []])
  })

  it("leaves out entries never closed", () => {
    const line = RevertPlan.timeline([entry(1, "tool", "m1", ["a"]), entry(2, "shell", "m2", [], false)])
    expect(ids(line.live)).toEqual([1])
    expect(RevertPlan.touched(line, "m2")).toBeUndefined()
  })

  it("takes each path's target from its first change since the message and what it left from its last", () => {
    const line = RevertPlan.timeline([
      { ...entry(1, "tool", "m1", []), changes: [{ path: "a", before: A, after: B }] },
      { ...entry(2, "tool", "m2", []), changes: [{ path: "a", before: B, after: C }, { path: "n", after: A }] },
    ])
    expect(RevertPlan.touched(line, "m1")).toEqual(new Map([["a", { target: A, left: C }], ["n", { left: A }]]))
    expect(RevertPlan.touched(line, "m2")).toEqual(new Map([["a", { target: B, left: C }], ["n", { left: A }]]))
  })
})
