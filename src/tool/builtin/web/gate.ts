/**
 * How webfetch judges a hop: by what is fetched, not how it is spelled. A hop is judged as its
 * canonical URL (WebUrl) and as every other form it arrives as — the path as a lenient server
 * reads it (opaque paths), the loopback that `0.0.0.0`, `[::]` and `localhost` reach, and the URL
 * at each address the host resolves to — and the strictest answer wins (any deny denies, any ask
 * asks). A form other than the canonical URL counts only through a rule that does not also match
 * the canonical URL: a catch-all (`*`, the default ask) has already judged that, and a rule
 * naming a host (`https://docs.example/* allow`) must not be undone by the catch-all its
 * addresses fall under. Nothing goes on the network before it may: the forms known without a
 * lookup are judged (and asked) first, then the host is looked up and its addresses judged. An
 * opaque path is asked as opaque input, so no wildcard allows it, and "always" saves nothing.
 * `near` is what a hop is judged by before the lookup; webfetch's `requests` lists it for the
 * first hop, and the forms it keeps are counted by `PermissionEvaluate.counted` in both places.
 */
export * as WebGate from "./gate.js"

import { Effect } from "effect"
import { PermissionEvaluate } from "../../../permission/evaluate.js"
import { Permission } from "../../../permission/permission.js"
import type { PermissionShown } from "../../../permission/shown.js"
import { Tool } from "../../tool.js"
import { WebAddress } from "./address.js"
import type { WebHttp } from "./http.js"
import { WebOwnHosts } from "./own-hosts.js"
import { WebUrl } from "./url.js"

export interface Gate {
  /** Judges a hop (asking when the rules say so) and returns the addresses it may connect to. */
  readonly admit: (hop: WebHttp.Hop) => Effect.Effect<ReadonlyArray<WebAddress.Address>, Tool.ExecuteError | WebHttp.Error>
}

/** What "always" saves for a URL: everything on its scheme and host (with a non-default port). */
export const savePattern = (origin: string): string => `${origin}/*`

/**
 * What the person is shown besides the resources: the URL as requested, its canonical form when
 * that differs, and for a redirect the URL of the call it redirects away from.
 */
export const metadata = (requested: string, canonical: WebUrl.Canonical, redirectedFrom?: string): PermissionShown.Shown => ({
  url: requested,
  ...(requested === canonical.url ? {} : { canonical: canonical.url }),
  ...(redirectedFrom === undefined ? {} : { redirectedFrom }),
})

/** A hop's canonical URL and the request it is judged by before any lookup. */
export interface Near {
  readonly target: WebUrl.Canonical
  readonly request: Tool.PermissionRequest
}

/**
 * What a hop to `url` is judged by before its host is looked up: the canonical URL first, then
 * the forms known without a lookup (the loopback `0.0.0.0`, `[::]`, `localhost` and this
 * machine's own addresses reach; an
 * opaque path as a lenient server reads it), aliased. Undefined for a URL that is not http(s).
 * webfetch's `requests` is this for its first hop; the host's addresses are judged after the lookup.
 * @example WebGate.near(new URL("http://localhost:3000/"), "webfetch")?.request.resources // ["http://localhost:3000/", "http://127.0.0.1:3000/", "http://[::1]:3000/"]
 */
export const near = (url: URL, action: string): Near | undefined => {
  const target = WebUrl.canonical(url)
  if (target === undefined) return undefined
  const forms = WebUrl.forms(target, [target.host, ...WebAddress.reaches(target.host, WebOwnHosts.current())])
  return {
    target,
    request: {
      action,
      resources: forms,
      save: target.opaque ? [] : [savePattern(target.origin)],
      metadata: metadata(url.href, target),
      ...(target.opaque ? { opaque: true } : {}),
      aliased: true,
    },
  }
}

const sameRule = (a: Permission.Sourced, b: Permission.Sourced) =>
  a.action === b.action && a.resource === b.resource && a.effect === b.effect && JSON.stringify(a.source) === JSON.stringify(b.source)

