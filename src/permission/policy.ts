/**
 * The organization's policy: rules an administrator keeps in the `policy` table of the database
 * a team shares (docs/postgres.md), read at every decision. They are judged after every user,
 * project, session rule and saved approval, and only ever make a decision stricter
 * (PermissionEvaluate.Query.policy): a policy deny is final, a policy ask cannot become an allow
 * by "always" (such an ask saves nothing). The application's role may read the table, not write
 * it (PostgresSql.grants): a person cannot loosen the policy through toolgate.
 */
export * as Policy from "./policy.js"

import { Effect } from "effect"
import { Sql } from "../storage/sql.js"
import { PermissionRule } from "./rule.js"
import { PermissionRuleSpellings } from "./rule-spellings.js"

interface Row {
  readonly position: number
  readonly action: string
  readonly resource: string
  readonly effect: string
  readonly rule_when: string | null
  readonly note: string | null
}

const EFFECTS: ReadonlyArray<string> = ["allow", "deny", "ask"]

/**
 * A row as a rule; a row no rule can be made of (an effect the table's check let through
 * elsewhere) denies, failing closed. A path rule's `~` and `$HOME` are the home of the process
 * judging, as in a config file: `read ~/.ssh/* deny` means every user's keys.
 */
const toRule = (home: string) => (row: Row): PermissionRule.Sourced => ({
  action: row.action,
  // Spelled as written (`~` read as `home`); `rules` adds the other spellings of a path rule.
  resource: row.resource,
  effect: EFFECTS.includes(row.effect) ? (row.effect as PermissionRule.Effect) : "deny",
  ...(row.rule_when === "sandboxed" ? { when: "sandboxed" as const } : {}),
  source: { kind: "policy", position: row.position, ...(row.note === null ? {} : { note: row.note }) },
})

/** The policy's rules in order, path rules with `~` and `$HOME` read as `home`. */
export const rules = (home: string, location?: string): Effect.Effect<ReadonlyArray<PermissionRule.Sourced>, never, Sql.Service> =>
  Effect.flatMap(Sql.Service, (sql) =>
    Effect.map(sql.all<Row>("SELECT position, action, resource, effect, rule_when, note FROM policy ORDER BY position"), (rows) => PermissionRuleSpellings.expand(rows.map(toRule(home)), home, location)),
  )
