/**
 * The `question` tool (08): asks the person business questions and hands the answers back to the
 * model. It asserts `question [*]` (nothing is ever saved: an answer authorizes nothing), then
 * waits on the Question service. A dismissal with a message becomes a `Failure` the model reads;
 * one without a message is `Question.DismissedError`, which, like a decline, stops the turn.
 * Headers over MAX_HEADER_LENGTH characters and questions without options fail input decoding.
 */
export * as QuestionTool from "./question.js"

import { Effect, Schema } from "effect"
import { Permission } from "../../permission/permission.js"
import { Question } from "../../question.js"
import { Tool } from "../tool.js"
import { Tracing } from "../../tracing.js"

export const name = "question"

export const DESCRIPTION = `Asks the user one or more questions and waits for the answers.

Use it when a decision is the user's to make (a preference, a trade-off, an ambiguous requirement), not to ask permission for an action.
- Each question has a short header (at most ${Question.MAX_HEADER_LENGTH} characters) and at least one option with a label and a description.
- The user may pick an option or write an answer of their own; set multiple to true to allow several answers.
- Put the recommended option first and say so in its description.
- The answers come back in order; a question the user skipped is marked "Unanswered".`

/** What the model reads for a question the person skipped. */
export const UNANSWERED = "Unanswered"

export const Messages = {
  answer: (question: string, answers: ReadonlyArray<string>) => `"${question}"="${answers.length === 0 ? UNANSWERED : answers.join(", ")}"`,
  answered: (pairs: ReadonlyArray<string>) => `User has answered your questions: ${pairs.join(", ")}. You can now continue with the user's answers in mind.`,
} as const

export const Input = Schema.Struct({
  questions: Schema.Array(Question.Info).check(Schema.isMinLength(1)).annotate({ description: "The questions to ask (at least one)" }),
}).annotate({ identifier: "QuestionTool.Input" })
export type Input = typeof Input.Type

/** One list of answers per question, in order (empty: unanswered). */
export const Output = Schema.Struct({ answers: Question.Answers }).annotate({ identifier: "QuestionTool.Output" })
export type Output = typeof Output.Type

/** The text the model reads: every question with its answers. */
export const format = (questions: ReadonlyArray<Question.Info>, answers: Question.Answers): string =>
  Messages.answered(questions.map((question, index) => Messages.answer(question.question, answers[index] ?? [])))

const toModelOutput = ({ input, output }: { readonly input: Input; readonly output: typeof Output.Encoded }): ReadonlyArray<Tool.Content> => [
  { type: "text", text: format(input.questions, output.answers) },
]

/**
 * The `question` tool, with the permission gate and the Question service captured.
 * @example const question = yield* QuestionTool.make; yield* registry.register({ [QuestionTool.name]: question })
 */
/** The one request every call makes: `question [*]`, saving nothing. */
export const REQUESTS: ReadonlyArray<Tool.PermissionRequest> = [{ action: name, resources: ["*"] }]

export const make: Effect.Effect<Tool.Value<Input, Output>, never, Permission.Service | Question.Service> = Effect.gen(function* () {
  const permission = yield* Permission.Service
  const questions = yield* Question.Service
  const execute = Tracing.fn("QuestionTool.execute")(function* (input: Input, context: Tool.Context) {
    yield* Tool.askAll(permission, context, REQUESTS)
    const answers = yield* questions
      .ask({ sessionID: context.sessionID, questions: input.questions, source: { toolCallID: context.toolCallID, messageID: context.assistantMessageID } })
      .pipe(Effect.catchTag("Question.CorrectedError", (error) => Effect.fail(new Tool.Failure({ message: error.message }))))
    return { answers }
  })
  return Tool.make({ description: DESCRIPTION, input: Input, output: Output, execute, toModelOutput, requests: () => Effect.succeed(REQUESTS) })
})
