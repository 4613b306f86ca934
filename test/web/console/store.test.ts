/**
 * The console's state against the order things arrive in a browser: a load's answer that is older
 * than the events received while it was on the way must not make an ask vanish (the ask would be
 * pending on the server and shown nowhere).
 */
import { describe, expect, it } from "vitest"
import type { ServerEvent } from "../../../web/console/wire.js"
import { type Ask, apply, initial, type Loaded, withLoaded } from "../../../web/console/store.js"

const ask = (id: string): Ask => ({
  id,
  sessionID: "ses_1",
  action: "bash",
  resources: ["echo hi"],
  save: ["echo hi"],
  allows: { session: [], project: [] },
  metadata: {},
  createdAt: 1,
  directory: "/w",
})

const asked = (id: string, seq: number): ServerEvent => ({ id: String(seq), type: "permission.v2.asked", data: ask(id), directory: "/w" })
const replied = (id: string, seq: number): ServerEvent => ({ id: String(seq), type: "permission.v2.replied", data: { requestID: id, reply: "once" }, directory: "/w" })
const nothingPending: Loaded = { directories: ["/w"], asks: [], questions: [], running: [] }

describe("withLoaded", () => {
  it("keeps an ask announced while a load that read before it was on the way", () => {
    const event = asked("per_1", 1)
    const shown = apply(initial, event)
    const state = withLoaded(shown, nothingPending, [event])
    expect(state.asks.map((pending) => pending.id)).toEqual(["per_1"])
  })

  it("drops an ask answered while the load was on the way, though the load still listed it", () => {
    const stale: Loaded = { ...nothingPending, asks: [ask("per_1")] }
    const state = withLoaded(apply(initial, asked("per_1", 1)), stale, [replied("per_1", 2)])
    expect(state.asks).toEqual([])
  })

  it("shows an ask once when both the load and a later event carry it", () => {
    const listed: Loaded = { ...nothingPending, asks: [ask("per_1")] }
    const state = withLoaded(initial, listed, [asked("per_1", 1)])
    expect(state.asks.map((pending) => pending.id)).toEqual(["per_1"])
  })

  it("takes the load's answer as it is when nothing arrived meanwhile", () => {
    const listed: Loaded = { ...nothingPending, asks: [ask("per_2")] }
    const state = withLoaded(apply(initial, asked("per_1", 1)), listed, [])
    expect(state.asks.map((pending) => pending.id)).toEqual(["per_2"])
  })

  it("replays only ask and question events, so a run's streamed text is not doubled", () => {
    const text: ServerEvent = { id: "3", type: "toolgate.run.text", data: { sessionID: "ses_1", delta: "hello" }, directory: "/w" }
    const before = apply(initial, text)
    const after = withLoaded(before, nothingPending, [text])
    expect(after.runs).toEqual(before.runs)
  })
})
