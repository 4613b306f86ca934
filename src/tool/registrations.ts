/**
 * The stack of registrations per name that both registry layers share. Each registration gets
 * a fresh identity; the top of a name's stack is the active one. Closing the scope that made a
 * registration removes exactly that entry wherever it sits, which reveals whatever the name
 * resolved to before. A record is checked whole before anything is pushed: all or nothing.
 */
export * as Registrations from "./registrations.js"

import { Effect, Scope } from "effect"
import { Tool } from "./tool.js"

/** One active registration: a tool under a name, with an identity no other registration shares. */
export interface Entry {
  readonly name: string
  readonly tool: Tool.AnyTool
  readonly identity: symbol
}

export interface Registrations {
  /** Pushes every tool of the record and pops them when the caller's scope closes. */
  readonly register: (record: Readonly<Record<string, Tool.AnyTool>>, changed: (names: ReadonlyArray<string>) => Effect.Effect<void>) => Effect.Effect<void, Tool.RegistrationError, Scope.Scope>
  readonly lookup: (name: string) => Entry | undefined
  readonly names: () => ReadonlyArray<string>
}

export const make = (): Registrations => {
  const stacks = new Map<string, Entry[]>()

  const push = (entry: Entry) => stacks.set(entry.name, [...(stacks.get(entry.name) ?? []), entry])

  const remove = (entry: Entry) => {
    const rest = (stacks.get(entry.name) ?? []).filter((candidate) => candidate.identity !== entry.identity)
    if (rest.length === 0) return stacks.delete(entry.name)
    return stacks.set(entry.name, rest)
  }

  const register: Registrations["register"] = (record, changed) =>
    Effect.gen(function* () {
      const entries = Object.entries(record).map(([name, tool]) => ({ name, tool, identity: Symbol(name) }))
      const invalid = entries.map(({ name, tool }) => Tool.validate(name, tool)).find((error) => error !== undefined)
      if (invalid !== undefined) return yield* invalid
      const names = entries.map((entry) => entry.name)
      yield* Effect.acquireRelease(
        Effect.sync(() => entries.forEach(push)).pipe(Effect.andThen(changed(names))),
        () => Effect.sync(() => entries.forEach(remove)).pipe(Effect.andThen(changed(names))),
      )
    })

  return {
    register,
    lookup: (name) => stacks.get(name)?.at(-1),
    names: () => [...stacks.keys()],
  }
}
