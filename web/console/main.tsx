/**
 * The toolgate console: signs in with the token from the URL fragment (or asks for it), loads
 * what is pending, keeps it live from the event stream, and shows five views by the address's
 * hash (#/asks, #/approvals, #/audit, #/rules, #/sessions). While the tab is hidden, new asks
 * count in its title and raise a browser notification (when the person allowed them).
 */
import "./visible.js"
import { render } from "preact"
import { useEffect, useReducer, useState } from "preact/hooks"
import { type Api, type ServerEvent, events, make, takeToken, TOKEN_KEY } from "./api.js"
import { Approvals } from "./approvals.js"
import { Asks } from "./asks.js"
import { Audit } from "./audit.js"
import { Rules } from "./rules.js"
import { Runs } from "./runs.js"
import { Sessions } from "./sessions.js"
import { apply, initial, type Loaded, load, type State, withLoaded } from "./store.js"
import { Text } from "./text.js"
import { VisibleText } from "../../src/visible-text.js"

const VIEWS = ["asks", "approvals", "audit", "rules", "sessions"] as const
type View = (typeof VIEWS)[number]

const viewOf = (hash: string): View => VIEWS.find((view) => hash === `#/${view}`) ?? "asks"

type Action =
  | { readonly kind: "event"; readonly event: ServerEvent }
  | { readonly kind: "loaded"; readonly loaded: Loaded; readonly since: ReadonlyArray<ServerEvent> }
  | { readonly kind: "live"; readonly live: boolean }

const reducer = (state: State, action: Action): State => {
  if (action.kind === "event") return apply(state, action.event)
  if (action.kind === "live") return { ...state, live: action.live }
  return withLoaded(state, action.loaded, action.since)
}

const SignIn = ({ onToken, refused }: { onToken: (token: string) => void; refused: boolean }) => {
  const [token, setToken] = useState("")
  return (
    <form class="sign-in" onSubmit={(event) => { event.preventDefault(); onToken(token.trim()) }}>
      <h1>{Text.title}</h1>
      <p>{Text.signIn}</p>
      {refused ? <p class="error" role="alert">{Text.badToken}</p> : null}
      <label>{Text.tokenLabel}<input type="password" autocomplete="off" data-testid="token" value={token} onInput={(event) => setToken(event.currentTarget.value)} /></label>
      <button type="submit" class="primary">{Text.signInButton}</button>
    </form>
  )
}

const Console = ({ api, token, onRefused }: { api: Api; token: string; onRefused: () => void }) => {
  const [state, dispatch] = useReducer(reducer, initial)
  const [view, setView] = useState<View>(viewOf(location.hash))
  const [unseen, setUnseen] = useState(0)
  useEffect(() => {
    const onHash = () => setView(viewOf(location.hash))
    addEventListener("hashchange", onHash)
    const onVisible = () => { if (!document.hidden) setUnseen(0) }
    document.addEventListener("visibilitychange", onVisible)
    const stop = new AbortController()
    // Each load on the way collects the events that arrive meanwhile, to apply them again on its answer.
    const loading = new Set<Array<ServerEvent>>()
    const reload = () => {
      const since: Array<ServerEvent> = []
      loading.add(since)
      return load(api).then(
        (loaded) => { loading.delete(since); dispatch({ kind: "loaded", loaded, since }) },
        (error: { status?: number }) => { loading.delete(since); if (error.status === 401) onRefused() },
      )
    }
    void reload()
    events(token, (event) => {
      for (const since of loading) since.push(event)
      dispatch({ kind: "event", event })
      if (event.type === "toolgate.resync" || event.type === "server.connected") void reload()
      if (event.type === "permission.v2.asked" && document.hidden) {
        setUnseen((count) => count + 1)
        if ("Notification" in window && Notification.permission === "granted") new Notification(VisibleText.of(Text.notification(event.data.action, (event.data.resources ?? []).join(", "))))
      }
    }, (live) => dispatch({ kind: "live", live }), stop.signal)
    if ("Notification" in window && Notification.permission === "default") void Notification.requestPermission().catch(() => undefined)
    return () => { stop.abort(); removeEventListener("hashchange", onHash); document.removeEventListener("visibilitychange", onVisible) }
  }, [])
  useEffect(() => {
    document.title = unseen > 0 ? Text.hiddenTitle(unseen) : Text.title
  }, [unseen])
  const pending = state.asks.length + state.questions.length
  return (
    <>
      <nav>
        <strong>{Text.title}</strong>
        {VIEWS.map((item) => (
          <a key={item} href={`#/${item}`} class={item === view ? "current" : ""} data-testid={`tab-${item}`}>
            {Text.tabs[item]}{item === "asks" && pending > 0 ? <span class="badge" data-testid="pending-count">{pending}</span> : null}
          </a>
        ))}
        <span class={`status ${state.live ? "live" : "down"}`} data-testid="status">{state.live ? Text.connected : Text.reconnecting}</span>
      </nav>
      {view === "asks" ? <Runs api={api} runs={state.runs} /> : null}
      {view === "asks" ? <Asks api={api} asks={state.asks} questions={state.questions} /> : null}
      {view === "approvals" ? <Approvals api={api} directories={state.directories} version={state.version} /> : null}
      {view === "audit" ? <Audit api={api} directories={state.directories} version={state.version} /> : null}
      {view === "rules" ? <Rules api={api} directories={state.directories} /> : null}
      {view === "sessions" ? <Sessions api={api} directories={state.directories} version={state.version} /> : null}
    </>
  )
}

const App = () => {
  const [token, setToken] = useState(takeToken())
  const [refused, setRefused] = useState(false)
  if (token === undefined) return <SignIn refused={refused} onToken={(given) => { sessionStorage.setItem(TOKEN_KEY, given); setRefused(false); setToken(given) }} />
  return <Console api={make(token)} token={token} onRefused={() => { sessionStorage.removeItem(TOKEN_KEY); setRefused(true); setToken(undefined) }} />
}

const root = document.getElementById("app")
if (root !== null) render(<App />, root)
