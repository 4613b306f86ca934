/** One pending ask: what it is, why it asks, what it will do, and what each answer would save. */
import type { Ask } from "./store.js"
import { Diff } from "./diff.js"
import { PermissionShown } from "../../src/permission/shown.js"
import { Text } from "./text.js"

const raisedText = (raised: NonNullable<NonNullable<Ask["why"]>[number]["raised"]>) => {
  if (raised.kind === "protected") return Text.raised.protected(raised.names ?? [])
  if (raised.kind === "named") return Text.raised.named(raised.prefix ?? "")
  if (raised.kind === "subcommand") return Text.raised.subcommand(raised.prefix ?? "")
  return raised.kind === "untrusted" ? Text.raised.untrusted : Text.raised.opaque
}

const shown = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined)

export const Why = ({ ask }: { readonly ask: Ask }) => (
  <ul class="why" data-testid="why">
    {(ask.why ?? ask.resources.map((resource) => ({ resource }))).map((why) => (
      <li key={why.resource}>
        <code>{why.resource}</code>:{" "}
        {"rule" in why && why.rule !== undefined ? Text.rule(why.rule.action, why.rule.resource, why.rule.effect, why.rule.source) : Text.noRule}
        {"raised" in why && why.raised !== undefined ? `; ${raisedText(why.raised)}` : ""}
      </li>
    ))}
  </ul>
)

export const Effects = ({ ask }: { readonly ask: Ask }) => {
  const meta = ask.metadata
  const rows: Array<[string, string]> = []
  for (const [label, key] of [[Text.purpose, "purpose"], [Text.command, "command"], [Text.description, "description"], [Text.sandbox, "sandbox"], [Text.workdir, "workdir"], [Text.url, "url"], [Text.fetchedAs, "canonical"], [Text.redirectedFrom, "redirectedFrom"], [Text.arguments, "arguments"]] as const) {
    const value = shown(meta[key])
    if (value !== undefined) rows.push([label, key === "description" ? PermissionShown.description(value) : value])
  }
  const diff = shown(meta.diff)
  return (
    <div class="effects">
      {rows.length === 0 ? null : (
        <dl>
          {rows.map(([label, value]) => [<dt key={`${label}-t`}>{label}</dt>, <dd key={`${label}-d`} data-testid={`effect-${label}`}><code>{value}</code></dd>])}
        </dl>
      )}
      {diff === undefined ? null : (
        <details open>
          <summary>{Text.diff}</summary>
          <Diff text={diff} />
        </details>
      )}
    </div>
  )
}

export const Saves = ({ patterns, allows, intro }: { readonly patterns: ReadonlyArray<string>; readonly allows: ReadonlyArray<string>; readonly intro: string }) => (
  <div class="saves">
    {intro}
    <ul>
      {patterns.map((pattern, index) => (
        <li key={pattern}>
          <code>{pattern}</code> {Text.wouldAllow} <em>{allows[index] ?? pattern}</em>
        </li>
      ))}
    </ul>
  </div>
)
