/**
 * Walks a tree-sitter-bash tree: every simple command anywhere — lists, pipes, `$( )`,
 * backticks, `<( )`, subshells, groups, if/while/until/for/case conditions and bodies, function
 * bodies, heredoc bodies — goes to BashParseCommand, with the places it may run in (`&&`, `||`,
 * `;`, `&`, subshells and pipes as bash runs them). Grammar quirks: in `a && b > out` the
 * redirect node wraps the whole list but belongs to `b`, so trailing redirects are handed down to
 * the last command of a list or pipeline; `cat <<EOF | sh` and `cat <<EOF && x` put the rest of
 * the line inside the heredoc node. Gotcha: `[ ]` and `[[ ]]` are test_command nodes, not
 * commands; they run nothing themselves and are not resources (`test` is an ordinary command).
 * The walk records in the scope's ledger every substitution it walks and the literal text of
 * static arguments, so that BashParseGuard.hidden can find the substitutions it never saw.
 */
export * as BashParseWalk from "./parse-walk.js"

import type { Node } from "web-tree-sitter"
import type { BashCommand } from "./command.js"
import { BashParseCommand } from "./parse-command.js"
import { BashParseGuard } from "./parse-guard.js"
import { BashParsePlace } from "./parse-place.js"
import { BashParseRedirect } from "./parse-redirect.js"
import { BashParseWord } from "./parse-word.js"

/** Statement and word nesting past which the input is opaque. */
export const MAX_DEPTH = 200

export interface Scope {
  readonly source: string
  readonly tilde: BashParseWord.Tilde
  /** CDPATH may be set by the command. */
  readonly cdpath: boolean
  /** The directory stack, OLDPWD or cdable_vars may be rewritten: every move lands somewhere unknown. */
  readonly unsettled: boolean
  /** Standard input here is a pipe. */
  readonly piped: boolean
  /** `shopt -s lastpipe` may be on: the last command of a pipe runs in the shell. */
  readonly lastpipe: boolean
  readonly depth: number
  /** What the walk of `source` saw. */
  readonly ledger: BashParseGuard.Ledger
}

export interface Sink {
  /** Called once per simple command. */
  readonly command: (output: BashParseCommand.Output) => void
  readonly target: (target: BashCommand.Target) => void
  readonly opaque: () => void
  /** An absolute path read without a command (`$(< /etc/passwd)`), for the Warnings block. */
  readonly read: (path: string) => void
  /** A redirection bound a descriptor to a file opened for reading (BashParseRedirect.binds). */
  readonly bind: () => void
  /** Parses and walks a command string (`sh -c`) starting at `places`. */
  readonly nested: (text: string, places: BashParsePlace.Places, scope: Scope) => void
}

const STATEMENTS = new Set([
  "c_style_for_statement",
  "case_statement",
  "command",
  "compound_statement",
  "declaration_command",
  "for_statement",
  "function_definition",
  "if_statement",
  "list",
  "negated_command",
  "pipeline",
  "redirected_statement",
  "subshell",
  "test_command",
  "unset_command",
  "variable_assignment",
  "variable_assignments",
  "while_statement",
])
const SUBSTITUTIONS = new Set(["command_substitution", "process_substitution"])
const REDIRECTS = new Set(["file_redirect", "heredoc_redirect", "herestring_redirect"])
const MOVING = /\b(?:cd|pushd|popd)\b/

const text = (node: Node, scope: Scope) => scope.source.slice(node.startIndex, node.endIndex)
const deeper = (scope: Scope): Scope => ({ ...scope, depth: scope.depth + 1 })

/**
 * The statements a node holds without being one: substitutions in words, redirects and
 * expressions, each walked from `places` (their moves stay inside).
 */
const scan = (node: Node, places: BashParsePlace.Places, scope: Scope, sink: Sink): void => {
  if (scope.depth > MAX_DEPTH) return sink.opaque()
  if (SUBSTITUTIONS.has(node.type) || node.type === "arithmetic_expansion") BashParseGuard.walked(node, scope.source, scope.ledger)
  if (SUBSTITUTIONS.has(node.type)) return void sequence(node.children, places, deeper(scope), sink)
  if (STATEMENTS.has(node.type)) return void statement(node, places, scope, sink)
  inside(node, places, scope, sink)
}

/** Scans the children of `node` (of a heredoc, not the rest of its line). */
const inside = (node: Node, places: BashParsePlace.Places, scope: Scope, sink: Sink): void => {
  const inner = deeper(scope)
  BashParseRedirect.own(node).forEach((child) => scan(child, places, inner, sink))
}

/** Files read with no command (`$(< /etc/passwd)`, `< f` alone) warn like any other read. */
const reads = (redirects: ReadonlyArray<BashParseRedirect.Redirect>, sink: Sink) =>
  redirects.forEach((redirect) => redirect.kind === "read" && redirect.file?.path?.startsWith("/") === true && sink.read(redirect.file.path))

