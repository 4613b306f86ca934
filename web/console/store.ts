/**
 * What the console knows, kept current by the event stream: the working directories, the pending
 * asks and questions of each (loaded from the API, then added and removed by events), and a
 * counter that views watch to reload (an approval saved or revoked, a call settled, a resync).
 */
import type { Api, ServerEvent } from "./wire.js"

export interface Ask {
  readonly id: string
  readonly sessionID: string
  readonly action: string
  readonly resources: ReadonlyArray<string>
  readonly save: ReadonlyArray<string>
  readonly allows: { readonly session: ReadonlyArray<string>; readonly project: ReadonlyArray<string> }
  readonly metadata: Readonly<Record<string, unknown>>
  readonly why?: ReadonlyArray<{ readonly resource: string; readonly rule?: { action: string; resource: string; effect: string; source: string }; readonly raised?: { kind: string; names?: string[]; prefix?: string } }>
  readonly createdAt: number
  readonly directory: string
}

export interface QuestionAsk {
  readonly id: string
  readonly sessionID: string
  readonly questions: ReadonlyArray<{ question: string; header: string; options: ReadonlyArray<{ label: string; description?: string }>; multiple?: boolean }>
  readonly directory: string
}

/** A run of the turn loop the server drives for a session (POST /api/session/:id/run), as its events tell it. */
export interface Run {
  readonly sessionID: string
  readonly directory: string
  readonly step: number
  /** The model's latest text, its end kept when long. */
  readonly text: string
  /** The step's calls, in the order they started; `kind` once settled. */
  readonly calls: ReadonlyArray<{ readonly toolCallID: string; readonly tool: string; readonly kind?: string }>
  /** How it ended, once it has: a reason (done, max-steps, declined…), "aborted", or the model's failure. */
  readonly ended?: string
}

/** How much of the model's text a run keeps. */
export const RUN_TEXT = 600

export interface State {
  readonly directories: ReadonlyArray<string>
  readonly asks: ReadonlyArray<Ask>
  readonly questions: ReadonlyArray<QuestionAsk>
  readonly runs: ReadonlyArray<Run>
  /** The sessions running when the state was last loaded (their progress so far is not replayed). */
  readonly running: ReadonlyArray<string>
  readonly live: boolean
  /** Bumped by every event that may change what a view shows. */
  readonly version: number
}

export const initial: State = { directories: [], asks: [], questions: [], runs: [], running: [], live: false, version: 0 }

const withDirectory = (directories: ReadonlyArray<string>, directory: string | undefined) =>
  directory === undefined || directories.includes(directory) ? directories : [...directories, directory].sort()

const fresh = (sessionID: string, directory: string): Run => ({ sessionID, directory, step: 0, text: "", calls: [] })

/** The runs after a `toolgate.run.*` event: the run of its session changed (made when new). */
const applyRun = (runs: ReadonlyArray<Run>, event: ServerEvent): ReadonlyArray<Run> => {
  const sessionID = event.data.sessionID as string
  const known = runs.find((run) => run.sessionID === sessionID)
  const run = known ?? fresh(sessionID, event.directory ?? "")
  const changed = ((): Run => {
    switch (event.type) {
      case "toolgate.run.step":
        return { ...run, ended: undefined, step: event.data.step, text: "", calls: [] }
      case "toolgate.run.text":
        return { ...run, text: (run.text + event.data.delta).slice(-RUN_TEXT) }
      case "toolgate.run.call":
        return { ...run, calls: [...run.calls, { toolCallID: event.data.toolCallID, tool: event.data.tool }] }
      case "toolgate.run.outcome":
        return { ...run, calls: run.calls.map((call) => (call.toolCallID === event.data.toolCallID ? { ...call, kind: event.data.kind } : call)) }
      case "toolgate.run.finished":
        return { ...run, ended: event.data.reason }
      case "toolgate.run.aborted":
        return { ...run, ended: "aborted" }
      default:
        return { ...run, ended: event.data.message }
    }
  })()
  return known === undefined ? [...runs, changed] : runs.map((entry) => (entry.sessionID === sessionID ? changed : entry))
}

