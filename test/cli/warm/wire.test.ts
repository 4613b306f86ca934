/** The messages between a caller and a waiting process (cli/warm/wire.ts), over a real Unix socket. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { WarmWire } from "../../../src/cli/warm/wire.js"
import { socketPair } from "../../lib/socket-pair.js"

describe("WarmWire", () => {
  it.live("delivers each message whole, however the bytes are cut", () =>
    Effect.gen(function* () {
      const { server, client } = yield* socketPair
      const got: Array<WarmWire.ToCaller> = []
      const three = new Promise<void>((resolve) =>
        WarmWire.receive<WarmWire.ToCaller>(client, (message) => {
          got.push(message)
          if (got.length === 3) resolve()
        }),
      )
      const bytes = [{ t: "stdout", text: "one\nline é" }, { t: "exit", code: 3 }, { t: "stderr", text: "two" }].map((message) => `${JSON.stringify(message)}\n`).join("")
      for (let index = 0; index < bytes.length; index += 7) server.write(bytes.slice(index, index + 7))
      yield* Effect.promise(() => three)
      expect(got).toEqual([{ t: "stdout", text: "one\nline é" }, { t: "exit", code: 3 }, { t: "stderr", text: "two" }])
    }))

  it.live("ends a connection that sends anything but messages", () =>
    Effect.gen(function* () {
      const { server, client } = yield* socketPair
      const got: Array<unknown> = []
      WarmWire.receive(server, (message) => got.push(message))
      const closed = new Promise<void>((resolve) => server.once("close", () => resolve()))
      client.write('{"t":"go"}\nnot json\n{"t":"go"}\n')
      yield* Effect.promise(() => closed)
      expect(got).toEqual([{ t: "go" }])
    }))
})
