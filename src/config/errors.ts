/**
 * What can be wrong with a config file. Each error names the file; the message is derived from
 * the data and is what the person reads on stderr before nothing starts.
 */
export * as ConfigError from "./errors.js"

import { Schema } from "effect"

export const Messages = {
  syntax: (file: string, line: number, column: number, detail: string) =>
    `Invalid config file ${file} at line ${line}, column ${column}: ${detail}`,
  unreadable: (file: string, detail: string) => `Cannot read config file ${file}: ${detail}`,
  unknownKey: (key: string, file: string, suggestion: string | undefined) =>
    `Unknown config key "${key}" in ${file}${suggestion === undefined ? "" : ` (did you mean "${suggestion}"?)`}`,
  invalidValue: (key: string, file: string, expected: string) => `Invalid config value for "${key}" in ${file}: expected ${expected}`,
  invalidEffect: (file: string) => `Invalid permission rule in ${file}: effect must be allow, ask or deny`,
  invalidPattern: (file: string) => `Invalid permission rule in ${file}: action and resource must be strings`,
  unknownAgent: (agent: string, file: string) => `Unknown agent "${agent}" in default_agent of ${file} (not build, plan or an agent defined in config)`,
} as const

export class SyntaxError extends Schema.TaggedError<SyntaxError>()("Config.SyntaxError", {
  file: Schema.String,
  line: Schema.Number,
  column: Schema.Number,
  detail: Schema.String,
}) {
  override get message() {
    return Messages.syntax(this.file, this.line, this.column, this.detail)
  }
}

export class UnreadableError extends Schema.TaggedError<UnreadableError>()("Config.UnreadableError", {
  file: Schema.String,
  detail: Schema.String,
}) {
  override get message() {
    return Messages.unreadable(this.file, this.detail)
  }
}

export class UnknownKeyError extends Schema.TaggedError<UnknownKeyError>()("Config.UnknownKeyError", {
  file: Schema.String,
  key: Schema.String,
  suggestion: Schema.optional(Schema.String),
}) {
  override get message() {
    return Messages.unknownKey(this.key, this.file, this.suggestion)
  }
}

export class InvalidValueError extends Schema.TaggedError<InvalidValueError>()("Config.InvalidValueError", {
  file: Schema.String,
  key: Schema.String,
  expected: Schema.String,
}) {
  override get message() {
    return Messages.invalidValue(this.key, this.file, this.expected)
  }
}

export class InvalidRuleError extends Schema.TaggedError<InvalidRuleError>()("Config.InvalidRuleError", {
  file: Schema.String,
  problem: Schema.Literals(["effect", "pattern"]),
}) {
  override get message() {
    return this.problem === "effect" ? Messages.invalidEffect(this.file) : Messages.invalidPattern(this.file)
  }
}

export class UnknownAgentError extends Schema.TaggedError<UnknownAgentError>()("Config.UnknownAgentError", {
  file: Schema.String,
  agent: Schema.String,
}) {
  override get message() {
    return Messages.unknownAgent(this.agent, this.file)
  }
}

/** Every tag above, to catch exactly a config error (`Effect.catchTag(TAGS, …)`). */
export const TAGS = [
  "Config.SyntaxError",
  "Config.UnreadableError",
  "Config.UnknownKeyError",
  "Config.InvalidValueError",
  "Config.InvalidRuleError",
  "Config.UnknownAgentError",
] as const satisfies ReadonlyArray<ConfigError["_tag"]>

export type ConfigError = SyntaxError | UnreadableError | UnknownKeyError | InvalidValueError | InvalidRuleError | UnknownAgentError