/** The state after one event. */
export const apply = (state: State, event: ServerEvent): State => {
  const directories = withDirectory(state.directories, event.directory)
  const version = state.version + 1
  // A run's progress changes only the runs: its text streams token by token, and views that reload
  // on `version` would reload on each. Its end may have changed files and sessions: that bumps it.
  if (event.type.startsWith("toolgate.run.")) {
    const runs = applyRun(state.runs, event)
    const ends = event.type === "toolgate.run.finished" || event.type === "toolgate.run.aborted" || event.type === "toolgate.run.failed"
    return { ...state, directories, runs, ...(ends ? { version } : {}) }
  }
  switch (event.type) {
    case "permission.v2.asked":
      if (state.asks.some((ask) => ask.id === event.data.id)) return { ...state, directories }
      return { ...state, directories, version, asks: [...state.asks, { ...event.data, directory: event.directory ?? "" }] }
    case "permission.v2.replied":
      return { ...state, directories, version, asks: state.asks.filter((ask) => ask.id !== event.data.requestID) }
    case "question.v2.asked":
      if (state.questions.some((question) => question.id === event.data.id)) return { ...state, directories }
      return { ...state, directories, version, questions: [...state.questions, { ...event.data, directory: event.directory ?? "" }] }
    case "question.v2.replied":
    case "question.v2.rejected":
      return { ...state, directories, version, questions: state.questions.filter((question) => question.id !== event.data.requestID) }
    case "server.connected":
    case "server.heartbeat":
      return { ...state, directories }
    default:
      return { ...state, directories, version }
  }
}

export type Loaded = Pick<State, "directories" | "asks" | "questions" | "running">

/** The events that add or settle an ask or a question: applying one of them twice changes nothing. */
const settlesPending = (event: ServerEvent) => event.type.startsWith("permission.v2.") || event.type.startsWith("question.v2.")

/**
 * A load's answer made current. `load` reads its lists one request at a time, so its answer can be
 * older than events that arrived while it was on the way: an ask created after its list was read
 * and announced before the load returned would vanish when the answer replaced the state. The ask
 * and question events received since the load began are applied again on top of its answer.
 */
export const withLoaded = (state: State, loaded: Loaded, since: ReadonlyArray<ServerEvent>): State => {
  // A session running since before the console loaded shows as running, its progress from now on.
  const known = new Set(state.runs.map((run) => run.sessionID))
  const runs = [...state.runs, ...loaded.running.filter((id) => !known.has(id)).map((sessionID) => ({ sessionID, directory: "", step: 0, text: "", calls: [] }))]
  const answered: State = { ...state, ...loaded, runs, version: state.version + 1 }
  return since.filter(settlesPending).reduce(apply, answered)
}

/** Everything pending, loaded from the API (at start and after a resync). */
export const load = async (api: Api): Promise<Loaded> => {
  const locations = await api.get<{ root: string; data: ReadonlyArray<{ directory: string }> }>("/api/location")
  const directories = [...new Set([locations.root, ...locations.data.map((location) => location.directory)])].sort()
  const lists = await Promise.all(
    directories.map(async (directory) => {
      const query = `?directory=${encodeURIComponent(directory)}`
      const [asks, questions] = await Promise.all([api.get(`/api/permission/request${query}`), api.get(`/api/question/request${query}`)])
      return {
        asks: (asks.data as Ask[]).map((ask) => ({ ...ask, directory })),
        questions: (questions.data as QuestionAsk[]).map((question) => ({ ...question, directory })),
      }
    }),
  )
  const running = ((await api.get("/api/run")).data as ReadonlyArray<string>)
  return { directories, asks: lists.flatMap((list) => list.asks), questions: lists.flatMap((list) => list.questions), running }
}