/** Redirects of a statement that is not a simple command: targets where it starts. */
const rest = (nodes: ReadonlyArray<Node>, places: BashParsePlace.Places, scope: Scope, sink: Sink) => {
  const redirects = nodes.flatMap((node) => BashParseRedirect.read(node, scope.source, scope.tilde))
  if (redirects.some(BashParseRedirect.binds)) sink.bind()
  if (redirects.some(BashParseRedirect.connects)) sink.opaque()
  reads(redirects, sink)
  // `{ a; } > out x` is a syntax error in bash; whatever the grammar made of it, do not guess.
  if (redirects.some((redirect) => redirect.extra.length > 0)) sink.opaque()
  BashParseRedirect.targets(redirects, places).forEach(sink.target)
  nodes.forEach((node) => scan(node, places, scope, sink))
}

/** Statements in order; one followed by `&` runs in the background and moves nothing. */
const sequence = (children: ReadonlyArray<Node>, places: BashParsePlace.Places, scope: Scope, sink: Sink): BashParsePlace.Outcome =>
  children.reduce(
    (state, child, index) => {
      if (!STATEMENTS.has(child.type)) {
        if (child.type === "ERROR") inside(child, state.places, scope, sink)
        // `$(< f)` and `$(> f)`: a redirection with no command opens its file all the same.
        if (REDIRECTS.has(child.type)) rest([child], state.places, scope, sink)
        return state
      }
      const outcome = statement(child, state.places, scope, sink)
      if (children[index + 1]?.type === "&") return { places: state.places, last: BashParsePlace.same(state.places) }
      return { places: BashParsePlace.after(outcome), last: outcome }
    },
    { places, last: BashParsePlace.same(places) },
  ).last

/** The children after the first `from` token up to the first child whose type is in `to`. */
const between = (children: ReadonlyArray<Node>, from: string, to: ReadonlyArray<string>): ReadonlyArray<Node> => {
  const start = children.findIndex((child) => child.type === from)
  const rest = children.slice(start + 1)
  const stop = rest.findIndex((child) => to.includes(child.type))
  return start === -1 ? [] : stop === -1 ? rest : rest.slice(0, stop)
}

const chain = (operator: string, left: BashParsePlace.Outcome, right: (places: BashParsePlace.Places) => BashParsePlace.Outcome): BashParsePlace.Outcome => {
  if (operator === "&&") {
    const next = right(left.ok)
    return { ok: next.ok, failed: BashParsePlace.union(left.failed, next.failed) }
  }
  const next = right(left.failed)
  return { ok: BashParsePlace.union(left.ok, next.ok), failed: next.failed }
}

const list = (node: Node, places: BashParsePlace.Places, scope: Scope, sink: Sink, trailing: ReadonlyArray<Node>): BashParsePlace.Outcome => {
  const children = node.children
  const last = children.findLastIndex((child) => STATEMENTS.has(child.type))
  return children.reduce<{ readonly outcome: BashParsePlace.Outcome | undefined; readonly operator: string }>(
    (state, child, index) => {
      if (!STATEMENTS.has(child.type)) return child.type === "&&" || child.type === "||" ? { ...state, operator: child.type } : state
      const walk = (at: BashParsePlace.Places) => statement(child, at, scope, sink, index === last ? trailing : [])
      return { outcome: state.outcome === undefined ? walk(places) : chain(state.operator, state.outcome, walk), operator: "" }
    },
    { outcome: undefined, operator: "" },
  ).outcome ?? BashParsePlace.same(places)
}

const pipeline = (node: Node, places: BashParsePlace.Places, scope: Scope, sink: Sink, trailing: ReadonlyArray<Node>): BashParsePlace.Outcome => {
  const elements = node.children.filter((child) => STATEMENTS.has(child.type))
  const outcomes = elements.map((child, index) =>
    statement(child, places, index === 0 ? scope : { ...scope, piped: true }, sink, index === elements.length - 1 ? trailing : []),
  )
  const last = outcomes.at(-1)
  return scope.lastpipe && last !== undefined ? BashParsePlace.same(BashParsePlace.union(places, BashParsePlace.after(last))) : BashParsePlace.same(places)
}

