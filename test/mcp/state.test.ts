/**
 * The `requestState` of a 2026-07-28 `input_required` round, driven by hand (the SDK client's
 * manual mode: `allowInputRequired` on the request): a forged, foreign, mismatched, replayed or
 * expired state is refused, nothing is answered and nothing runs, and the ask it named is still
 * waiting for its genuine state.
 */
import { existsSync } from "node:fs"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { type Connection, connect, type Sandbox, sandbox, withConnection } from "../lib/mcp-client.js"

const ASK_BASH = { permission: [{ action: "bash", resource: "*", effect: "ask" }] }
const MAKE = { command: "touch made.txt", description: "make a file" }
const REFUSED = "toolgate refused this retried call: its requestState is not valid ("
const refusal = (reason: string) => `${REFUSED}${reason}). Nothing was answered and nothing ran; call the tool again to be asked anew.`
const STOPPED = "The person stopped the agent: do not retry this call or work around it; wait for their instructions."

interface InputRequired {
  readonly resultType: "input_required"
  readonly inputRequests: Readonly<Record<string, { readonly method: string; readonly params: { readonly message: string; readonly mode?: string } }>>
  readonly requestState: string
}

interface Complete {
  readonly resultType?: string
  readonly content: ReadonlyArray<{ readonly type: string; readonly text?: string }>
  readonly isError?: boolean
  readonly _meta?: Readonly<Record<string, unknown>>
}

type Round = InputRequired | Complete

const isInput = (round: Round): round is InputRequired => round.resultType === "input_required"

/** One `tools/call` round, with the `input_required` result handed back instead of fulfilled. */
const round = async (connection: Connection, params: { name: string; arguments: Readonly<Record<string, unknown>>; requestState?: string; inputResponses?: Readonly<Record<string, unknown>> }): Promise<Round> =>
  (await connection.client.request({ method: "tools/call", params: { ...params } }, { allowInputRequired: true, timeout: 60_000 })) as unknown as Round

/** The first round of `bash` with `args`: it must ask. */
const ask = async (connection: Connection, args: Readonly<Record<string, unknown>> = MAKE) => {
  const first = await round(connection, { name: "bash", arguments: args })
  if (!isInput(first)) throw new Error(`expected input_required, got ${JSON.stringify(first)}`)
  const keys = Object.keys(first.inputRequests)
  expect(keys).toHaveLength(1)
  const key = keys[0] as string
  expect(first.inputRequests[key]?.method).toBe("elicitation/create")
  expect(first.inputRequests[key]?.params.message).toMatch(/^toolgate: the bash tool asks for bash on /)
  expect(first.requestState).toMatch(/^[\w-]+\.[\w-]+$/)
  return { key, state: first.requestState }
}

const once = (key: string) => ({ [key]: { action: "accept", content: { decision: "once" } } })

const textOf = (result: Round) => (isInput(result) ? "" : result.content.map((part) => part.text ?? "").join("\n"))

const expectRefused = (result: Round, reason: string) => {
  expect(isInput(result)).toBe(false)
  expect((result as Complete).isError).toBe(true)
  expect(textOf(result).startsWith(REFUSED)).toBe(true)
  expect(textOf(result)).toBe(refusal(reason))
}

const made = (box: Sandbox, name = "made.txt") => existsSync(path.join(box.work, name))

const inBox = async (config: unknown, body: (box: Sandbox, connection: Connection) => Promise<void>) => {
  const box = await sandbox({ config })
  try {
    await withConnection(box, { era: "modern" }, (connection) => body(box, connection))
  } finally {
    await box.dispose()
  }
}

