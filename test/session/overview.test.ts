import { describe, expect, it } from "@effect/vitest"
import { SessionOverview } from "../../src/session/overview.js"
import type { Session } from "../../src/session.js"

const info = (id: string, createdAt: number, endedAt?: number): Session.Info => ({
  id,
  projectID: "prj_1",
  location: "/w",
  agent: "build",
  rules: [],
  createdAt,
  ...(endedAt === undefined ? {} : { endedAt }),
})

describe("SessionOverview", () => {
  it("summarizes a session from its audit activity and written files; none means no call and no asks", () => {
    expect(SessionOverview.summarize(info("ses_a", 1), { sessionID: "ses_a", lastAt: 5, pending: 2, interrupted: 1 }, 3)).toEqual({
      id: "ses_a",
      agent: "build",
      location: "/w",
      createdAt: 1,
      lastCallAt: 5,
      changedFiles: 3,
      pendingAsks: 2,
      interruptedAsks: 1,
    })
    expect(SessionOverview.summarize(info("ses_b", 1, 9), undefined, 0)).toEqual({ id: "ses_b", agent: "build", location: "/w", createdAt: 1, changedFiles: 0, pendingAsks: 0, interruptedAsks: 0, endedAt: 9 })
  })

  it("orders by last activity, newest first: a call, else creation; the later id first on a tie", () => {
    const summaries = [
      SessionOverview.summarize(info("ses_1", 10), { sessionID: "ses_1", lastAt: 50, pending: 0, interrupted: 0 }, 0),
      SessionOverview.summarize(info("ses_2", 20), undefined, 0),
      SessionOverview.summarize(info("ses_3", 30), undefined, 0),
      SessionOverview.summarize(info("ses_4", 20), undefined, 0),
    ]
    expect(SessionOverview.order(summaries).map((summary) => summary.id)).toEqual(["ses_1", "ses_3", "ses_4", "ses_2"])
    expect(SessionOverview.lastActivity(summaries[1] as SessionOverview.Summary)).toBe(20)
  })
})