/** `body > out`, and the continuation of a heredoc's line (`cat <<EOF | sh`, `<<EOF && x`). */
const redirected = (node: Node, places: BashParsePlace.Places, scope: Scope, sink: Sink, trailing: ReadonlyArray<Node>): BashParsePlace.Outcome => {
  const body = node.childForFieldName("body")
  const own = node.namedChildren.filter((child) => REDIRECTS.has(child.type))
  const all = [...own, ...trailing]
  if (body === null) {
    rest(all, places, scope, sink)
    return BashParsePlace.same(places)
  }
  const outcome = statement(body, places, scope, sink, all)
  const heredoc = own.find((child) => child.type === "heredoc_redirect")
  if (heredoc === undefined) return outcome
  const pipe = heredoc.children.find((child) => child.type === "pipeline")
  const piped = { ...scope, piped: true }
  pipe?.children.filter((child) => STATEMENTS.has(child.type)).forEach((child) => statement(child, places, piped, sink))
  const before = pipe === undefined ? outcome : BashParsePlace.same(places)
  const right = heredoc.childForFieldName("right")
  const operator = heredoc.childForFieldName("operator")?.type
  return right === null || operator === undefined ? before : chain(operator, before, (at) => statement(right, at, scope, sink))
}

const command = (node: Node, places: BashParsePlace.Places, scope: Scope, sink: Sink, trailing: ReadonlyArray<Node>): BashParsePlace.Outcome => {
  const simple = node.type === "command"
  const name = simple ? node.childForFieldName("name") : node.children[0]
  const own = simple ? node.childrenForFieldName("redirect") : []
  const substitutions = () => {
    inside(node, places, scope, sink)
    trailing.forEach((child) => scan(child, places, scope, sink))
  }
  const redirects = [...own, ...trailing].flatMap((child) => BashParseRedirect.read(child, scope.source, scope.tilde))
  if (redirects.some(BashParseRedirect.binds)) sink.bind()
  if (redirects.some(BashParseRedirect.connects)) sink.opaque()
  if (name === undefined || name === null || text(name, scope) === "") {
    BashParseRedirect.targets(redirects, places).forEach(sink.target)
    reads(redirects, sink)
    substitutions()
    return BashParsePlace.same(places)
  }
  const assignments = simple ? node.namedChildren.filter((child) => child.type === "variable_assignment" && child.startIndex < name.startIndex) : []
  const args = simple ? node.childrenForFieldName("argument") : node.namedChildren
  const extra = redirects.flatMap((redirect) => redirect.extra)
  const word = (child: Node) => BashParseWord.read(child, scope.source, scope.tilde)
  /** An argument as the words bash makes of it (`cp .envr{c.in,c}` has two operands); past the limit the line is opaque. */
  const argument = (child: Node) => {
    if (!args.includes(child)) return [word(child)]
    const all = BashParseWord.readAll(child, scope.source, scope.tilde)
    if (all === undefined) sink.opaque()
    return all ?? [word(child)]
  }
  const words = [
    ...assignments.map(word),
    simple ? word(name) : BashParseWord.token(name, scope.source),
    ...[...args, ...extra].sort((a, b) => a.startIndex - b.startIndex).flatMap(argument),
  ]
  const end = Math.max(node.endIndex, ...redirects.map((redirect) => redirect.end))
  const output = BashParseCommand.analyze({
    words,
    assignments: assignments.length,
    redirects,
    text: scope.source.slice(node.startIndex, end),
    places,
    home: scope.tilde.home,
    cdpath: scope.cdpath,
    unsettled: scope.unsettled,
    piped: scope.piped,
    keyword: !simple,
  })
  sink.command(output)
  if (output.inert) [...args, ...extra].forEach((child) => word(child).literal !== undefined && BashParseGuard.literalArgument(child, scope.source, scope.ledger))
  substitutions()
  // A trap or callback runs later, at any point after this one: wherever the text may move the
  // shell, it may run somewhere unknown; a move in it leaves every later command somewhere unknown.
  const lands = (entry: { readonly places: BashParsePlace.Places }) => (output.later && MOVING.test(BashParseGuard.unquoted(scope.source)) ? BashParsePlace.unknown(entry.places) : entry.places)
  output.strings.forEach((entry) => sink.nested(entry.text, lands(entry), scope))
  const movesLater = output.later && output.strings.some((entry) => MOVING.test(BashParseGuard.unquoted(entry.text)))
  return movesLater ? BashParsePlace.same(BashParsePlace.unknown(places)) : output.outcome
}

/** A loop body may run again after a `cd` in it: from inside, the shell may be anywhere. */
const entry = (node: Node, places: BashParsePlace.Places, scope: Scope) => (moves(node, scope) ? BashParsePlace.unknown(places) : places)

/** Whether a statement may run `cd`, `pushd` or `popd` (`c''d` too). */
const moves = (node: Node, scope: Scope) => MOVING.test(BashParseGuard.unquoted(text(node, scope)))