describe("requestState of input_required rounds (2026-07-28, by hand)", () => {
  it("runs the call when its genuine state comes back with the answer", () =>
    inBox(ASK_BASH, async (box, connection) => {
      const { key, state } = await ask(connection)
      expect(made(box)).toBe(false)
      const result = await round(connection, { name: "bash", arguments: MAKE, requestState: state, inputResponses: once(key) })
      expect(isInput(result)).toBe(false)
      expect((result as Complete).isError).not.toBe(true)
      expect(made(box)).toBe(true)
      expect(connection.elicitations).toEqual([])
    }), 60_000)

  it("refuses a forged state, runs nothing, and the ask still waits for the genuine one", () =>
    inBox(ASK_BASH, async (box, connection) => {
      const { key, state } = await ask(connection)
      const [payload, signature] = state.split(".") as [string, string]
      const flipped = `${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>
      const longer = Buffer.from(JSON.stringify({ ...claims, expires: Number(claims.expires) + 3_600_000 })).toString("base64url")
      const forgeries = [`${payload}.${flipped}`, `${longer}.${signature}`, payload, `${payload}.${signature}.x`, "not-a-state", ""]
      for (const forged of forgeries) {
        const result = await round(connection, { name: "bash", arguments: MAKE, requestState: forged, inputResponses: once(key) })
        expectRefused(result, "it was not issued by this toolgate process")
        expect(made(box)).toBe(false)
      }
      const result = await round(connection, { name: "bash", arguments: MAKE, requestState: state, inputResponses: once(key) })
      expect((result as Complete).isError).not.toBe(true)
      expect(made(box)).toBe(true)
    }), 60_000)

  it("refuses a state sealed by another toolgate process", async () => {
    const box = await sandbox({ config: ASK_BASH })
    try {
      const first = await connect(box, { era: "modern" })
      const second = await connect(box, { era: "modern" })
      try {
        const { key, state } = await ask(first)
        await ask(second)
        expectRefused(await round(second, { name: "bash", arguments: MAKE, requestState: state, inputResponses: once(key) }), "it was not issued by this toolgate process")
        expect(made(box)).toBe(false)
      } finally {
        await Promise.all([first.close(), second.close()])
      }
    } finally {
      await box.dispose()
    }
  }, 60_000)

  it("refuses a state carried back with other arguments, and the ask still waits", () =>
    inBox(ASK_BASH, async (box, connection) => {
      const { key, state } = await ask(connection)
      const other = { command: "touch other.txt", description: "make a file" }
      expectRefused(await round(connection, { name: "bash", arguments: other, requestState: state, inputResponses: once(key) }), "it was issued for a different call")
      expectRefused(await round(connection, { name: "bash", arguments: { ...MAKE, description: "something else" }, requestState: state, inputResponses: once(key) }), "it was issued for a different call")
      expectRefused(await round(connection, { name: "write", arguments: MAKE, requestState: state, inputResponses: once(key) }), "it was issued for a different call")
      expect(made(box)).toBe(false)
      expect(made(box, "other.txt")).toBe(false)
      // The key order of the arguments does not matter: the digest is of canonical JSON.
      const reordered = { description: MAKE.description, command: MAKE.command }
      const result = await round(connection, { name: "bash", arguments: reordered, requestState: state, inputResponses: once(key) })
      expect((result as Complete).isError).not.toBe(true)
      expect(made(box)).toBe(true)
      expect(made(box, "other.txt")).toBe(false)
    }), 60_000)

  it("refuses a replayed state, and answers nothing of the call now waiting", () =>
    inBox(ASK_BASH, async (box, connection) => {
      const first = await ask(connection)
      const declined = await round(connection, { name: "bash", arguments: MAKE, requestState: first.state, inputResponses: { [first.key]: { action: "decline" } } })
      expect((declined as Complete).isError).toBe(true)
      expect(textOf(declined)).toBe(`Permission declined by the user: bash\n${STOPPED}`)
      expect(made(box)).toBe(false)
      // The same call again asks again; the spent state cannot answer it.
      const second = await ask(connection)
      expectRefused(await round(connection, { name: "bash", arguments: MAKE, requestState: first.state, inputResponses: once(first.key) }), "it was already used")
      expectRefused(await round(connection, { name: "bash", arguments: MAKE, requestState: first.state, inputResponses: once(second.key) }), "it was already used")
      expect(made(box)).toBe(false)
      const result = await round(connection, { name: "bash", arguments: MAKE, requestState: second.state, inputResponses: once(second.key) })
      expect((result as Complete).isError).not.toBe(true)
      expect(made(box)).toBe(true)
      expectRefused(await round(connection, { name: "bash", arguments: MAKE, requestState: second.state, inputResponses: once(second.key) }), "it was already used")
    }), 60_000)

  it("takes an ask the retried call left out of its responses as a reject", () =>
    inBox(ASK_BASH, async (box, connection) => {
      const { state } = await ask(connection)
      const result = await round(connection, { name: "bash", arguments: MAKE, requestState: state, inputResponses: {} })
      expect((result as Complete).isError).toBe(true)
      expect(textOf(result)).toBe(`Permission declined by the user: bash\n${STOPPED}`)
      expect(made(box)).toBe(false)
    }), 60_000)

  // A state expires a grace minute after its ask timed out (unit-tested in request-state.test.ts);
  // a retry inside that minute reads how the call ended, and its answer runs nothing.
  it("answers a retry after the ask timed out with the ended ask, and runs nothing", () =>
    inBox({ ...ASK_BASH, mcp: { ask_timeout: 1000 } }, async (box, connection) => {
      const { key, state } = await ask(connection)
      await new Promise((resolve) => setTimeout(resolve, 2000))
      const result = await round(connection, { name: "bash", arguments: MAKE, requestState: state, inputResponses: once(key) })
      expect((result as Complete).isError).toBe(true)
      expect(textOf(result)).toBe(`Permission request for bash ended unanswered: nobody answered within 1 s\n${STOPPED}`)
      expect(made(box)).toBe(false)
    }), 60_000)
})
