/**
 * What the terminal shows of a permission request before asking: the request, what the call will
 * do (PermissionShown: what a file tool does where it asks external_directory, the command, its
 * description and the directory it runs in, the URL and a redirect's origin, an
 * external tool's arguments), why it asks (the gate's `why`: the deciding rule and its source per
 * resource that asks, and what raised an allow), the diff, and what each "always" would allow.
 * Pure: the terminal's traits come in as `Terminal`. Everything from the request goes through
 * `Io.visible` first, so a request cannot redraw the terminal; colour codes are added only after,
 * only at a TTY and without `NO_COLOR`. A diff longer than the terminal is cut, and `d` shows all
 * of it (on-ask.ts); without a TTY nothing is cut or coloured.
 */
export * as AskView from "./ask-view.js"

import { PermissionEvaluate } from "../permission/evaluate.js"
import type { Permission } from "../permission/permission.js"
import { PermissionRequest } from "../permission/request.js"
import { PermissionRule } from "../permission/rule.js"
import { PermissionShown } from "../permission/shown.js"
import { Io } from "./io.js"

/** The most diff lines shown at once when the terminal's height is unknown. */
export const UNSIZED_LINES = 40
/** Terminal lines kept for the rest of the prompt when a diff is cut to fit above it. */
export const RESERVED_LINES = 12
/** A cut diff still shows at least this many lines, however small the terminal. */
export const MIN_SHOWN_LINES = 5
/** What the person types to see a cut diff in full. */
export const WHOLE_DIFF = "d"

/** The escape sequences of the diff colours (SGR): added, removed, hunk header, reset. */
export const COLOURS = { added: "\u001b[32m", removed: "\u001b[31m", hunk: "\u001b[36m", reset: "\u001b[0m" } as const

/** Why a resource asks when no rule matched: the default rule's own description. */
export const NO_RULE = PermissionRule.describeSource(PermissionEvaluate.DEFAULT_SOURCE)

export const Messages = {
  request: (request: Permission.Request) => `Permission requested: ${Io.visible(request.action)} ${request.resources.map(Io.visible).join(", ")}`,
  /** What a file tool's call does in the folder its external_directory ask names. */
  purpose: (purpose: string) => `  For: ${Io.visible(purpose)}`,
  command: (command: string) => `  Command: ${Io.visible(command)}`,
  description: (description: string) => `  Description: ${Io.visible(PermissionShown.description(description))}`,
  sandbox: (text: string) => `  Runs ${Io.visible(text)}`,
  workdir: (directory: string) => `  Directory: ${Io.visible(directory)}`,
  url: (url: string) => `  URL: ${Io.visible(url)}`,
  canonical: (url: string) => `  Fetched as: ${Io.visible(url)}`,
  redirectedFrom: (url: string) => `  Redirected from: ${Io.visible(url)}`,
  /** An external MCP tool's call: the arguments it would send. */
  arguments: (text: string) => `  Arguments: ${Io.visible(text)}`,
  /**
   * A resource that asks and the rule that decided it: `bash "git push*" ask (from <source>)`, or
   * `NO_RULE`. The resource is named only when the request has several (which sub-command asked).
   */
  why: (why: Permission.Why, named: boolean) =>
    `  Why${named ? ` ${Io.visible(why.resource)}` : ""}: ${why.rule === undefined ? NO_RULE : `${Io.visible(why.rule.action)} "${Io.visible(why.rule.resource)}" ${why.rule.effect} (from ${Io.visible(why.rule.source)})`}`,
  raised: (raised: Permission.Raised) => `    (${Io.visible(PermissionRequest.Messages.raised(raised))})`,
  /** The line after a cut diff. */
  cut: (hidden: number) => `  … ${hidden} more diff ${hidden === 1 ? "line" : "lines"} not shown: type ${WHOLE_DIFF} to see the whole diff`,
  session: (allow: string) => `  [s]ession would ${Io.visible(allow)}`,
  allows: (allow: string) => `  [a]lways would ${Io.visible(allow)}`,
  noSave: "  [s]ession and [a]lways save nothing for this request: they count as once",
} as const

/** How the terminal shows things: colours, and how many lines fit (undefined: nothing is cut). */
export interface Terminal {
  readonly colour: boolean
  readonly lines?: number
}