const loop = (node: Node, places: BashParsePlace.Places, scope: Scope, sink: Sink): BashParsePlace.Outcome => {
  const start = entry(node, places, scope)
  const children = node.children
  const body = node.childForFieldName("body")
  const head = body === null ? children : children.slice(0, children.findIndex((child) => child.startIndex === body.startIndex && child.type === body.type))
  // while/until: the condition is statements; for/select/c-style for: the words and expressions.
  const condition = node.type === "while_statement" ? sequence(head, start, scope, sink) : BashParsePlace.same(start)
  if (node.type !== "while_statement") head.forEach((child) => scan(child, start, scope, sink))
  const inside = BashParsePlace.after(condition)
  const done = body === null ? BashParsePlace.same(inside) : body.type === "do_group" ? sequence(body.children, inside, scope, sink) : statement(body, inside, scope, sink)
  return BashParsePlace.same(BashParsePlace.union(start, inside, BashParsePlace.after(done)))
}

/** if/elif/else: each test runs where the previous one failed; with no else, a failed test falls through. */
const conditional = (node: Node, places: BashParsePlace.Places, scope: Scope, sink: Sink): BashParsePlace.Outcome => {
  const children = node.children
  const first = sequence(between(children, "if", ["then"]), places, scope, sink)
  const then = sequence(between(children, "then", ["elif_clause", "else_clause", "fi"]), first.ok, scope, sink)
  const clauses = children.filter((child) => child.type === "elif_clause" || child.type === "else_clause")
  const done = clauses.reduce(
    (state, clause) => {
      if (clause.type === "else_clause") return { branches: [...state.branches, sequence(between(clause.children, "else", []), state.failed, scope, sink)], failed: [] }
      const test = sequence(between(clause.children, "elif", ["then"]), state.failed, scope, sink)
      return { branches: [...state.branches, sequence(between(clause.children, "then", []), test.ok, scope, sink)], failed: test.failed }
    },
    { branches: [then], failed: first.failed },
  )
  return BashParsePlace.either([...done.branches, ...(done.failed.length === 0 ? [] : [BashParsePlace.same(done.failed)])])
}

const cases = (node: Node, places: BashParsePlace.Places, scope: Scope, sink: Sink): BashParsePlace.Outcome => {
  node.childrenForFieldName("value").forEach((child) => scan(child, places, scope, sink))
  const items = node.namedChildren.filter((child) => child.type === "case_item")
  const outcomes = items.map((item) => {
    item.childrenForFieldName("value").forEach((child) => scan(child, places, scope, sink))
    return sequence(item.children, places, scope, sink)
  })
  return BashParsePlace.either([BashParsePlace.same(places), ...outcomes])
}

/**
 * Walks one statement from `places`; `trailing` are redirects written after an enclosing list
 * or pipeline that belong to its last command.
 * @example BashParseWalk.statement(tree.rootNode.child(0), BashParsePlace.START, scope, sink)
 */
export const statement = (
  node: Node,
  places: BashParsePlace.Places,
  scope: Scope,
  sink: Sink,
  trailing: ReadonlyArray<Node> = [],
): BashParsePlace.Outcome => {
  if (scope.depth > MAX_DEPTH) {
    sink.opaque()
    return BashParsePlace.same(places)
  }
  const inner = deeper(scope)
  switch (node.type) {
    case "command":
    case "declaration_command":
    case "unset_command":
      return command(node, places, inner, sink, trailing)
    case "redirected_statement":
      return redirected(node, places, inner, sink, trailing)
    case "list":
      return list(node, places, inner, sink, trailing)
    case "pipeline":
      return pipeline(node, places, inner, sink, trailing)
    case "negated_command": {
      const child = node.namedChildren[0]
      return child === undefined ? BashParsePlace.same(places) : BashParsePlace.negate(statement(child, places, inner, sink, trailing))
    }
  }
  rest(trailing, places, inner, sink)
  switch (node.type) {
    case "subshell":
      sequence(node.children, places, inner, sink)
      return BashParsePlace.same(places)
    case "compound_statement":
      if (node.children[0]?.type !== "((") return sequence(node.children, places, inner, sink)
      inside(node, places, inner, sink)
      return BashParsePlace.same(places)
    case "if_statement":
      return conditional(node, places, inner, sink)
    case "while_statement":
    case "for_statement":
    case "c_style_for_statement":
      return loop(node, places, inner, sink)
    case "case_statement":
      return cases(node, places, inner, sink)
    case "function_definition": {
      const body = node.childForFieldName("body")
      if (body !== null) statement(body, places, inner, sink)
      rest(node.childrenForFieldName("redirect"), places, inner, sink)
      return BashParsePlace.same(moves(node, scope) ? BashParsePlace.unknown(places) : places)
    }
    default:
      inside(node, places, inner, sink)
      return BashParsePlace.same(places)
  }
}

/** Walks the top-level statements of a program node. */
export const program = (root: Node, places: BashParsePlace.Places, scope: Scope, sink: Sink): void => {
  sequence(root.children, places, scope, sink)
}
