/**
 * How `toolgate call` answers permission asks: `prompt` shows the request (action, resources,
 * what each save pattern would allow) and reads o/a/r and optional feedback; `once`, `always`
 * and `reject` answer by themselves; `deny` is applied earlier, as the runtime's ask policy.
 * Without a terminal the default is `reject`, so a non-interactive run never hangs.
 */
export * as OnAsk from "./on-ask.js"

import { Effect, Stream } from "effect"
import { Bus } from "../bus.js"
import { Permission } from "../permission/permission.js"
import { Io } from "./io.js"

export const MODES = ["prompt", "once", "always", "reject", "deny"] as const
export type Mode = (typeof MODES)[number]

export const Messages = {
  request: (request: Permission.Request) => `Permission requested: ${Io.visible(request.action)} ${request.resources.map(Io.visible).join(", ")}`,
  allows: (allow: string) => `  [a]lways would ${Io.visible(allow)}`,
  noSave: "  [a]lways saves nothing for this request: it counts as once",
  question: "Allow? [o]nce, [a]lways, [r]eject: ",
  feedback: "Feedback for the agent (empty to stop the agent): ",
} as const

/** The default mode: ask the person at a terminal, reject anywhere else. */
export const defaultMode = (io: Io.Io): Mode => (io.isTTY ? "prompt" : "reject")

const ANSWERS: Readonly<Record<string, Permission.Reply>> = { o: "once", once: "once", a: "always", always: "always", r: "reject", reject: "reject" }

/** Asks the person at the terminal; end of input is a reject. */
const ask = async (io: Io.Io, request: Permission.Request): Promise<Permission.ReplyInput> => {
  const lines = [Messages.request(request), ...(request.allows.length === 0 ? [Messages.noSave] : request.allows.map(Messages.allows))]
  const answer = await io.prompt(`${lines.join("\n")}\n${Messages.question}`)
  const reply = ANSWERS[(answer ?? "r").trim().toLowerCase()] ?? "reject"
  if (reply !== "reject" || answer === undefined) return { requestID: request.id, reply }
  const feedback = (await io.prompt(Messages.feedback))?.trim() ?? ""
  return { requestID: request.id, reply, ...(feedback === "" ? {} : { message: feedback }) }
}

/**
 * Subscribes now and answers every ask of this run in the caller's scope, one at a time.
 * `deny` needs no answerer (the runtime denies asks itself).
 */
export const answer = Effect.fnUntraced(function* (mode: Mode, io: Io.Io) {
  if (mode === "deny") return
  const bus = yield* Bus.Service
  const permission = yield* Permission.Service
  const asked = yield* bus.on(Permission.Asked)
  yield* asked.pipe(
    Stream.runForEach(({ payload }) =>
      Effect.flatMap(
        mode === "prompt" ? Effect.promise(() => ask(io, payload)) : Effect.succeed<Permission.ReplyInput>({ requestID: payload.id, reply: mode }),
        // The request may have been settled meanwhile (declined with its session): nothing to do then.
        (reply) => permission.reply(reply).pipe(Effect.catchTag("Permission.NotFoundError", () => Effect.void)),
      ),
    ),
    Effect.forkScoped,
  )
})