/** Colours only at a terminal and without `NO_COLOR` (no-color.org: set and not empty); cut to its height, else to `UNSIZED_LINES`. */
export const terminalOf = (io: Io.Io): Terminal => {
  if (!io.isTTY) return { colour: false }
  const rows = io.rows?.()
  const colour = io.env.NO_COLOR === undefined || io.env.NO_COLOR === ""
  return { colour, lines: rows !== undefined && rows > 0 ? rows : UNSIZED_LINES }
}

export interface View {
  /** Everything shown before the question. */
  readonly text: string
  /** The whole diff as shown (escaped, coloured), when the view cut it; undefined when nothing was cut. */
  readonly whole?: string
}

const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/

/**
 * The colour of each line of a unified diff. A hunk header (cyan) says how many old and new lines
 * follow; only those are added (green) or removed (red) lines, so a removed `--x` is a change and
 * a `--- a` between hunks is a file header (plain).
 */
const coloursOf = (lines: ReadonlyArray<string>): ReadonlyArray<string | undefined> => {
  const left = { old: 0, new: 0 }
  return lines.map((line) => {
    const hunk = left.old + left.new === 0 ? HUNK.exec(line) : null
    if (hunk !== null) {
      left.old = Number(hunk[1] ?? 1)
      left.new = Number(hunk[2] ?? 1)
      return COLOURS.hunk
    }
    if (line.startsWith("-") && left.old > 0) {
      left.old -= 1
      return COLOURS.removed
    }
    if (line.startsWith("+") && left.new > 0) {
      left.new -= 1
      return COLOURS.added
    }
    if (line.startsWith(" ")) {
      left.old = Math.max(0, left.old - 1)
      left.new = Math.max(0, left.new - 1)
    }
    return undefined
  })
}

/** The diff's lines made safe (tabs kept: they only move the cursor on), then coloured. */
const diffLines = (diff: string, terminal: Terminal): ReadonlyArray<string> => {
  const safe = diff.replace(/\n$/, "").split("\n").map((line) => line.split("\t").map(Io.visible).join("\t"))
  if (!terminal.colour) return safe
  const colours = coloursOf(safe)
  return safe.map((line, index) => (colours[index] === undefined ? line : `${colours[index]}${line}${COLOURS.reset}`))
}

/** The diff lines as shown, and the whole diff when it does not fit. */
const diffOf = (diff: string | undefined, terminal: Terminal) => {
  if (diff === undefined) return { lines: [] }
  const lines = diffLines(diff, terminal)
  if (terminal.lines === undefined || lines.length <= terminal.lines) return { lines }
  const kept = Math.max(MIN_SHOWN_LINES, terminal.lines - RESERVED_LINES)
  return { lines: [...lines.slice(0, kept), Messages.cut(lines.length - kept)], whole: lines.join("\n") }
}

/** What the call will do, before the diff. */
const doing = (shown: PermissionShown.Shown): ReadonlyArray<string> => [
  ...(shown.purpose === undefined ? [] : [Messages.purpose(shown.purpose)]),
  ...(shown.command === undefined ? [] : [Messages.command(shown.command)]),
  ...(shown.description === undefined ? [] : [Messages.description(shown.description)]),
  ...(shown.sandbox === undefined ? [] : [Messages.sandbox(shown.sandbox)]),
  ...(shown.workdir === undefined ? [] : [Messages.workdir(shown.workdir)]),
  ...(shown.url === undefined ? [] : [Messages.url(shown.url)]),
  ...(shown.canonical === undefined ? [] : [Messages.canonical(shown.canonical)]),
  ...(shown.redirectedFrom === undefined ? [] : [Messages.redirectedFrom(shown.redirectedFrom)]),
  ...(shown.arguments === undefined ? [] : [Messages.arguments(shown.arguments)]),
]

/**
 * The prompt's text before its question.
 * @example AskView.of(request, { colour: false }).text // "Permission requested: bash git push\n  Why git push: …"
 */
export const of = (request: Permission.Request, terminal: Terminal): View => {
  const shown = PermissionShown.of(request.metadata)
  const diff = diffOf(shown.diff, terminal)
  const lines = [
    Messages.request(request),
    ...doing(shown),
    ...(request.why ?? []).flatMap((why) => [Messages.why(why, request.resources.length > 1), ...(why.raised === undefined ? [] : [Messages.raised(why.raised)])]),
    ...diff.lines,
    ...(request.save.length === 0 ? [Messages.noSave] : [...request.allows.session.map(Messages.session), ...request.allows.project.map(Messages.allows)]),
  ]
  return { text: lines.join("\n"), ...(diff.whole === undefined ? {} : { whole: diff.whole }) }
}