interface Judged {
  readonly form: string
  readonly rule: Permission.Sourced
}

/**
 * The gate of one tool call: a hop whose asks were all answered already in this call (same
 * canonical origin, same deciding rules; for an opaque path, the same URL) goes without asking again.
 * @example const gate = WebGate.make(permission, context, "webfetch"); yield* WebHttp.fetch({ ...request, admit: gate.admit })
 */
export const make = (permission: Permission.Interface, context: Tool.Context, action: string): Gate => {
  const approved: Array<{ readonly origin: string; readonly form: string; readonly rule: Permission.Sourced }> = []
  /** The hops admitted so far: the first is the call's own URL, every later one a redirect from it. */
  const hops: Array<string> = []

  const ruleFor = (form: string, opaque: boolean) => {
    // Permission.decide forwards `opaque` to the evaluation, though its declared input omits it.
    const query: Pick<Permission.AssertInput, "sessionID" | "action" | "resources" | "opaque"> = { sessionID: context.sessionID, action, resources: [form], opaque }
    return Effect.map(permission.decide(query), (decision): Judged => ({ form, rule: decision.matched[0]?.rule ?? PermissionEvaluate.fallback(action) }))
  }

  const covered = (target: WebUrl.Canonical, kept: ReadonlyArray<Judged>) => {
    const asks = kept.filter(({ rule }) => rule.effect === "ask")
    // Opaque input is approved only as the exact text the person saw.
    const answered = asks.every(({ form, rule }) =>
      approved.some((entry) => entry.origin === target.origin && sameRule(entry.rule, rule) && (!target.opaque || entry.form === form)),
    )
    return asks.length > 0 && answered && kept.every(({ rule }) => rule.effect !== "deny")
  }

  const judge = Effect.fnUntraced(function* (target: WebUrl.Canonical, requested: string, forms: ReadonlyArray<string>, redirectedFrom: string | undefined) {
    const judged = yield* Effect.forEach(forms, (form) => ruleFor(form, target.opaque))
    const kept = PermissionEvaluate.counted(action, target.url, judged, permission.context)
    if (kept.length === 0 || covered(target, kept)) return
    const asking = kept.filter(({ rule }) => rule.effect === "ask")
    const origins = [target.origin, ...asking.map(({ form }) => new URL(form).origin)]
    const resources = kept.map(({ form }) => form)
    // An address is asked about next to the URL it stands for (already judged), so the person sees both.
    const shown = asking.length > 0 && !resources.includes(target.url) ? [target.url, ...resources] : resources
    yield* Tool.ask(permission, context, {
      action,
      resources: shown,
      save: target.opaque ? [] : [...new Set(origins)].map(savePattern),
      metadata: metadata(requested, target, redirectedFrom),
      ...(target.opaque ? { opaque: true } : {}),
    })
    approved.push(...asking.map(({ form, rule }) => ({ origin: target.origin, form, rule })))
  })

  const admit = Effect.fnUntraced(function* (hop: WebHttp.Hop) {
    const known = near(hop.url, action)
    // WebHttp only makes http(s) hops, and every such URL has a canonical form.
    if (known === undefined) return yield* Effect.die(new globalThis.Error(`not an http(s) URL: ${hop.url.href}`))
    const { target } = known
    const first = hops[0]
    hops.push(hop.url.href)
    yield* judge(target, hop.url.href, known.request.resources, first)
    const addresses = yield* hop.resolve
    const own = WebOwnHosts.current()
    const hosts = addresses.map(({ address }) => WebAddress.hostOf(address)).flatMap((host) => [host, ...WebAddress.reaches(host, own)])
    const far = WebUrl.forms(target, hosts).filter((form) => !known.request.resources.includes(form))
    if (far.length > 0) yield* judge(target, hop.url.href, far, first)
    return addresses
  })

  return { admit }
}
